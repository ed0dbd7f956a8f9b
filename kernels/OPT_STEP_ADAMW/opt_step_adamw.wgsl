// OPT_STEP_ADAMW, hand-written (ggml_opt_step_adamw): one thread per element updates m, v and the
// parameter w in place, in ggml's f32 order of operations:
//   m = m·β1 + g·(1 − β1);  v = v·β2 + g·g·(1 − β2)
//   w = w·(1 − α·wd) − α·(m·β1h) / (sqrt(v·β2h) + eps)
// The seven hyperparameters are read from ggml's params tensor [α, β1, β2, eps, wd, β1h, β2h].
// w, m and v live in one state buffer (dst, bound once read-write) at their own offsets; ggml
// indexes grad, m and v with a's strides, and so does this kernel. PARAMS is the shared uniform
// layout: w (a), g (grad), m, v and hp (the params tensor) as Tensor descriptors.

{{PARAMS}}

@group(0) @binding(0) var<storage, read_write> dst: array<f32>;
@group(0) @binding(1) var<storage, read> grad: array<f32>;
@group(0) @binding(2) var<storage, read> hp: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

// the shared one-thread-per-element entry (src/core/kernel.ts elementMain): element(i) per thread
{{ELEMENT_MAIN}}

fn element(i: u32) {
  if (i >= p.w.n) {
    return;
  }
  let e = tensor_at(p.w, tensor_coords(p.w.ne, i)) - p.w.off; // a's strides, for all four
  let alpha = hp[p.hp.off];
  let beta1 = hp[p.hp.off + 1u];
  let beta2 = hp[p.hp.off + 2u];
  let eps = hp[p.hp.off + 3u];
  let wd = hp[p.hp.off + 4u];
  let beta1h = hp[p.hp.off + 5u];
  let beta2h = hp[p.hp.off + 6u];
  let keep = 1.0 - alpha * wd;
  let g = grad[p.g.off + e];
  let m = dst[p.m.off + e] * beta1 + g * (1.0 - beta1);
  let v = dst[p.v.off + e] * beta2 + g * g * (1.0 - beta2);
  dst[p.m.off + e] = m;
  dst[p.v.off + e] = v;
  let mh = m * beta1h;
  let vh = sqrt(v * beta2h) + eps;
  dst[p.w.off + e] = dst[p.w.off + e] * keep - alpha * mh / vh;
}
