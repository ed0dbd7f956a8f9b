// GET_ROWS from a quantized table (type0 = a weight format): ggml_get_rows on a quantized
// embedding, dst[i0, i10] = dequant(W)[rows[i10], i0]. One plane, packed tensors: dims
// K x tableRows x nIdx. The oracle decodes the table through the codec; native and generated
// kernels decode through the same generated `wq()`.
import nativeWgsl from '../../../kernels/GET_ROWS/get_rows_q.wgsl?raw';
import { u } from '../codegen/wgsl';
import { uniformSchema } from '../codegen/uniforms';
import type { ElementwiseSnippet } from '../families/elementwise';
import { deviceOffsetElements, randomIntBuffer } from '../hostdata';
import { inputSeed } from '../inputs';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { benchmarkWeights, decodeWeights, shapeProblem, weightFormat, weightStoredBytes, weightWords, type WeightFormat } from '../quant/weights';
import { weightDecodeWgsl } from '../quant/weights-wgsl';
import { contiguous, nelements } from '../tensor';
import { OpCaseError, type ByteCounts, type OpCase, type OracleResult } from './types';

export const isQuantGetRows = (c: OpCase): boolean => (c.params.type0 ?? 0) > 1;
const formatOf = (c: OpCase): WeightFormat => weightFormat(c.params.type0);
const dimsOf = (c: OpCase) => ({ K: c.dims[0], tableRows: c.dims[1], nIdx: c.dims[2] });

export function quantGetRowsCase(dims: readonly number[], layout: string, p: Readonly<Record<string, number>>, label: string): OpCase {
  const f = weightFormat(p.type0);
  if (layout !== 'contiguous') throw new OpCaseError(`GET_ROWS from a quantized table (${f.name}) takes layout contiguous only (packed weights have no views), got '${layout}'`);
  if (dims.length !== 3) throw new OpCaseError(`GET_ROWS from a quantized table (${f.name}) takes K x tableRows x nIdx (one plane), got ${dims.length} dims`);
  const [K, tableRows, nIdx] = dims;
  const why = shapeProblem(f, K);
  if (why) throw new OpCaseError(`GET_ROWS ${dims.join('x')}: ${why}`);
  const src0 = contiguous('i32', [weightWords(f, tableRows, K)]);
  const src1 = contiguous('i32', [nIdx]);
  return Object.freeze({ op: 'GET_ROWS', dims: Object.freeze([...dims]), layout, label, srcs: Object.freeze([src0, src1]), dst: contiguous('f32', [K, nIdx]), inplace: false, params: p });
}

export function quantGetRowsInputs(c: OpCase, seed: number): ArrayBuffer[] {
  const { K, tableRows } = dimsOf(c);
  return [benchmarkWeights(formatOf(c), tableRows, K, inputSeed(seed, 0)).words.buffer as ArrayBuffer, randomIntBuffer(c.srcs[1], inputSeed(seed, 1), 0, tableRows)];
}

export function quantGetRowsOracle(c: OpCase, srcs: readonly ArrayBuffer[]): OracleResult {
  const { K, tableRows, nIdx } = dimsOf(c);
  const table = decodeWeights(formatOf(c), new Uint32Array(srcs[0]), tableRows, K);
  const rows = new Int32Array(srcs[1]);
  const ref = new Float64Array(K * nIdx);
  for (let j = 0; j < nIdx; j++) {
    const r = rows[j];
    if (!(r >= 0 && r < tableRows)) throw new OpCaseError(`GET_ROWS: index ${r} at [${j}] is outside the table's ${tableRows} rows`);
    for (let i0 = 0; i0 < K; i0++) ref[j * K + i0] = table[r * K + i0];
  }
  return { ref, epsFloor: new Float64Array(ref.length), terms: 1 };
}

/** The rows read as stored (each lookup reads its row's blocks), the indices, dst. */
export function quantGetRowsBytes(c: OpCase): ByteCounts {
  const { K, nIdx } = dimsOf(c);
  return { readBytes: nIdx * weightStoredBytes(formatOf(c), 1, K) + nIdx * 4, writeBytes: nIdx * K * 4 };
}

const decode = (c: OpCase) => weightDecodeWgsl(c.params.type0, dimsOf(c).tableRows, dimsOf(c).K, deviceOffsetElements(c.srcs[0]));
const UNIFORM = uniformSchema('Params', { src1: 'tensor', dst: 'tensor' });
const WG = 256;

export function quantGetRowsNative(c: OpCase): KernelSpec {
  return nativeTemplated('GET_ROWS/get_rows_q.wgsl', nativeWgsl, ['src0', 'src1', 'dst', 'params'], grid2d(Math.ceil(nelements(c.dst) / WG)), UNIFORM, { src1: c.srcs[1], dst: c.dst }, { WG, DECODE: decode(c) }, { src0: 'u32', src1: 'i32' });
}

/** The elementwise family: the index at rows[i1], then the weight decoded from its table row. */
export function quantGetRowsSnippet(c: OpCase): ElementwiseSnippet {
  return {
    sources: [
      // The packed words are read only inside wq(); one uniform load declares the binding.
      { name: 'w0', tensor: c.srcs[0], binding: 'src0', index: u(deviceOffsetElements(c.srcs[0])), uniform: true },
      { name: 'row', tensor: c.srcs[1], binding: 'src1', index: `${u(deviceOffsetElements(c.srcs[1]))} + i1` },
    ],
    outputs: [{ tensor: c.dst, binding: 'dst', expr: `wq(u32(row) * ${u(dimsOf(c).K)} + i0)` }],
    functions: decode(c),
  };
}
