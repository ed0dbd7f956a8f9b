// CPY / CONT, hand-written (ggml_cpy, ggml_cont, ggml_dup): dst element k (ggml order of dst's
// own shape) = src element k (ggml order of src's shape). Both sides through element strides
// and offsets, so any view (permuted, transposed, strided rows, a slice) reaches any f32 view.

struct Params {
  ne00: u32, ne01: u32, ne02: u32, n: u32,   // src shape (ne03 follows from n)
  s00: u32, s01: u32, s02: u32, s03: u32,    // src strides, in elements
  ne0: u32, ne1: u32, ne2: u32, off0: u32,   // dst shape; src offset
  s0: u32, s1: u32, s2: u32, s3: u32,        // dst strides
  offd: u32,
};

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let k = (wid.y * nwg.x + wid.x) * 256u + lid;
  if (k >= p.n) {
    return;
  }
  let a0 = k % p.ne00;
  let a1 = (k / p.ne00) % p.ne01;
  let a2 = (k / (p.ne00 * p.ne01)) % p.ne02;
  let a3 = k / (p.ne00 * p.ne01 * p.ne02);
  let d0 = k % p.ne0;
  let d1 = (k / p.ne0) % p.ne1;
  let d2 = (k / (p.ne0 * p.ne1)) % p.ne2;
  let d3 = k / (p.ne0 * p.ne1 * p.ne2);
  dst[p.offd + d0 * p.s0 + d1 * p.s1 + d2 * p.s2 + d3 * p.s3] = src0[p.off0 + a0 * p.s00 + a1 * p.s01 + a2 * p.s02 + a3 * p.s03];
}
