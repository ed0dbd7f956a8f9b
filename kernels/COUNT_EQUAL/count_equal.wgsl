// COUNT_EQUAL, hand-written (ggml_count_equal): dst = the number of positions where the i32
// tensors src0 and src1 (same shape, any strides) hold equal values, as ggml's I64 scalar:
// two u32 words, low then high (its little-endian bytes), since WGSL has no 64-bit integers.
// One workgroup of {{WG}} threads walks every element (dst has one value, and a dispatch has no
// grid-wide barrier to zero and then accumulate it); the per-thread counts meet in a
// shared-memory tree of 64-bit (lo, hi) sums with an explicit carry.
// Templated: PARAMS is count-equal.ts's uniform record, WG the threads.

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<i32>;
@group(0) @binding(1) var<storage, read> src1: array<i32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

var<workgroup> counts: array<vec2<u32>, {{WG}}>;

/** (lo, hi) + (lo, hi) with the low word's carry into the high word. */
fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.x + b.x;
  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

@compute @workgroup_size({{WG}})
fn main(@builtin(local_invocation_index) lid: u32) {
  // n < 2^32 (u32 indices), so one thread's count fits its u32.
  var count = 0u;
  for (var e = lid; e < p.n; e += {{WG}}u) {
    let i0 = e % p.ne0;
    let i1 = (e / p.ne0) % p.ne1;
    let i2 = (e / (p.ne0 * p.ne1)) % p.ne2;
    let i3 = e / (p.ne0 * p.ne1 * p.ne2);
    let a = src0[p.off0 + i0 * p.s00 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03];
    let b = src1[p.off1 + i0 * p.s10 + i1 * p.s11 + i2 * p.s12 + i3 * p.s13];
    count += select(0u, 1u, a == b);
  }
  counts[lid] = vec2<u32>(count, 0u);
  workgroupBarrier();
  for (var s = {{WG}}u / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      counts[lid] = add64(counts[lid], counts[lid + s]);
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    dst[p.offd] = counts[0].x;
    dst[p.offd + 1u] = counts[0].y;
  }
}
