// ROPE and ROPE_BACK, hand-written (ggml_rope_ext / ggml_rope_ext_back): one thread per pair of
// a row. Pairs inside [n_offs, n_offs + n_dims) are rotated — (2j, 2j+1) normal, (j, j + n_dims/2)
// neox — the others copied. Backward is the same rotation with sin_sign = -1. Any src0 row,
// plane and batch strides (rows contiguous, as ggml asserts); per-op constants come from the host,
// computed in f32 as ggml does (theta_scale, YaRN corr dims, mscale). PARAMS: src0 and dst as the
// shared Tensor descriptors (tensor_coords, tensor_at), then the pairs and the constants.

{{PARAMS}}

#if INPLACE
// In place (ggml_rope_ext_inplace) dst is src0's own buffer, bound once read-write; each thread
// reads its pair before writing it, so nothing is read after another thread wrote it.
@group(0) @binding(0) var<storage, read_write> dst: array<f32>;
@group(0) @binding(1) var<storage, read> pos: array<i32>;
#if FF
@group(0) @binding(2) var<storage, read> ff: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
#else
@group(0) @binding(2) var<uniform> p: Params;
#endif
#else
@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> pos: array<i32>;
#if FF
@group(0) @binding(2) var<storage, read> ff: array<f32>;
@group(0) @binding(3) var<storage, read_write> dst: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;
#else
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
#endif
#endif

// rope helpers: begin (the generated kernel takes these two functions from here)
// b^e by squaring: at most e + log2(e) roundings, like ggml's running product theta *= theta_scale.
fn powi(b: f32, e: u32) -> f32 {
  var r = 1.0;
  var x = b;
  var k = e;
  loop {
    if (k == 0u) { break; }
    if ((k & 1u) != 0u) { r = r * x; }
    x = x * x;
    k = k >> 1u;
  }
  return r;
}

// cos and sin of t, accurate to a few ulp of the reduced angle: WGSL only bounds its built-ins
// to 2^-11 absolute (SwiftShader's are about that coarse), far above the f32 bound. Cody-Waite
// reduction by pi/2 (n * 1.5703125 is exact for |n| < 2^16), Taylor polynomials on [-pi/4, pi/4].
fn cos_sin(t: f32) -> vec2<f32> {
  let n = round(t * 0.636619772);
  let r = ((t - n * 1.5703125) - n * 4.83826792e-4) - n * 2.56328292e-12;
  let r2 = r * r;
  let sr = r + r * r2 * (-1.66666667e-1 + r2 * (8.33333333e-3 + r2 * (-1.98412698e-4 + r2 * 2.75573192e-6)));
  let cr = 1.0 + r2 * (-0.5 + r2 * (4.16666667e-2 + r2 * (-1.38888889e-3 + r2 * (2.48015873e-5 + r2 * -2.75573192e-7))));
  let quadrant = i32(n) & 3;
  if (quadrant == 0) { return vec2<f32>(cr, sr); }
  if (quadrant == 1) { return vec2<f32>(-sr, cr); }
  if (quadrant == 2) { return vec2<f32>(-cr, -sr); }
  return vec2<f32>(sr, -cr);
}
// rope helpers: end

// the shared one-thread-per-element entry (src/core/kernel.ts elementMain): element(i) per thread
{{ELEMENT_MAIN}}

fn element(t: u32) {
  if (t >= p.npairs) {
    return;
  }
  let half_row = p.dst.ne.x / 2u;
  let q = t % half_row;
  // the row's coordinates (0, i1, i2, i3): rows contiguous, so a pair's elements are b0 + e
  let rc = tensor_coords(vec4<u32>(1u, p.dst.ne.yzw), t / half_row);
  let i2 = rc.z;
  let b0 = tensor_at(p.src0, rc);
  let bd = tensor_at(p.dst, rc);
  let q0 = p.n_offs / 2u;
  let nh = p.n_dims / 2u;
  if (q < q0 || q >= q0 + nh) {
    dst[bd + 2u * q] = {{SRC}}[b0 + 2u * q];
    dst[bd + 2u * q + 1u] = {{SRC}}[b0 + 2u * q + 1u];
    return;
  }
  let j = q - q0;
  var e0 = p.n_offs + 2u * j;
  var e1 = e0 + 1u;
  if (p.neox != 0u) {
    e0 = p.n_offs + j;
    e1 = e0 + nh;
  }
  var extrap = f32(pos[p.off_pos + i2]) * powi(p.theta_scale, j);
#if FF
  extrap = extrap / ff[p.off_ff + j];
#endif
  var theta = p.freq_scale * extrap;
  if (p.ext != 0u) {
    let y = (f32(j) - p.corr0) / max(0.001, p.corr1 - p.corr0);
    let mix = (1.0 - min(1.0, max(0.0, y))) * p.ext_factor;
    theta = theta * (1.0 - mix) + extrap * mix;
  }
  let cs = cos_sin(theta);
  let c = cs.x * p.mscale;
  let s = cs.y * p.mscale * p.sin_sign;
  let x0 = {{SRC}}[b0 + e0];
  let x1 = {{SRC}}[b0 + e1];
  dst[bd + e0] = x0 * c - x1 * s;
  dst[bd + e1] = x0 * s + x1 * c;
}
