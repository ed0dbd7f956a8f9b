// CPY f32 → f16, hand-written (ggml_cpy into an f16 tensor): dst packed f16, src any f32 view.
// No shader-f16 needed: each thread owns one u32 word of dst (two halves) and writes it with
// pack2x16float; a word the tensor only half covers keeps its other half (dst's neighbours).

struct Params {
  ne00: u32, ne01: u32, ne02: u32, n: u32,   // src shape (ne03 follows from n)
  s00: u32, s01: u32, s02: u32, s03: u32,    // src strides, in elements
  off0: u32,                                 // src offset, in f32 elements
  offd: u32,                                 // dst offset, in f16 elements
  words: u32,                                // u32 words dst touches
};

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

fn src_at(k: u32) -> f32 {
  let a0 = k % p.ne00;
  let a1 = (k / p.ne00) % p.ne01;
  let a2 = (k / (p.ne00 * p.ne01)) % p.ne02;
  let a3 = k / (p.ne00 * p.ne01 * p.ne02);
  return src0[p.off0 + a0 * p.s00 + a1 * p.s01 + a2 * p.s02 + a3 * p.s03];
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let w = (wid.y * nwg.x + wid.x) * 256u + lid;
  if (w >= p.words) {
    return;
  }
  let word = p.offd / 2u + w;
  let h0 = word * 2u;          // the f16 element index of the word's low half
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
  // Bits, not values, for the half dst does not cover: a NaN neighbour must keep its payload.
  let keep = select(0u, 0x0000ffffu, !has_lo) | select(0u, 0xffff0000u, !has_hi);
  if (keep == 0u) {
    dst[word] = packed;
  } else {
    dst[word] = (dst[word] & keep) | (packed & ~keep);
  }
}
