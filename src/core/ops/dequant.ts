// DEQUANT — a packed quantized matrix to its f32 weights (ggml reaches this through a CPY/cast
// from a quantized type; the lab names it as the op it measures). src0 is the packed matrix in
// u32 words (src/core/quant/weights.ts: ggml blocks as GGUF stores them, or a Track-1 code and
// scale stream), dst f32 [K, rows]. The param `format` names the weight format (ggml type ids for
// ggml types; `--param format=q4_0` by name). Inputs: realistic weights (WEIGHT_DISTRIBUTION)
// encoded by the codec, or random valid blocks for the K-quants, which the lab cannot encode.
// The oracle is the codec's dequantize: exact, so the bound is the f32 one with k = 1.
import nativeWgsl from '../../../kernels/DEQUANT/dequant.wgsl?raw';
import { uniformSchema } from '../codegen/uniforms';
import type { ElementwiseSnippet } from '../families/elementwise';
import { deviceOffsetElements } from '../hostdata';
import { inputSeed } from '../inputs';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { weightDecodeWgsl } from '../quant/weights-wgsl';
import { benchmarkWeights, decodeWeights, shapeProblem, TYPE_PARAM_VALUES, weightFormat, weightWords, type WeightFormat } from '../quant/weights';
import { contiguous, nelements } from '../tensor';
import { defineElementwiseOp } from './elementwise-op';
import { caseLabel, OpCaseError, paramsLabel, parseParams, type OpCase, type ParamSpec } from './types';

const FORMAT_VALUES = TYPE_PARAM_VALUES.filter((v) => v.value > 1);

export const PARAMS: readonly ParamSpec[] = [{ name: 'format', type: 'enum', default: 2, values: FORMAT_VALUES, doc: 'the weight format (ggml type id or a Track-1 format; by name: format=q4_0)' }];

const LAYOUTS = [{ name: 'contiguous', doc: 'the packed matrix and dst [K, rows] packed' }] as const;

export const formatOfCase = (c: OpCase): WeightFormat => weightFormat(c.params.format);

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const p = parseParams('DEQUANT', PARAMS, params);
  if (layout !== 'contiguous') throw new OpCaseError(`DEQUANT has no layout '${layout}' (layouts: contiguous)`);
  if (dims.length !== 2) throw new OpCaseError(`DEQUANT takes KxROWS (row length x rows), got ${dims.length} dims`);
  const [K, rows] = dims;
  for (const [what, n] of [['K', K], ['rows', rows]] as const) if (!Number.isSafeInteger(n) || n < 1) throw new OpCaseError(`DEQUANT: ${what} must be a positive integer, got ${n}`);
  const f = weightFormat(p.format);
  const why = shapeProblem(f, K);
  if (why) throw new OpCaseError(`DEQUANT ${dims.join('x')}: ${why}`);
  const src0 = contiguous('i32', [weightWords(f, rows, K)]);
  const dst = contiguous('f32', [K, rows]);
  return Object.freeze({ op: 'DEQUANT', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous', paramsLabel(PARAMS, p)), srcs: Object.freeze([src0]), dst, inplace: false, params: p });
}

function inputs(c: OpCase, seed: number): ArrayBuffer[] {
  const [K, rows] = c.dims;
  return [benchmarkWeights(formatOfCase(c), rows, K, inputSeed(seed, 0)).words.buffer as ArrayBuffer];
}

function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const [K, rows] = c.dims;
  const w = decodeWeights(formatOfCase(c), new Uint32Array(srcs[0]), rows, K);
  const ref = Float64Array.from(w);
  return { ref, epsFloor: ref.map((x) => Math.abs(x)), terms: 1 };
}

const NATIVE_WG = 64;
const PER_THREAD = 8;
const UNIFORM = uniformSchema('Params', { dst: 'tensor' });

function decode(c: OpCase): string {
  const [K, rows] = c.dims;
  return weightDecodeWgsl(c.params.format, rows, K, deviceOffsetElements(c.srcs[0]));
}

function native(c: OpCase): KernelSpec {
  const n = nelements(c.dst);
  const groups = Math.ceil(n / PER_THREAD / NATIVE_WG);
  return nativeTemplated('DEQUANT/dequant.wgsl', nativeWgsl, ['src0', 'dst', 'params'], grid2d(groups), UNIFORM, { dst: c.dst }, { WG: NATIVE_WG, PER_THREAD, DECODE: decode(c) });
}

/** The elementwise family with the decode as a module function: one weight per element (flat index v). */
function snippet(c: OpCase): ElementwiseSnippet {
  return {
    // The packed words are read only inside wq(); one uniform load keeps the binding in the module.
    sources: [{ name: 'w0', tensor: c.srcs[0], binding: 'src0', index: `${deviceOffsetElements(c.srcs[0])}u`, uniform: true }],
    outputs: [{ tensor: c.dst, binding: 'dst', expr: 'wq(v)' }],
    functions: decode(c),
  };
}

export const DEQUANT = defineElementwiseOp({
  name: 'DEQUANT',
  summary: 'dst = the f32 weights of a packed quantized matrix (any weight format: ggml blocks or Track-1)',
  shapeSyntax: 'KxROWS',
  layouts: LAYOUTS,
  params: PARAMS,
  // A 7B layer's 4096×4096 weight matrix, in the default format.
  bench: { dims: [4096, 4096] },
  matrix: [
    { dims: [256, 8], layout: 'contiguous' },
    { dims: [64, 3], layout: 'contiguous', params: { format: 8 } },
    { dims: [512, 2], layout: 'contiguous', params: { format: 12 } },
    { dims: [96, 5], layout: 'contiguous', params: { format: weightFormat('mxfp4').id } },
    { dims: [133, 3], layout: 'contiguous', params: { format: weightFormat('int3').id } },
    { dims: [64, 4], layout: 'contiguous', params: { format: weightFormat('nvfp4').id } },
  ],
  makeCase,
  oracle,
  inputs,
  snippet,
  // The weights as stored (the word padding is at most 3 bytes) and the f32 written.
  bytes: (c) => ({ readBytes: nelements(c.srcs[0]) * 4, writeBytes: nelements(c.dst) * 4 }),
  features: (c) => ({ K: c.dims[0], rows: c.dims[1], n: nelements(c.dst), format: c.params.format }),
  native,
  // Vectors of weights are not offered: the decode is one weight per call.
  fits: (s) => ('vectorWidth' in s && s.vectorWidth !== 1 ? [`DEQUANT decodes one weight per element: vectorWidth ${String(s.vectorWidth)} is not offered (use 1)`] : []),
});
