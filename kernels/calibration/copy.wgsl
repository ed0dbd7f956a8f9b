// Calibration: stream copy, vec4, grid-stride. Measures the bandwidth a kernel can reach
// (bytes read + bytes written over the median time).

struct Params {
  offset: u32,   // in vec4s (the device buffers' guard band)
  count: u32,    // vec4s to copy
  stride: u32,   // total threads
  perThread: u32,
};

@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let t = (wid.y * nwg.x + wid.x) * 256u + lid;
  for (var j = 0u; j < p.perThread; j++) {
    let i = t + j * p.stride;
    if (i < p.count) {
      dst[p.offset + i] = src[p.offset + i];
    }
  }
}
