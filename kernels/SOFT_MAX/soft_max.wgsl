// SOFT_MAX, hand-written (ggml_soft_max_ext): per row, s = x·scale + slope·mask,
// dst = exp(s − max) / Σ exp(s − max), with ALiBi's per-head slope when max_bias > 0 and the
// sinks' per-head logit joining the max and the sum when present. One workgroup of 256
// threads per row: pass 1 the max, pass 2 the sum (both through shared-memory trees), pass 3
// writes; s is recomputed each pass (the row stays in cache). Variants by the lab's
// `// @if(FLAG)` lines: INPLACE (dst is src0, bound once), NO_MASK, MASK_F32, MASK_F16 (an f16 mask read as
// u32 pairs and unpacked: no shader-f16 needed), SINKS. Masked entries are -inf, as llama.cpp
// builds its KQ mask: exp(-inf) = 0 on IEEE hardware.

struct Params {
  ne0: u32, ne1: u32, ne2: u32, nrows: u32,
  s01: u32, s02: u32, s03: u32, off0: u32,    // src0 strides and offset, in elements
  s11: u32, s12: u32, s13: u32, off1: u32,    // mask strides and offset, in mask elements
  ne12: u32, ne13: u32, off2: u32, n_head_log2: u32,  // mask broadcast; sinks offset; ALiBi
  s1: u32, s2: u32, s3: u32, offd: u32,       // dst
  scale: f32, max_bias: f32, m0: f32, m1: f32,
  neg_inf: f32,                               // -inf from the host: WGSL has no infinite literal
};

@group(0) @binding(0) var<storage, read> src0: array<f32>; // @if(!INPLACE)
@group(0) @binding(1) var<storage, read> src1: array<f32>; // @if(MASK_F32)
@group(0) @binding(1) var<storage, read> src1: array<u32>; // @if(MASK_F16)
@group(0) @binding(2) var<storage, read> src2: array<f32>; // @if(SINKS)
@group(0) @binding(3) var<storage, read_write> dst: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;

var<workgroup> red_max: array<f32, 256>;
var<workgroup> red_sum: array<f32, 256>;

fn load_x(i: u32) -> f32 {
  return src0[i]; // @if(!INPLACE)
  return dst[i]; // @if(INPLACE)
}

fn load_mask(i: u32) -> f32 {
  return src1[i]; // @if(MASK_F32)
  return unpack2x16float(src1[i >> 1u])[i & 1u]; // @if(MASK_F16)
  return 0.0; // @if(NO_MASK)
}

/** b^e by squaring: ggml's powf(m, e) to a few ulp, for ALiBi's integer exponents. */
fn powi(b: f32, e: u32) -> f32 {
  var result = 1.0;
  var base = b;
  var k = e;
  while (k > 0u) {
    if ((k & 1u) == 1u) {
      result *= base;
    }
    base *= base;
    k >>= 1u;
  }
  return result;
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let r = wid.y * nwg.x + wid.x;
  if (r >= p.nrows) {
    return; // the 2D grid's overhang: uniform across the workgroup, so barriers stay legal
  }
  let i1 = r % p.ne1;
  let i2 = (r / p.ne1) % p.ne2;
  let i3 = r / (p.ne1 * p.ne2);
  let x_row = p.off0 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03;
  let y_row = p.offd + i1 * p.s1 + i2 * p.s2 + i3 * p.s3;
  // The mask's row is the query row i1 (ne11 ≥ ne01); heads and batches broadcast.
  let m_row = p.off1 + i1 * p.s11 + (i2 % p.ne12) * p.s12 + (i3 % p.ne13) * p.s13;

  // ALiBi: head h = i2 of n_head = ne02 heads.
  var slope = 1.0;
  if (p.max_bias > 0.0) {
    if (i2 < p.n_head_log2) {
      slope = powi(p.m0, i2 + 1u);
    } else {
      slope = powi(p.m1, 2u * (i2 - p.n_head_log2) + 1u);
    }
  }

  var mx = p.neg_inf; // ggml starts its max at -INFINITY
  for (var i = lid; i < p.ne0; i += 256u) {
    mx = max(mx, load_x(x_row + i) * p.scale + slope * load_mask(m_row + i));
  }
  red_max[lid] = mx;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    if (lid < s) {
      red_max[lid] = max(red_max[lid], red_max[lid + s]);
    }
    workgroupBarrier();
  }
  var row_max = red_max[0];
  let sink = src2[p.off2 + i2]; // @if(SINKS)
  row_max = max(row_max, sink); // @if(SINKS)

  var sum = 0.0;
  for (var i = lid; i < p.ne0; i += 256u) {
    sum += exp(load_x(x_row + i) * p.scale + slope * load_mask(m_row + i) - row_max);
  }
  red_sum[lid] = sum;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    if (lid < s) {
      red_sum[lid] += red_sum[lid + s];
    }
    workgroupBarrier();
  }
  var row_sum = red_sum[0];
  row_sum += exp(sink - row_max); // @if(SINKS)
  let inv = 1.0 / row_sum;

  for (var i = lid; i < p.ne0; i += 256u) {
    dst[y_row + i] = exp(load_x(x_row + i) * p.scale + slope * load_mask(m_row + i) - row_max) * inv;
  }
}
