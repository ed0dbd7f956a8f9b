// DEQUANT, hand-written: dst = the f32 weights of a packed quantized matrix (src0, u32 words in the
// lab's layout, src/core/quant/weights.ts), row-major [K, rows]. Each thread decodes {{PER_THREAD}}
// consecutive weights, so a thread's reads stay inside one block's bytes and its stores are
// contiguous. DECODE is `fn wq(i: u32) -> f32` generated from the codec tables for the format.
// PARAMS: dst as the shared Tensor descriptor (packed: its count and offset are read).

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

{{DECODE}}

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let t = (wid.y * nwg.x + wid.x) * {{WG}}u + lid;
  let first = t * {{PER_THREAD}}u;
  for (var j = 0u; j < {{PER_THREAD}}u; j = j + 1u) {
    let i = first + j;
    if (i < p.dst.n) {
      dst[p.dst.off + i] = wq(i);
    }
  }
}
