// RMS_NORM pass 1 of 2: each workgroup sums the squares of one 1024-element chunk of one row
// and writes that partial sum to scratch (partials[row * chunks + chunk]).

struct Params {
  ne0: u32, ne1: u32, ne2: u32, chunks: u32,
  s01: u32, s02: u32, s03: u32, off0: u32,
  groups: u32,
};

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> partials: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

var<workgroup> acc: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let g = wid.y * nwg.x + wid.x;
  if (g >= p.groups) {
    return;
  }
  let r = g / p.chunks;
  let chunk = g % p.chunks;
  let i1 = r % p.ne1;
  let i2 = (r / p.ne1) % p.ne2;
  let i3 = r / (p.ne1 * p.ne2);
  let xr = p.off0 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03;
  let begin = chunk * 1024u;
  let end = min(begin + 1024u, p.ne0);
  var sum = 0.0;
  for (var i = begin + lid; i < end; i += 256u) {
    let v = x[xr + i];
    sum += v * v;
  }
  acc[lid] = sum;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    if (lid < s) {
      acc[lid] += acc[lid + s];
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    partials[g] = acc[0];
  }
}
