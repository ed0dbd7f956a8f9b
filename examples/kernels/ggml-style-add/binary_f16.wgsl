// The f16 variant of binary.wgsl: the same kernel with its operands staged through f16 (rounded
// to f16 on the way, added in f32), as an engine does to halve the bytes it stages. Its manifest
// variant declares compute "f16-staged": the lab judges it by f16's bound and labels it so.

enable f16;

override WG_SIZE: u32;

struct Params {
    ne: u32,
    offset_src0: u32,
    offset_src1: u32,
    offset_dst: u32,

    stride_src0_0: u32,
    stride_src0_1: u32,
    stride_src0_2: u32,
    stride_src0_3: u32,

    stride_src1_0: u32,
    stride_src1_1: u32,
    stride_src1_2: u32,
    stride_src1_3: u32,

    a_ne0: u32,
    a_ne1: u32,
    a_ne2: u32,

    b_ne0: u32,
    b_ne1: u32,
    b_ne2: u32,
    b_ne3: u32,
};

const PARAMS_BASE = 2;

@group(0) @binding(0) var<storage, read_write> src0: array<f32>;
@group(0) @binding(1) var<storage, read_write> src1: array<f32>;
@group(0) @binding(PARAMS_BASE) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2 + 1) var<uniform> params: Params;

// dst element i → its coordinates in src0's shape (dst has src0's shape).
fn coords(i: u32) -> vec4<u32> {
    let plane = params.a_ne0 * params.a_ne1;
    let i3 = i / (plane * params.a_ne2);
    let r = i - i3 * plane * params.a_ne2;
    let i2 = r / plane;
    let i1 = (r - i2 * plane) / params.a_ne0;
    return vec4<u32>(r % params.a_ne0, i1, i2, i3);
}

fn at_src0(c: vec4<u32>) -> u32 {
    return c.x * params.stride_src0_0 + c.y * params.stride_src0_1 + c.z * params.stride_src0_2 + c.w * params.stride_src0_3;
}

// src1 repeats over src0 (ggml_can_repeat): each coordinate wraps at src1's extent.
fn at_src1(c: vec4<u32>) -> u32 {
    return (c.x % params.b_ne0) * params.stride_src1_0 + (c.y % params.b_ne1) * params.stride_src1_1
         + (c.z % params.b_ne2) * params.stride_src1_2 + (c.w % params.b_ne3) * params.stride_src1_3;
}

@compute @workgroup_size(WG_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (gid.x >= params.ne) {
        return;
    }
    let c = coords(gid.x);
    let a = f16(src0[params.offset_src0 + at_src0(c)]);
    let b = f16(src1[params.offset_src1 + at_src1(c)]);
    dst[params.offset_dst + gid.x] = f32(a) + f32(b);
}
