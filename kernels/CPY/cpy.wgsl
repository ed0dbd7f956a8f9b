// CPY / CONT, hand-written (ggml_cpy, ggml_cont, ggml_dup): dst element k (ggml order of dst's
// own shape) = src element k (ggml order of src's shape), src through its element strides and
// offset, so any view (permuted, transposed, strided rows, a slice) is read.
// F16: dst is packed f16, written without shader-f16: each thread owns one u32 word of dst (two
// halves) and writes it with pack2x16float; a word the tensor only half covers keeps the other
// half's bits (dst's neighbours, a NaN sentinel included). Else dst is any f32 view.
// Templated: the PARAMS placeholder is the uniform struct of cpy.ts.

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<f32>;
#if F16
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
#else
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
#endif
@group(0) @binding(2) var<uniform> p: Params;

fn src_at(k: u32) -> f32 {
  let a0 = k % p.ne00;
  let a1 = (k / p.ne00) % p.ne01;
  let a2 = (k / (p.ne00 * p.ne01)) % p.ne02;
  let a3 = k / (p.ne00 * p.ne01 * p.ne02);
  return src0[p.off0 + a0 * p.s00 + a1 * p.s01 + a2 * p.s02 + a3 * p.s03];
}

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let t = (wid.y * nwg.x + wid.x) * {{WG}}u + lid;
#if F16
  if (t >= p.words) {
    return;
  }
  let word = p.offd / 2u + t;
  let h0 = word * 2u; // the f16 element index of the word's low half
  let has_lo = h0 >= p.offd && h0 < p.offd + p.n;
  let has_hi = h0 + 1u >= p.offd && h0 + 1u < p.offd + p.n;
  var lo = 0.0;
  var hi = 0.0;
  if (has_lo) {
    lo = src_at(h0 - p.offd);
  }
  if (has_hi) {
    hi = src_at(h0 + 1u - p.offd);
  }
  let packed = pack2x16float(vec2<f32>(lo, hi));
  let keep = select(0u, 0x0000ffffu, !has_lo) | select(0u, 0xffff0000u, !has_hi);
  if (keep == 0u) {
    dst[word] = packed;
  } else {
    dst[word] = (dst[word] & keep) | (packed & ~keep);
  }
#else
  if (t >= p.n) {
    return;
  }
  let d0 = t % p.ne0;
  let d1 = (t / p.ne0) % p.ne1;
  let d2 = (t / (p.ne0 * p.ne1)) % p.ne2;
  let d3 = t / (p.ne0 * p.ne1 * p.ne2);
  dst[p.offd + d0 * p.s0 + d1 * p.s1 + d2 * p.s2 + d3 * p.s3] = src_at(t);
#endif
}
