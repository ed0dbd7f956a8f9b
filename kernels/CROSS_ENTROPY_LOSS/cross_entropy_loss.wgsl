// CROSS_ENTROPY_LOSS, hand-written (ggml_cross_entropy_loss): the scalar
//   dst = −(1/nr) · Σ_rows Σ_i (x_i − max − log Σ_j exp(x_j − max)) · y_i
// over logits x (src0) and labels y (src1). Row r starts at r·nb1 on both sides, as in ggml's
// CPU kernel. One pass per row: each thread keeps a running max and exp-sum (rescaled when its
// max grows), Σx·y and Σy; the row's loss is Σx·y − (max + log Σexp)·Σy. WGSL has no float
// atomics and a dispatch cannot zero its own output first, so one workgroup walks every row.
// Templated: the PARAMS placeholder is the uniform struct of cross-entropy-loss.ts; WG the workgroup size (a power of two).

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

// The lowest finite f32, a "−∞" that keeps exp(LOWEST − m) at 0 instead of NaN.
const LOWEST = bitcast<f32>(0xff7fffffu);

var<workgroup> wm: array<f32, {{WG}}>;
var<workgroup> ws: array<f32, {{WG}}>;
var<workgroup> wxy: array<f32, {{WG}}>;
var<workgroup> wy: array<f32, {{WG}}>;

@compute @workgroup_size({{WG}})
fn main(@builtin(local_invocation_index) lid: u32) {
  var total = 0.0;
  for (var r = 0u; r < p.nr; r++) {
    let x_row = p.off0 + r * p.s01;
    let y_row = p.off1 + r * p.s11;
    var m = LOWEST;
    var s = 0.0;
    var xy = 0.0;
    var ysum = 0.0;
    for (var i = lid; i < p.nc; i += {{WG}}u) {
      let x = src0[x_row + i];
      let y = src1[y_row + i];
      if (x > m) {
        s = s * exp(m - x);
        m = x;
      }
      s += exp(x - m);
      xy += x * y;
      ysum += y;
    }
    wm[lid] = m;
    ws[lid] = s;
    wxy[lid] = xy;
    wy[lid] = ysum;
    workgroupBarrier();
    for (var h = {{WG}}u / 2u; h > 0u; h >>= 1u) {
      if (lid < h) {
        let m2 = max(wm[lid], wm[lid + h]);
        ws[lid] = ws[lid] * exp(wm[lid] - m2) + ws[lid + h] * exp(wm[lid + h] - m2);
        wm[lid] = m2;
        wxy[lid] += wxy[lid + h];
        wy[lid] += wy[lid + h];
      }
      workgroupBarrier();
    }
    total += wxy[0] - (wm[0] + log(ws[0])) * wy[0];
    workgroupBarrier(); // every thread has read slot 0 before the next row overwrites it
  }
  if (lid == 0u) {
    dst[p.offd] = total * (-1.0 / f32(p.nr));
  }
}
