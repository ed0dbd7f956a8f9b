// OPT_STEP_ADAMW, hand-written (ggml_opt_step_adamw): one thread per element updates m, v and the
// parameter w in place, in ggml's f32 order of operations:
//   m = m·β1 + g·(1 − β1);  v = v·β2 + g·g·(1 − β2)
//   w = w·(1 − α·wd) − α·(m·β1h) / (sqrt(v·β2h) + eps)
// The seven hyperparameters are read from ggml's params tensor [α, β1, β2, eps, wd, β1h, β2h].
// w, m and v live in one state buffer (dst, bound once read-write) at their own offsets; ggml
// indexes grad, m and v with a's strides, and so does this kernel.

{{PARAMS}}

@group(0) @binding(0) var<storage, read_write> dst: array<f32>;
@group(0) @binding(1) var<storage, read> grad: array<f32>;
@group(0) @binding(2) var<storage, read> hp: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.y * nwg.x + wid.x) * {{WG}}u + lid;
  if (i >= p.n) {
    return;
  }
  let i0 = i % p.ne0;
  let i1 = (i / p.ne0) % p.ne1;
  let i2 = (i / (p.ne0 * p.ne1)) % p.ne2;
  let i3 = i / (p.ne0 * p.ne1 * p.ne2);
  let e = i0 + i1 * p.s1 + i2 * p.s2 + i3 * p.s3;
  let alpha = hp[p.offp];
  let beta1 = hp[p.offp + 1u];
  let beta2 = hp[p.offp + 2u];
  let eps = hp[p.offp + 3u];
  let wd = hp[p.offp + 4u];
  let beta1h = hp[p.offp + 5u];
  let beta2h = hp[p.offp + 6u];
  let keep = 1.0 - alpha * wd;
  let g = grad[p.offg + e];
  let m = dst[p.offm + e] * beta1 + g * (1.0 - beta1);
  let v = dst[p.offv + e] * beta2 + g * g * (1.0 - beta2);
  dst[p.offm + e] = m;
  dst[p.offv + e] = v;
  let mh = m * beta1h;
  let vh = sqrt(v * beta2h) + eps;
  dst[p.offw + e] = dst[p.offw + e] * keep - alpha * mh / vh;
}
