// REPEAT_BACK, hand-written (ggml_repeat_back): the gradient of REPEAT. dst[k] sums every
// tile of src0 that REPEAT would have copied dst[k] into:
//   dst[k0, k1, k2, k3] = Σ src0[i0·ne0 + k0, i1·ne1 + k1, i2·ne2 + k2, i3·ne3 + k3]
// over i_d < nr_d = ne0_d / ne_d. One thread per dst element, summing in ggml's loop order
// (i3 outermost, i0 innermost). src0 rows are contiguous (ggml asserts nb00 == sizeof(float));
// dst is packed. Templated: PARAMS is repeat-back.ts's uniform record, WG the threads per workgroup.

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let e = (wid.y * nwg.x + wid.x) * {{WG}}u + lid;
  if (e >= p.n) {
    return;
  }
  let k0 = e % p.ne0;
  let k1 = (e / p.ne0) % p.ne1;
  let k2 = (e / (p.ne0 * p.ne1)) % p.ne2;
  let k3 = e / (p.ne0 * p.ne1 * p.ne2);
  let ne3 = p.n / (p.ne0 * p.ne1 * p.ne2);
  var sum = 0.0;
  for (var i3 = 0u; i3 < p.nr3; i3++) {
    let b3 = p.off0 + (i3 * ne3 + k3) * p.s03 + k0;
    for (var i2 = 0u; i2 < p.nr2; i2++) {
      let b2 = b3 + (i2 * p.ne2 + k2) * p.s02;
      for (var i1 = 0u; i1 < p.nr1; i1++) {
        let b1 = b2 + (i1 * p.ne1 + k1) * p.s01;
        for (var i0 = 0u; i0 < p.nr0; i0++) {
          sum += src0[b1 + i0 * p.ne0];
        }
      }
    }
  }
  dst[p.offd + e] = sum;
}
