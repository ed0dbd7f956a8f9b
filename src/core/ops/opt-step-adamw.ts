// OPT_STEP_ADAMW — ggml_opt_step_adamw(a, grad, m, v, adamw_params): one AdamW step, in place.
// src0 = a (the parameter, dst is a view of it), src1 = grad, src2 = m, src3 = v (same shape as
// a, updated in place too), src4 = adamw_params, 7 f32 laid out as ggml-opt fills them:
// [alpha, beta1, beta2, eps, wd, beta1h, beta2h], beta1h = 1/(1 − beta1^iter), beta2h likewise.
// Per element, in ggml's f32 order (ggml-cpu/ops.cpp, d99724f2):
//   m = m·beta1 + g·(1 − beta1);  v = v·beta2 + g·g·(1 − beta2)
//   w = w·(1 − alpha·wd) − alpha·(m·beta1h) / (sqrt(v·beta2h) + eps)
//
// Three outputs, one check: the lab's check reads one dst tensor, so a, m and v are laid out in
// one state buffer [a | m | v] (ggml does not care where m and v live) and dst is the view
// [ne0, ne1, ne2·ne3, 3] over all of it: dst plane 0 is the new a, plane 1 the new m, plane 2 the
// new v. Every element of all three is compared with the oracle and the guard bands around the
// state catch stray writes; a failure at [i0, i1, i2, 1] is an m element, [.., 2] a v element.
import nativeWgsl from '../../../kernels/OPT_STEP_ADAMW/opt_step_adamw.wgsl?raw';
import { deviceOffsetElements, gather, prng } from '../hostdata';
import { uniformSchema } from '../codegen/uniforms';
import { u } from '../codegen/wgsl';
import type { ElementwiseSnippet } from '../families/elementwise';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { contiguous, nelements, nrows, rowsContiguous, sameShape, view, type TensorDesc } from '../tensor';
import { defineElementwiseOp } from './elementwise-op';
import { caseLabel, OpCaseError, paramsLabel, parseParams, type OpCase, type OracleResult, type ParamSpec } from './types';
import { inputSeed } from '../inputs';

/** ggml-opt's defaults (ggml_opt_get_default_optimizer_params) and the ranges it asserts. */
export const PARAMS: readonly ParamSpec[] = Object.freeze([
  { name: 'alpha', type: 'f32', default: 0.001, min: 0, doc: 'learning rate, > 0 (ggml-opt asserts alpha > 0)' },
  { name: 'beta1', type: 'f32', default: 0.9, min: 0, max: 0.999999, doc: 'first-moment decay; ggml-opt allows [0, 1], but beta1 = 1 makes beta1h = 1/(1 − beta1^iter) infinite' },
  { name: 'beta2', type: 'f32', default: 0.999, min: 0, max: 0.999999, doc: 'second-moment decay; < 1 for the same reason' },
  { name: 'eps', type: 'f32', default: 1e-8, min: 0, doc: 'added to sqrt(v̂) (ggml-opt asserts eps ≥ 0)' },
  { name: 'wd', type: 'f32', default: 0, min: 0, max: 1, doc: 'decoupled weight decay (ggml-opt asserts 0 ≤ wd ≤ 1)' },
  { name: 'iter', type: 'u32', default: 1, min: 1, doc: 'the step number ggml-opt derives beta1h and beta2h from' },
]);

const LAYOUTS = [{ name: 'inplace', doc: 'ggml_opt_step_adamw: a, m and v packed and updated in place (one state buffer [a | m | v]), grad and the params tensor packed' }] as const;

const F = Math.fround;

/** The params tensor's 7 values as ggml-opt computes them (f32, powf). */
export function adamwParamsTensor(p: Readonly<Record<string, number>>): Float32Array<ArrayBuffer> {
  const beta1h = F(1 / F(1 - F(Math.pow(F(p.beta1), p.iter))));
  const beta2h = F(1 / F(1 - F(Math.pow(F(p.beta2), p.iter))));
  return new Float32Array([p.alpha, p.beta1, p.beta2, p.eps, p.wd, beta1h, beta2h]);
}

/** ggml_opt_step_adamw's asserts plus its CPU kernel's: it walks grad, m and v with a's byte strides. */
export function adamwProblems(a: TensorDesc, grad: TensorDesc, m: TensorDesc, v: TensorDesc, params: TensorDesc): string[] {
  const reasons: string[] = [];
  for (const [name, t] of [['grad', grad], ['m', m], ['v', v]] as const) {
    if (!sameShape(a, t)) reasons.push(`${name} ${t.ne.join('x')} is not a's shape ${a.ne.join('x')}`);
    else if (t.nb.some((nb, d) => nb !== a.nb[d] && a.ne[d] > 1)) reasons.push(`${name} has strides ${t.nb.join(',')} B but ggml indexes it with a's ${a.nb.join(',')} B`);
  }
  if (!rowsContiguous(a)) reasons.push(`a's rows are not contiguous (ggml asserts nb00 == sizeof(float))`);
  if (params.type !== 'f32' || nelements(params) !== 7) reasons.push(`the params tensor must be 7 f32 values, got ${nelements(params)} ${params.type}`);
  return reasons;
}

function makeCase(dims: readonly number[], layout: string = 'inplace', params: Readonly<Record<string, number>> = {}): OpCase {
  if (dims.length < 1 || dims.length > 4) throw new OpCaseError(`OPT_STEP_ADAMW takes 1 to 4 dims (ne0xne1[xne2xne3] of the parameter a), got ${dims.length}`);
  if (!LAYOUTS.some((l) => l.name === layout)) throw new OpCaseError(`OPT_STEP_ADAMW has no layout '${layout}' (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
  const p = parseParams('OPT_STEP_ADAMW', PARAMS, params);
  if (!(p.alpha > 0)) throw new OpCaseError(`OPT_STEP_ADAMW: alpha = ${p.alpha} is out of range (alpha is a finite number > 0; ggml-opt asserts it)`);
  const ne = [1, 1, 1, 1].map((one, i) => dims[i] ?? one);
  const n = ne[0] * ne[1] * ne[2] * ne[3];
  const state = contiguous('f32', [n, 3]);
  const packed = contiguous('f32', ne);
  const plane = (i: number, name: string) => view(state, ne, [packed.nb[1], packed.nb[2], packed.nb[3]], i * n * 4, name);
  const a = plane(0, 'state[a]');
  const m = plane(1, 'state[m]');
  const v = plane(2, 'state[v]');
  const grad = contiguous('f32', ne);
  const hp = contiguous('f32', [7]);
  const problems = adamwProblems(a, grad, m, v, hp);
  if (problems.length) throw new OpCaseError(`OPT_STEP_ADAMW ${dims.join('x')}: ${problems.join('; ')}`);
  // The checked output: the whole state, planes a | m | v (see the header).
  const dst = { ...contiguous('f32', [ne[0], ne[1], ne[2] * ne[3], 3]), layout: 'state[a|m|v]' };
  return Object.freeze({ op: 'OPT_STEP_ADAMW', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'inplace', paramsLabel(PARAMS, p)), srcs: Object.freeze([a, grad, m, v, hp]), dst, inplace: true, params: p });
}

/**
 * a, grad and m uniform in [-1, 1), v in [0, 1) (a running mean of g², never negative), the
 * params tensor from the case's params. a, m and v share the state buffer: the same bytes are
 * given for src0, src2 and src3.
 */
function inputs(c: OpCase, seed: number): ArrayBuffer[] {
  const n = nelements(c.srcs[0]);
  const state = new ArrayBuffer(c.srcs[0].bufferSizeBytes);
  const s = new Float32Array(state);
  const next = prng(inputSeed(seed, 0));
  for (let i = 0; i < 2 * n; i++) s[i] = next() * 2 - 1;
  for (let i = 2 * n; i < 3 * n; i++) s[i] = next();
  const grad = new ArrayBuffer(c.srcs[1].bufferSizeBytes);
  const g = new Float32Array(grad);
  const nextG = prng(inputSeed(seed, 1));
  for (let i = 0; i < g.length; i++) g[i] = nextG() * 2 - 1;
  return [state, grad, state, state, adamwParamsTensor(c.params).buffer];
}

/**
 * f64 update from the params tensor's f32 values. epsFloor: m and v are sums of two terms (v's
 * are ≥ 0), so their floor is the terms' size; w's is |w·keep| plus the update's size with m at
 * its floor (an m that cancels carries that absolute error into the update). k = 8 covers the
 * handful of roundings between the inputs and w.
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]): OracleResult {
  const w = gather(c.srcs[0], srcs[0]);
  const g = gather(c.srcs[1], srcs[1]);
  const m = gather(c.srcs[2], srcs[2]);
  const v = gather(c.srcs[3], srcs[3]);
  const [alpha, beta1, beta2, eps, wd, beta1h, beta2h] = gather(c.srcs[4], srcs[4]);
  const n = w.length;
  const ref = new Float64Array(3 * n);
  const epsFloor = new Float64Array(3 * n);
  const keep = 1 - alpha * wd;
  for (let i = 0; i < n; i++) {
    const mTerms = Math.abs(m[i] * beta1) + Math.abs(g[i] * (1 - beta1));
    const mNew = m[i] * beta1 + g[i] * (1 - beta1);
    const vNew = v[i] * beta2 + g[i] * g[i] * (1 - beta2);
    const vh = Math.sqrt(vNew * beta2h) + eps;
    const update = (alpha * mNew * beta1h) / vh;
    ref[i] = w[i] * keep - update;
    ref[n + i] = mNew;
    ref[2 * n + i] = vNew;
    epsFloor[i] = Math.abs(w[i] * keep) + (alpha * mTerms * beta1h) / vh;
    epsFloor[n + i] = mTerms;
    epsFloor[2 * n + i] = vNew;
  }
  return { ref, epsFloor, terms: 8 };
}

/** a, grad, m, v and the params tensor as the shared Tensor descriptors. */
const ADAMW_UNIFORMS = uniformSchema('Params', { w: 'tensor', g: 'tensor', m: 'tensor', v: 'tensor', hp: 'tensor' });

const NATIVE_WG = 256;

function native(c: OpCase): KernelSpec {
  const [w, g, m, v, hp] = c.srcs;
  return nativeTemplated('OPT_STEP_ADAMW/opt_step_adamw.wgsl', nativeWgsl, ['dst', 'src1', 'src4', 'params'], grid2d(Math.ceil(nelements(w) / NATIVE_WG)), ADAMW_UNIFORMS, { w, g, m, v, hp }, { WG: NATIVE_WG });
}

const HYPER = ['alpha', 'beta1', 'beta2', 'eps', 'wd', 'beta1h', 'beta2h'] as const;

/**
 * The elementwise family with three outputs: a, m and v, all in the state buffer (dst), each
 * thread loading its w, m and v before storing any. The hyperparameters are read from the params
 * tensor at run time (uniform custom-index loads, splatted over vectors), as ggml does: ggml-opt rewrites beta1h and beta2h
 * every step without rebuilding the graph.
 */
function snippet(c: OpCase): ElementwiseSnippet {
  const [a, grad, m, v, hp] = c.srcs;
  const offp = deviceOffsetElements(hp);
  const mNew = '(pm * beta1 + pg * (1.0 - beta1))';
  const vNew = '(pv * beta2 + pg * pg * (1.0 - beta2))';
  return {
    sources: [
      { name: 'pw', tensor: a, binding: 'dst' },
      { name: 'pg', tensor: grad, binding: 'src1' },
      { name: 'pm', tensor: m, binding: 'dst' },
      { name: 'pv', tensor: v, binding: 'dst' },
      ...HYPER.map((name, i) => ({ name, tensor: hp, binding: 'src4' as const, index: u(offp + i), uniform: true })),
    ],
    outputs: [
      { tensor: a, binding: 'dst', expr: `pw * (1.0 - alpha * wd) - alpha * (${mNew} * beta1h) / (sqrt(${vNew} * beta2h) + eps)` },
      { tensor: m, binding: 'dst', expr: mNew },
      { tensor: v, binding: 'dst', expr: vNew },
    ],
  };
}

export const OPT_STEP_ADAMW = defineElementwiseOp({
  name: 'OPT_STEP_ADAMW',
  bench: { dims: [4096, 4096] },
  summary: 'one AdamW step: a, m and v updated in place from grad and the 7-float params tensor (ggml_opt_step_adamw)',
  shapeSyntax: 'ne0xne1[xne2xne3] of the parameter a',
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    { dims: [4096, 4], layout: 'inplace' },
    { dims: [4093, 3], layout: 'inplace' },
    { dims: [1000, 7, 3], layout: 'inplace' },
    { dims: [64, 64, 2, 2], layout: 'inplace' },
    { dims: [4097], layout: 'inplace' },
    { dims: [1000, 7, 3], layout: 'inplace', params: { alpha: 0.01, beta1: 0.8, beta2: 0.99, eps: 1e-6, wd: 0.1, iter: 10 } },
  ],
  makeCase,
  oracle,
  inputs,
  snippet,
  // a, grad, m, v read once and the 7 params; a, m, v written.
  // A node's destination is a (updated in place), but the step also rewrites m and v, the same size.
  censusBytes: (srcBytes, dstBytes) => ({ readBytes: srcBytes.reduce((a, b) => a + b, 0), writeBytes: 3 * dstBytes }),
  bytes: (c) => ({ readBytes: 4 * nelements(c.srcs[0]) * 4 + 7 * 4, writeBytes: 3 * nelements(c.srcs[0]) * 4 }),
  features: (c) => ({ ne0: c.srcs[0].ne[0], rows: nrows(c.srcs[0]), n: nelements(c.srcs[0]) }),
  native,
});
