// ACC, hand-written (ggml_acc): dst = src0, with src1 added into the view of it that nb1, nb2,
// nb3 and offset (op_params) describe. src0 and dst are packed and of one shape; one thread per
// dst element decides whether its element lies in the view by dividing its distance from the
// view's start by the view strides, largest first (dims d0..d3: the host sorts them, pads dims of
// one element with a stride past dst's end, and has refused views that overlap themselves, so the
// quotients are the view indices when they are in range).
// INPLACE (ggml_acc_inplace): dst is src0 itself, so only the view changes: one thread per src1
// element adds it to its place (no two threads share one: the view does not overlap itself);
// dst is bound once, read-write. PARAMS: acc.ts's uniform schema of each variant.

{{PARAMS}}

#if INPLACE
@group(0) @binding(0) var<storage, read_write> dst: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;
#else
@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
#endif

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.y * nwg.x + wid.x) * {{WG}}u + lid;
  if (i >= p.n) {
    return;
  }
#if INPLACE
  let j0 = i % p.ne10;
  let j1 = (i / p.ne10) % p.ne11;
  let j2 = (i / (p.ne10 * p.ne11)) % p.ne12;
  let j3 = i / (p.ne10 * p.ne11 * p.ne12);
  let d = p.offd + p.voff + j0 + j1 * p.v1 + j2 * p.v2 + j3 * p.v3;
  dst[d] = dst[d] + src1[p.off1 + j0 * p.s10 + j1 * p.s11 + j2 * p.s12 + j3 * p.s13];
#else
  var v = src0[p.off0 + i];
  if (i >= p.voff) {
    let r0 = i - p.voff;
    let q0 = r0 / p.st0;
    let r1 = r0 - q0 * p.st0;
    let q1 = r1 / p.st1;
    let r2 = r1 - q1 * p.st1;
    let q2 = r2 / p.st2;
    let r3 = r2 - q2 * p.st2;
    let q3 = r3 / p.st3;
    let rest = r3 - q3 * p.st3;
    if (q0 < p.ne_0 && q1 < p.ne_1 && q2 < p.ne_2 && q3 < p.ne_3 && rest == 0u) {
      v += src1[p.off1 + q0 * p.bs0 + q1 * p.bs1 + q2 * p.bs2 + q3 * p.bs3];
    }
  }
  dst[p.offd + i] = v;
#endif
}
