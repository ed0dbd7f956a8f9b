// A training step's data and its CPU evaluation: seeded weights and a seeded token batch for a
// planned graph, the AdamW hyperparameters ggml-opt writes each step, and the step evaluated node
// by node with each op's f64 oracle (results rounded to the tensor's type between nodes, as the
// GPU stores them). The GPU run (src/gpu/graph-run.ts) is checked against this.
import { adamwParamsTensor } from '../ops/opt-step-adamw';
import { PARAMS as ADAMW_PARAMS } from '../ops/opt-step-adamw';
import { parseParams } from '../ops/types';
import { prng, writeElement } from '../hostdata';
import { forEachElement, type TensorDesc } from '../tensor';
import { elementBound } from '../stats/correctness';
import { epsOf } from '../tensor';
import type { GraphPlan, Storage } from './graph-cases';
import { nelements, type GNode } from './graph';

export interface StepData {
  /** One host buffer per storage (plan.storages order). */
  readonly buffers: ArrayBuffer[];
}

/** AdamW hyperparameters of the run (ggml-opt's defaults unless given). */
export function adamwHyper(given: Readonly<Record<string, number>> = {}): Readonly<Record<string, number>> {
  return parseParams('OPT_STEP_ADAMW', ADAMW_PARAMS, given);
}

/** The 7 floats ggml-opt writes into adamw_params before step `iter` (1-based). */
export function adamwParamsFor(hyper: Readonly<Record<string, number>>, iter: number): Float32Array<ArrayBuffer> {
  return adamwParamsTensor({ ...hyper, iter });
}

const f32 = (s: Storage, b: ArrayBuffer) => new Float32Array(b, 0, s.sizeBytes / 4);

/**
 * Seeded start: every weight uniform in ±sqrt(3 / ne0) (unit-variance projections), the norm
 * weights 1, m = v = 0; a token batch of nBatch sequences of nCtx seeded tokens whose labels are
 * the next token (one-hot), positions 0..nCtx−1 per sequence, a causal mask per sequence.
 */
export function initialData(plan: GraphPlan, seed: number): StepData {
  const c = plan.graph.config;
  const nTokens = c.nCtx * c.nBatch;
  const next = prng(seed);
  const tokens = Array.from({ length: nTokens + 1 }, () => Math.floor(next() * c.nVocab));
  const buffers = plan.storages.map((s) => new ArrayBuffer(s.sizeBytes));
  for (const s of plan.storages) {
    const b = buffers[s.id];
    const name = s.owner.name;
    if (s.kind === 'param-state') {
      const p = f32(s, b);
      const n = nelements(s.owner);
      const isNorm = s.owner.ne[1] === 1 && s.owner.ne[2] === 1 && s.owner.ne[3] === 1;
      const a = Math.sqrt(3 / s.owner.ne[0]);
      const r = prng(seed * 31 + s.id + 1);
      for (let i = 0; i < n; i++) p[i] = isNorm ? 1 : (r() * 2 - 1) * a;
    } else if (s.kind === 'loss-grad') {
      f32(s, b)[0] = 1; // ggml-opt sets the loss's gradient to 1
    } else if (name === 'inp_tokens') {
      const v = new Int32Array(b);
      for (let t = 0; t < nTokens; t++) v[t] = tokens[t];
    } else if (name === 'inp_pos') {
      const v = new Int32Array(b);
      for (let t = 0; t < nTokens; t++) v[t] = t % c.nCtx;
    } else if (name === 'inp_out_ids') {
      const v = new Int32Array(b);
      for (let t = 0; t < nTokens; t++) v[t] = t;
    } else if (name === 'kq_mask') {
      // row = one query (ne1), column = one key (ne0): a key is seen when it is in the same sequence, not later
      const v = f32(s, b);
      for (let q = 0; q < nTokens; q++)
        for (let k = 0; k < nTokens; k++) v[q * nTokens + k] = Math.floor(q / c.nCtx) === Math.floor(k / c.nCtx) && k <= q ? 0 : -Infinity;
    } else if (name === 'labels') {
      const v = f32(s, b);
      for (let t = 0; t < nTokens; t++) v[t * c.nVocab + tokens[t + 1]] = 1;
    }
  }
  return { buffers };
}

/** Before each step: accumulators to zero (ggml_graph_reset), the loss's gradient 1, this step's AdamW floats. */
export function resetForStep(plan: GraphPlan, data: StepData, hyper: Readonly<Record<string, number>>, iter: number): void {
  for (const s of plan.storages) {
    if (s.kind === 'grad-acc') new Uint8Array(data.buffers[s.id]).fill(0);
    if (s.kind === 'adamw-params') new Float32Array(data.buffers[s.id]).set(adamwParamsFor(hyper, iter));
  }
}

/** Writes an oracle's answer into dst, rounded to dst's type as a kernel stores it. */
function store(dst: TensorDesc, buf: ArrayBuffer, ref: Float64Array): void {
  const view = new DataView(buf);
  forEachElement(dst, (i, off) => writeElement(view, dst.type, off, ref[i]));
}

/** Reads the scalar loss. */
export function lossOf(plan: GraphPlan, buffers: readonly ArrayBuffer[]): number {
  const pl = plan.placement.get(plan.loss)!;
  return new DataView(buffers[pl.storage.id]).getFloat32(pl.offsetBytes, true);
}

/**
 * One step on the CPU, node by node with each op's oracle, on `data` in place. Returns the loss
 * and its bound (the loss op's own element bound at this node).
 */
export function cpuStep(plan: GraphPlan, data: StepData, hyper: Readonly<Record<string, number>>, iter: number): { loss: number; lossBound: number } {
  resetForStep(plan, data, hyper, iter);
  let lossBound = 0;
  for (const pn of plan.nodes) {
    const srcs = pn.srcStorages.map((s) => data.buffers[s.id]);
    const r = pn.op.oracle(pn.c, srcs);
    if (pn.node === plan.loss) lossBound = elementBound(r.ref[0], r.epsFloor[0], r.terms, epsOf.f32);
    store(pn.c.dst, data.buffers[pn.dstStorage.id], r.ref);
  }
  return { loss: lossOf(plan, data.buffers), lossBound };
}

export interface ParamCheck {
  readonly param: string;
  /** Elements of the parameter (each checked three times: its new value, m and v). */
  readonly elements: number;
  readonly outOfBound: number;
  /**
   * Elements whose CPU gradient is within the gradient's tolerance of 0: its sign is not resolved,
   * and AdamW's first step moves the weight by ±alpha whatever the gradient's size, so the weight
   * is held to 2·alpha there (m and v keep their bounds).
   */
  readonly signUnresolved: number;
  /** Of those, elements whose CPU gradient is exactly 0 (an embedding row no token of the batch uses). */
  readonly zeroGradient: number;
  readonly worstRatio: number;
  readonly failures: readonly string[];
}

/**
 * The gradient's own tolerance, relative to the tensor's largest |gradient|: a gradient is the end
 * of a chain of f32 kernels (the CPU rounds each node's f64 result to f32 too), whose differences
 * this absorbs (f32's unit roundoff is 2⁻²³: 128× margin).
 */
export const GRAD_TOLERANCE = 2 ** -16;

/**
 * Every parameter's state after the step against the CPU's, each element's new weight, m and v:
 * the element bound sqrt(k)·8·eps·(|cpu| + floor) (k = 8, AdamW's oracle), plus what the gradient's
 * tolerance δ = GRAD_TOLERANCE·max|g| moves: m by (1 − β1)·δ, v by (1 − β2)·(2|g|δ + δ²), the weight
 * by alpha·β1h·(1 − β1)·δ·eps_adam/(√v̂ + eps_adam)² (linearized; first step) — or 2·alpha where |g| ≤ δ.
 * m = (1 − β1)·g makes this a check of every gradient too, not only of its sign.
 */
export function checkParams(plan: GraphPlan, gpu: readonly ArrayBuffer[], cpu: readonly ArrayBuffer[], cpuGrads: ReadonlyMap<GNode, Float32Array>, hyper: Readonly<Record<string, number>>, iter = 1): ParamCheck[] {
  const eps = epsOf.f32;
  const { alpha, beta1, beta2 } = hyper;
  const adamEps = hyper.eps;
  const b1h = 1 / (1 - Math.pow(beta1, iter));
  const b2h = 1 / (1 - Math.pow(beta2, iter));
  return plan.paramStates.map(({ param, storage }) => {
    const n = nelements(param);
    const g = f32(storage, gpu[storage.id]);
    const c = f32(storage, cpu[storage.id]);
    const grad = cpuGrads.get(param) ?? new Float32Array(n);
    let gmax = 0;
    for (let i = 0; i < n; i++) gmax = Math.max(gmax, Math.abs(grad[i]));
    const delta = GRAD_TOLERANCE * gmax;
    let outOfBound = 0;
    let signUnresolved = 0;
    let zeroGradient = 0;
    let worstRatio = 0;
    const failures: string[] = [];
    const compare = (at: number, bound: number, what: string) => {
      const err = Math.abs(g[at] - c[at]);
      const ratio = Number.isFinite(err) ? err / bound : Infinity;
      if (ratio > worstRatio) worstRatio = ratio;
      if (!(ratio <= 1)) {
        outOfBound++;
        if (failures.length < 3) failures.push(`${what}[${at % n}] gpu ${g[at]} cpu ${c[at]} (bound ${bound.toExponential(2)})`);
      }
    };
    for (let i = 0; i < n; i++) {
      const gi = Math.abs(grad[i]);
      const unresolved = gi <= delta;
      if (unresolved) signUnresolved++;
      if (gi === 0) zeroGradient++;
      const vh = Math.sqrt(Math.abs(c[2 * n + i]) * b2h) + adamEps;
      const wMoves = unresolved ? 2 * alpha : (alpha * b1h * (1 - beta1) * delta * adamEps) / (vh * vh);
      compare(i, elementBound(c[i], alpha, 8, eps) + wMoves, 'w');
      compare(n + i, elementBound(c[n + i], (1 - beta1) * gi, 8, eps) + (1 - beta1) * delta, 'm');
      compare(2 * n + i, elementBound(c[2 * n + i], c[2 * n + i], 8, eps) + (1 - beta2) * (2 * gi * delta + delta * delta), 'v');
    }
    return { param: param.name, elements: n, outOfBound, signUnresolved, zeroGradient, worstRatio, failures };
  });
}

/** The gradient each parameter's AdamW step read (its accumulator), from a step's buffers. */
export function gradsOf(plan: GraphPlan, buffers: readonly ArrayBuffer[]): Map<GNode, Float32Array> {
  const out = new Map<GNode, Float32Array>();
  for (const { param, grad } of plan.paramStates) {
    const pl = plan.placement.get(grad)!;
    out.set(param, new Float32Array(buffers[pl.storage.id].slice(pl.offsetBytes, pl.offsetBytes + nelements(param) * 4)));
  }
  return out;
}
