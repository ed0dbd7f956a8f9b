// The copy family's template (ggml_cpy, ggml_cont, ggml_dup; every op of copy-kit.ts): dst element
// k (ggml order of dst's own shape) = src element k (ggml order of src's shape). PARAMS is the
// shared uniform layout: src0 and dst as Tensor descriptors (ne, element strides, offset, count;
// with tensor_coords and tensor_at), so any source view (permuted, transposed, strided rows, a
// slice) is read, and words. One thread per dst element.
// F16: dst is packed f16, written without shader-f16: each thread owns one u32 word of dst (two
// halves) and writes it with pack2x16float; a word the tensor only half covers keeps the other
// half's bits (dst's neighbours, a NaN sentinel included). Else dst is any f32 view.

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<f32>;
#if F16
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
#else
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
#endif
@group(0) @binding(2) var<uniform> p: Params;

fn src_at(k: u32) -> f32 {
  return src0[tensor_at(p.src0, tensor_coords(p.src0.ne, k))];
}

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let t = (wid.y * nwg.x + wid.x) * {{WG}}u + lid;
#if F16
  if (t >= p.words) {
    return;
  }
  let offd = p.dst.off;
  let word = offd / 2u + t;
  let h0 = word * 2u; // the f16 element index of the word's low half
  let has_lo = h0 >= offd && h0 < offd + p.dst.n;
  let has_hi = h0 + 1u >= offd && h0 + 1u < offd + p.dst.n;
  var lo = 0.0;
  var hi = 0.0;
  if (has_lo) {
    lo = src_at(h0 - offd);
  }
  if (has_hi) {
    hi = src_at(h0 + 1u - offd);
  }
  let packed = pack2x16float(vec2<f32>(lo, hi));
  let keep = select(0u, 0x0000ffffu, !has_lo) | select(0u, 0xffff0000u, !has_hi);
  if (keep == 0u) {
    dst[word] = packed;
  } else {
    dst[word] = (dst[word] & keep) | (packed & ~keep);
  }
#else
  if (t >= p.dst.n) {
    return;
  }
  dst[tensor_at(p.dst, tensor_coords(p.dst.ne, t))] = src_at(t);
#endif
}
