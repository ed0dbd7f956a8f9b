// ACC, hand-written (ggml_acc): dst = src0, with src1 added into the view of it that nb1, nb2,
// nb3 and offset (op_params) describe. src0 and dst are packed and of one shape; one thread per
// dst element decides whether its element lies in the view by dividing its distance from the
// view's start by the view strides, largest first (the host sorts them and has refused views
// that overlap themselves, so the quotients are the view indices when they are in range).

// View dims k = 0..3, largest stride first: vne[k] elements vst[k] apart in dst, vbs[k] apart in src1.
struct Params {
  n: u32, voff: u32, off0: u32, off1: u32,
  offd: u32, pad0: u32, pad1: u32, pad2: u32,
  vne: vec4<u32>,
  vst: vec4<u32>,
  vbs: vec4<u32>,
};

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.y * nwg.x + wid.x) * 256u + lid;
  if (i >= p.n) {
    return;
  }
  var v = src0[p.off0 + i];
  if (i >= p.voff) {
    var rem = i - p.voff;
    var bi = 0u;
    var inside = true;
    for (var k = 0u; k < 4u; k++) {
      let q = rem / p.vst[k];
      inside = inside && q < p.vne[k];
      rem -= q * p.vst[k];
      bi += q * p.vbs[k];
    }
    if (inside && rem == 0u) {
      v += src1[p.off1 + bi];
    }
  }
  dst[p.offd + i] = v;
}
