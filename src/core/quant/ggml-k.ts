// ggml's K-quant super-blocks (256 weights), dequantize only, as ggml's dequantize_row_q{4,5,6}_K
// (src/ggml-quants.c) computes them, every float step rounded to f32 (unfused, as ISO C). The
// reference quantizers (make_qkx2_quants, make_qx_quants: iterative searches) are not ported yet,
// so the lab can read these GGUF tensors but not write them. Layouts (src/ggml-common.h):
//   Q4_K {f16 d; f16 dmin; u8 scales[12]; u8 qs[128]}             x = d·sc·q − dmin·m
//   Q5_K {f16 d; f16 dmin; u8 scales[12]; u8 qh[32]; u8 qs[128]}  q gains bit 4 from qh
//   Q6_K {u8 ql[128]; u8 qh[64]; i8 scales[16]; f16 d}            x = d·sc·(q − 32)
import { QuantFormatError } from '../errors';
import { f16Decode } from './half';

export type GgmlKTypeName = 'q4_k' | 'q5_k' | 'q6_k';

export const QK_K = 256;

export const GGML_K_TYPES: readonly { name: GgmlKTypeName; ggmlTypeId: number; blockBytes: number }[] = Object.freeze([
  { name: 'q4_k', ggmlTypeId: 12, blockBytes: 144 },
  { name: 'q5_k', ggmlTypeId: 13, blockBytes: 176 },
  { name: 'q6_k', ggmlTypeId: 14, blockBytes: 210 },
]);

const f32 = Math.fround;

/** ggml's get_scale_min_k4: the 6-bit scale and min of sub-block j from the 12 packed bytes. */
export function scaleMinK4(j: number, q: Uint8Array, at: number): [number, number] {
  if (j < 4) return [q[at + j] & 63, q[at + j + 4] & 63];
  return [(q[at + j + 4] & 0xf) | ((q[at + j - 4] >> 6) << 4), (q[at + j + 4] >> 4) | ((q[at + j] >> 6) << 4)];
}

export function ggmlKDequantize(name: string, bytes: Uint8Array, n: number): Float32Array {
  const t = GGML_K_TYPES.find((g) => g.name === name);
  if (!t) throw new QuantFormatError(`unknown ggml K-quant type '${name}' (known: ${GGML_K_TYPES.map((g) => g.name).join(', ')})`);
  if (!Number.isInteger(n) || n < 1 || n % QK_K !== 0) throw new QuantFormatError(`${t.name}: ${n} values is not a positive multiple of its super-block size ${QK_K}`);
  const nb = n / QK_K;
  if (bytes.length !== nb * t.blockBytes) throw new QuantFormatError(`${t.name}: ${bytes.length} bytes for ${n} values, expected ${nb * t.blockBytes}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const y = new Float32Array(n);
  for (let i = 0; i < nb; i++) {
    const o = i * t.blockBytes;
    const out = i * QK_K;
    if (t.name === 'q6_k') {
      const d = f16Decode(view.getUint16(o + 208, true));
      for (let half = 0; half < 2; half++) {
        const ql = o + half * 64;
        const qh = o + 128 + half * 32;
        const sc = o + 192 + half * 8;
        for (let l = 0; l < 32; l++) {
          const is = l >> 4;
          const h = bytes[qh + l];
          const q = [(bytes[ql + l] & 0xf) | ((h & 3) << 4), (bytes[ql + l + 32] & 0xf) | (((h >> 2) & 3) << 4), (bytes[ql + l] >> 4) | (((h >> 4) & 3) << 4), (bytes[ql + l + 32] >> 4) | (((h >> 6) & 3) << 4)];
          for (let k = 0; k < 4; k++) y[out + half * 128 + l + 32 * k] = f32(f32(d * view.getInt8(sc + is + 2 * k)) * (q[k] - 32));
        }
      }
      continue;
    }
    const d = f16Decode(view.getUint16(o, true));
    const dmin = f16Decode(view.getUint16(o + 2, true));
    const qs = o + (t.name === 'q4_k' ? 16 : 48);
    const qh = o + 16;
    for (let j = 0; j < 4; j++) {
      const [sc1, m1] = scaleMinK4(2 * j, bytes, o + 4);
      const [sc2, m2] = scaleMinK4(2 * j + 1, bytes, o + 4);
      const d1 = f32(d * sc1);
      const min1 = f32(dmin * m1);
      const d2 = f32(d * sc2);
      const min2 = f32(dmin * m2);
      for (let l = 0; l < 32; l++) {
        const b = bytes[qs + 32 * j + l];
        const hi1 = t.name === 'q5_k' && bytes[qh + l] & (1 << (2 * j)) ? 16 : 0;
        const hi2 = t.name === 'q5_k' && bytes[qh + l] & (2 << (2 * j)) ? 16 : 0;
        y[out + 64 * j + l] = f32(f32(d1 * ((b & 0xf) + hi1)) - min1);
        y[out + 64 * j + 32 + l] = f32(f32(d2 * ((b >> 4) + hi2)) - min2);
      }
    }
  }
  return y;
}
