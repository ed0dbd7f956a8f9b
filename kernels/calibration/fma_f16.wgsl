// Calibration: f16 FMA throughput (only where the adapter offers 'shader-f16'). Same shape as
// fma_f32.wgsl; the result is widened to f32 for the readback.
enable f16;

struct Params {
  offset: u32,
  iters: u32,
  threads: u32,
  pad: u32,
};

@group(0) @binding(0) var<storage, read> ab: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let t = (wid.y * nwg.x + wid.x) * 256u + lid;
  let a = vec4<f16>(f16(ab[64]));
  let b = vec4<f16>(f16(ab[65]));
  let s = vec4<f16>(f16(lid % 16u));
  var c0 = s; var c1 = s; var c2 = s; var c3 = s;
  var c4 = s; var c5 = s; var c6 = s; var c7 = s;
  for (var i = 0u; i < p.iters; i++) {
    c0 = fma(c0, a, b); c1 = fma(c1, a, b); c2 = fma(c2, a, b); c3 = fma(c3, a, b);
    c4 = fma(c4, a, b); c5 = fma(c5, a, b); c6 = fma(c6, a, b); c7 = fma(c7, a, b);
  }
  let sum = vec4<f32>((c0 + c1) + (c2 + c3)) + vec4<f32>((c4 + c5) + (c6 + c7));
  if (t < p.threads) {
    dst[p.offset + t] = sum.x + sum.y + sum.z + sum.w;
  }
}
