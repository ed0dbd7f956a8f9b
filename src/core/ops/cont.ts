// CONT — ggml_cont(a): a new packed tensor of a's shape and type holding a's elements in ggml
// order (ggml_compute_forward_cont is ggml_compute_forward_dup, as for CPY). The op that makes a
// permuted or transposed view usable by kernels that need packed rows. The oracle and the native
// kernel and its elementwise snippet are CPY's; only the cases differ (dst is always new, packed, f32 here).
import { copyBytes, copyDims, copyFeatures, copyGenerated, copyNative, copyOracle, copyRejection, sourceView } from './cpy';
import { contiguous, view } from '../tensor';
import { caseLabel, OpCaseError, parseParams, type OpCase, type OpDef, type ParamSpec } from './types';

/** CONT has no op_params. */
export const PARAMS: readonly ParamSpec[] = [];

const LAYOUTS = [
  { name: 'src-permuted', doc: 'a is permute(0,2,1,3) of a packed tensor (heads back to tokens after attention)' },
  { name: 'src-transposed', doc: 'a is the transpose of a packed tensor (rows not contiguous)' },
  { name: 'src-rows-strided', doc: 'a is a view whose rows sit in a wider packed tensor' },
  { name: 'src-slice', doc: 'a is a 4-D view at an offset of a larger tensor (ne1 of a parent with 2 more rows, planes apart)' },
  { name: 'contiguous', doc: 'a is already packed (ggml still copies)' },
] as const;

function makeCase(dims: readonly number[], layout: string = 'src-permuted', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = copyDims('CONT', dims);
  parseParams('CONT', PARAMS, params);
  let src = sourceView(ne, layout);
  if (layout === 'src-slice') {
    const [ne0, ne1, ne2, ne3] = ne;
    const parent = contiguous('f32', [ne0, ne1 + 2, ne2, ne3]);
    src = view(parent, ne, [parent.nb[1], parent.nb[2], parent.nb[3]], parent.nb[1], 'slice');
  }
  if (!src || !LAYOUTS.some((l) => l.name === layout)) throw new OpCaseError(`CONT has no layout '${layout}' (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
  const dst = contiguous('f32', ne);
  return Object.freeze({ op: 'CONT', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'src-permuted'), srcs: Object.freeze([src]), dst, inplace: false, params: Object.freeze({}) });
}

export const CONT: OpDef = {
  name: 'CONT',
  bench: { dims: [4096, 4096] },
  summary: "dst = a packed copy of a's elements in ggml order, a any f32 view (ggml_cont)",
  shapeSyntax: 'ne0xne1[xne2xne3] of a (and of dst)',
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    { dims: [128, 33, 8], layout: 'src-permuted' },
    { dims: [64, 7, 32, 2], layout: 'src-permuted' },
    { dims: [250, 129], layout: 'src-transposed' },
    { dims: [4093, 9], layout: 'src-rows-strided' },
    { dims: [96, 31, 5], layout: 'src-slice' },
    { dims: [4096, 9], layout: 'contiguous' },
  ],
  makeCase,
  oracle: copyOracle,
  flops: () => null,
  bytes: copyBytes,
  features: copyFeatures,
  native: copyNative,
  family: copyGenerated.family,
  require: copyRejection,
  fits: copyGenerated.fits,
  generate: copyGenerated.generate,
};
