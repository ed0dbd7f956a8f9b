// SOFT_MAX, hand-written (ggml_soft_max_ext): per row, s = x·scale + slope·mask,
// dst = exp(s − max) / Σ exp(s − max), with ALiBi's per-head slope when max_bias > 0 and the
// sinks' per-head logit joining the max and the sum when present. One workgroup of {{WG}}
// threads per row: pass 1 the max, pass 2 the sum (both through shared-memory trees), pass 3
// writes; s is recomputed each pass (the row stays in cache). Variants: INPLACE (dst is src0,
// bound once), MASK (MASK_F16: an f16 mask read as u32 pairs and unpacked, no shader-f16
// needed), SINKS; binding numbers come as B_* defines. Masked entries are -inf, as llama.cpp
// builds its KQ mask: exp(-inf) = 0 on IEEE hardware. Templated: PARAMS is soft-max.ts's
// uniform record (neg_inf_bits: -inf from the host, as WGSL has no infinite literal), WG the threads per row.

{{PARAMS}}

#if !INPLACE
@group(0) @binding({{B_SRC0}}) var<storage, read> src0: array<f32>;
#endif
#if MASK
#if MASK_F16
@group(0) @binding({{B_SRC1}}) var<storage, read> src1: array<u32>;
#else
@group(0) @binding({{B_SRC1}}) var<storage, read> src1: array<f32>;
#endif
#endif
#if SINKS
@group(0) @binding({{B_SRC2}}) var<storage, read> src2: array<f32>;
#endif
@group(0) @binding({{B_DST}}) var<storage, read_write> dst: array<f32>;
@group(0) @binding({{B_PARAMS}}) var<uniform> p: Params;

var<workgroup> red_max: array<f32, {{WG}}>;
var<workgroup> red_sum: array<f32, {{WG}}>;

fn load_x(i: u32) -> f32 {
#if INPLACE
  return dst[i];
#else
  return src0[i];
#endif
}

fn load_mask(i: u32) -> f32 {
#if MASK
#if MASK_F16
  return unpack2x16float(src1[i >> 1u])[i & 1u];
#else
  return src1[i];
#endif
#else
  return 0.0;
#endif
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

@compute @workgroup_size({{WG}})
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

  var mx = bitcast<f32>(p.neg_inf_bits); // ggml starts its max at -INFINITY
  for (var i = lid; i < p.ne0; i += {{WG}}u) {
    mx = max(mx, load_x(x_row + i) * p.scale + slope * load_mask(m_row + i));
  }
  red_max[lid] = mx;
  workgroupBarrier();
  for (var s = {{WG}}u / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      red_max[lid] = max(red_max[lid], red_max[lid + s]);
    }
    workgroupBarrier();
  }
  var row_max = red_max[0];
#if SINKS
  let sink = src2[p.off2 + i2];
  row_max = max(row_max, sink);
#endif

  var sum = 0.0;
  for (var i = lid; i < p.ne0; i += {{WG}}u) {
    sum += exp(load_x(x_row + i) * p.scale + slope * load_mask(m_row + i) - row_max);
  }
  red_sum[lid] = sum;
  workgroupBarrier();
  for (var s = {{WG}}u / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      red_sum[lid] += red_sum[lid + s];
    }
    workgroupBarrier();
  }
  var row_sum = red_sum[0];
#if SINKS
  row_sum += exp(sink - row_max);
#endif
  let inv = 1.0 / row_sum;

  for (var i = lid; i < p.ne0; i += {{WG}}u) {
    dst[y_row + i] = exp(load_x(x_row + i) * p.scale + slope * load_mask(m_row + i) - row_max) * inv;
  }
}
