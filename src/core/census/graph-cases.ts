// From a training graph's nodes to the lab's op cases: where each tensor lives (buffers allocated
// once, views as offsets and strides into them, in-place results in their source's buffer, as ggml
// does), and for each computing node the OpCase its kernel runs — the op's own case for the node's
// dims and params, with the graph's tensors (their strides, offsets and buffers) in place of the
// case's. Also which of the op's declared layouts the node's tensors are (the shapes the census
// sends to the lane), or that none is. Pure: the GPU run and the CPU oracle both start here.
//
// The dims and params rules below translate ggml's node (ne, op_params) into the lab's vocabulary
// for each op the builder makes: the same interchange knowledge as ggml-names.ts, kept in one table.
import { opByName } from '../ops/registry';
import { OpCaseError, type OpCase, type OpDef } from '../ops/types';
import { type DType, type TensorDesc, typeSizeBytes } from '../tensor';
import { labOpName } from './census';
import { type GNode, type TrainingGraph, VIEW_OPS, tensorBytes } from './graph';

const trim = (ne: readonly number[]): number[] => {
  const d = [...ne];
  while (d.length > 1 && d[d.length - 1] === 1) d.pop();
  return d;
};
const trim2 = (ne: readonly number[]): number[] => (ne[2] === 1 && ne[3] === 1 ? [ne[0], ne[1]] : trim(ne));

interface NodeRule {
  /** The op's dims for this node (its shapeSyntax). */
  dims(n: GNode): number[];
  /** The op's params from ggml's op_params. */
  params?(n: GNode): Record<string, number>;
}

/** B0 (src0's batches) after B where ggml broadcasts src0 over src1's batches (grouped K/V heads). */
function withSrc0Batches(n: GNode, dims: number[]): number[] {
  const b0 = n.srcs[0].ne[2] * n.srcs[0].ne[3];
  return b0 === dims[3] ? dims : [...dims, b0];
}

const ofSrc0: NodeRule = { dims: (n) => trim2(n.srcs[0].ne) };
const ofDst: NodeRule = { dims: (n) => trim2(n.ne) };

/** Keyed by ggml_op_desc (UNARY and GLU by their sub-op). */
const RULES: Readonly<Record<string, NodeRule>> = {
  ADD: ofDst,
  MUL: ofDst,
  SCALE: { ...ofDst, params: (n) => ({ s: n.params[0], b: n.params[1] ?? 0 }) },
  SILU: ofDst,
  SILU_BACK: ofDst,
  SWIGLU: { ...ofSrc0, params: (n) => ({ op: n.params[0], swapped: n.params[1] ?? 0 }) },
  CONT: ofSrc0, // ggml_cont_2d's dst has other dims but the same elements in the same order
  RMS_NORM: { ...ofDst, params: (n) => ({ eps: n.params[0] }) },
  RMS_NORM_BACK: { ...ofDst, params: (n) => ({ eps: n.params[0] }) },
  // MxNxK[xB[xB0]]: dst M x N, K = src0's rows
  MUL_MAT: { dims: (n) => withSrc0Batches(n, [n.ne[0], n.ne[1], n.srcs[0].ne[0], n.ne[2] * n.ne[3]]) },
  // dst M x N summed over K = src0.ne1
  OUT_PROD: { dims: (n) => withSrc0Batches(n, [n.ne[0], n.ne[1], n.srcs[0].ne[1], n.ne[2] * n.ne[3]]) },
  SOFT_MAX: { ...ofDst, params: (n) => ({ scale: n.params[0], max_bias: n.params[1] ?? 0 }) },
  SOFT_MAX_BACK: { ...ofDst, params: (n) => ({ scale: n.params[0] }) },
  ROPE: { ...ofSrc0, params: ropeParams },
  ROPE_BACK: { ...ofSrc0, params: ropeParams },
  ACC: { ...ofSrc0, params: (n) => ({ nb1: n.params[0], nb2: n.params[1], nb3: n.params[2], offset: n.params[3] }) },
  GET_ROWS: { dims: (n) => [n.srcs[0].ne[0], n.srcs[0].ne[1], ...trim(n.srcs[1].ne)] },
  GET_ROWS_BACK: { dims: (n) => [n.ne[0], n.ne[1], n.srcs[1].ne[0]] },
  REPEAT_BACK: { dims: (n) => [...n.ne, ...n.srcs[0].ne.map((s, d) => s / n.ne[d])] },
  CROSS_ENTROPY_LOSS: ofSrc0,
  CROSS_ENTROPY_LOSS_BACK: { dims: (n) => trim2(n.srcs[1].ne) },
  ARGMAX: ofSrc0,
  COUNT_EQUAL: ofSrc0,
  // params: the run's hyperparameters (the kernel reads them from src4, as ggml-opt writes them)
  OPT_STEP_ADAMW: ofSrc0,
};

function ropeParams(n: GNode): Record<string, number> {
  // ggml_rope_impl's words: n_past, n_dims, mode, n_ctx, n_ctx_orig, freq_base, freq_scale,
  // ext_factor, attn_factor, beta_fast, beta_slow, 4 mrope sections, n_offs
  const p = n.params;
  return { mode: p[2], n_dims: p[1], n_ctx_orig: p[4], freq_base: p[5], freq_scale: p[6], ext_factor: p[7], attn_factor: p[8], beta_fast: p[9], beta_slow: p[10], ...(p[15] ? { n_offs: p[15] } : {}) };
}

/** One buffer of the run: a parameter's state [p | m | v], an input, a node's result. */
export interface Storage {
  readonly id: number;
  readonly sizeBytes: number;
  /** The tensor that owns it (a view or in-place result lives in its source's). */
  readonly owner: GNode;
  readonly kind: 'param-state' | 'input' | 'grad-acc' | 'loss-grad' | 'adamw-params' | 'node';
}

export interface Placement {
  readonly storage: Storage;
  readonly offsetBytes: number;
}

/** A computing node ready to run: its op, its case on the graph's tensors, its buffers by role. */
export interface PlannedNode {
  readonly node: GNode;
  readonly op: OpDef;
  readonly c: OpCase;
  /** The op's declared layout the node's tensors are, or null (then `layoutMismatch` says why). */
  readonly declaredLayout: string | null;
  readonly layoutMismatch: string | null;
  readonly srcStorages: readonly Storage[];
  readonly dstStorage: Storage;
}

export interface GraphPlan {
  readonly graph: TrainingGraph;
  readonly storages: readonly Storage[];
  readonly placement: ReadonlyMap<GNode, Placement>;
  readonly nodes: readonly PlannedNode[];
  /** Bytes of every buffer together (what the run allocates, before guard bands). */
  readonly totalBytes: number;
  /** The largest single buffer. */
  readonly largestBytes: number;
  readonly loss: GNode;
  /** Per parameter, its AdamW node's state (p at 0, m, v after). */
  readonly paramStates: readonly { readonly param: GNode; readonly storage: Storage; readonly grad: GNode }[];
}

const dtypeOf = (t: GNode): DType => {
  if (t.type === 'i64') throw new OpCaseError(`${t.name || t.op}: an i64 tensor is only a result here (COUNT_EQUAL)`);
  return t.type;
};

/** Which dims are laid out in which order and where there are gaps: what a layout is. */
function strideSignature(t: TensorDesc): string {
  const dims = [0, 1, 2, 3].filter((d) => t.ne[d] > 1).sort((a, b) => t.nb[a] - t.nb[b] || a - b);
  let expect = typeSizeBytes[t.type];
  const parts = dims.map((d) => {
    const gap = t.nb[d] === expect ? '' : '+';
    expect = t.nb[d] * t.ne[d];
    return `${d}${gap}`;
  });
  return parts.join(',');
}

function layoutProblem(base: OpCase, srcs: readonly TensorDesc[], inplace: boolean): string | null {
  if (base.inplace !== inplace) return inplace ? 'the node is in place' : 'the layout is in place';
  if (base.srcs.length !== srcs.length) return `${base.srcs.length} sources, the node has ${srcs.length}`;
  for (let i = 0; i < srcs.length; i++) {
    const a = base.srcs[i];
    const b = srcs[i];
    if (a.ne.some((v, d) => v !== b.ne[d])) return `src${i} is ${b.ne.join('x')}, the layout's ${a.ne.join('x')}`;
    if (a.type !== b.type) return `src${i} is ${b.type}, the layout's ${a.type}`;
    if (strideSignature(a) !== strideSignature(b)) return `src${i} strides ${b.nb.join(',')} B (order ${strideSignature(b)}) are not the layout's (${strideSignature(a)})`;
  }
  return null;
}

/**
 * The op case for a node: the op's case for the node's dims and params under the first declared
 * layout whose tensors have the node's shapes and stride pattern (else the first layout that
 * builds), with the node's own tensors put in.
 */
export function nodeCase(n: GNode, srcs: readonly TensorDesc[], dstPlace: { offsetBytes: number; bufferSizeBytes: number }, params: Readonly<Record<string, number>> = {}): { op: OpDef; c: OpCase; declaredLayout: string | null; layoutMismatch: string | null } {
  const rule = RULES[n.desc];
  if (!rule) throw new OpCaseError(`${n.desc}: the graph run has no dims rule for this op`);
  const op = opByName(labOpName(n.desc));
  const dims = rule.dims(n);
  const p = { ...(rule.params?.(n) ?? {}), ...params };
  const inplace = n.inplace ?? false;
  let base: OpCase | null = null;
  let declaredLayout: string | null = null;
  const problems: string[] = [];
  for (const l of op.layouts) {
    let c: OpCase;
    try {
      c = op.makeCase(dims, l.name, p);
    } catch (e) {
      problems.push(`${l.name}: ${(e as Error).message}`);
      continue;
    }
    base ??= c;
    const why = layoutProblem(c, srcs, inplace);
    if (!why) {
      base = c;
      declaredLayout = l.name;
      break;
    }
    problems.push(`${l.name}: ${why}`);
  }
  if (!base) throw new OpCaseError(`${op.name} ${dims.join('x')}: no layout builds a case (${problems.join('; ')})`);
  const srcsIn = base.srcs.map((s, i) => srcs[i] ?? s);
  if (srcs.length !== base.srcs.length) throw new OpCaseError(`${op.name} ${dims.join('x')}: the node has ${srcs.length} sources, the op's case ${base.srcs.length}`);
  let dst: TensorDesc;
  if (inplace) {
    // the op's in-place dst, moved to where the node's src0 lives
    const shift = srcs[0].offsetBytes - base.srcs[0].offsetBytes;
    dst = { ...base.dst, offsetBytes: base.dst.offsetBytes + shift, bufferSizeBytes: srcs[0].bufferSizeBytes };
  } else {
    if (base.dst.offsetBytes !== 0) throw new OpCaseError(`${op.name}: its dst is a view (offset ${base.dst.offsetBytes} B); the graph run gives each result its own buffer`);
    dst = { ...base.dst, offsetBytes: dstPlace.offsetBytes, bufferSizeBytes: dstPlace.bufferSizeBytes };
  }
  const c: OpCase = Object.freeze({ ...base, layout: declaredLayout ?? 'graph', srcs: Object.freeze(srcsIn), dst, inplace });
  return { op, c, declaredLayout, layoutMismatch: declaredLayout ? null : problems.join('; ') };
}

export interface PlanOptions {
  /** The AdamW case params (alpha, beta1, beta2, eps, wd): labels only; the kernel reads src4. */
  readonly adamw?: Readonly<Record<string, number>>;
}

/** Where every tensor lives and each computing node's case. */
export function planGraph(graph: TrainingGraph, opts: PlanOptions = {}): GraphPlan {
  const storages: Storage[] = [];
  const placement = new Map<GNode, Placement>();
  const storage = (owner: GNode, sizeBytes: number, kind: Storage['kind']): Storage => {
    const s = { id: storages.length, sizeBytes: Math.max(4, sizeBytes), owner, kind };
    storages.push(s);
    return s;
  };
  const loss = graph.nodes.find((n) => n.op === 'CROSS_ENTROPY_LOSS');
  if (!loss) throw new OpCaseError('the graph has no CROSS_ENTROPY_LOSS node');
  const lossGradName = `grad acc for ${loss.name || 'loss'}`;
  // a parameter, its m and v share one state buffer [p | m | v], as the lab's OPT_STEP_ADAMW case lays them
  const paramStates: GraphPlan['paramStates'][number][] = [];
  for (const n of graph.nodes) {
    if (n.op !== 'OPT_STEP_ADAMW') continue;
    const [p, g, m, v] = n.srcs;
    const bytes = tensorBytes(p);
    const s = storage(p, 3 * bytes, 'param-state');
    placement.set(p, { storage: s, offsetBytes: 0 });
    placement.set(m, { storage: s, offsetBytes: bytes });
    placement.set(v, { storage: s, offsetBytes: 2 * bytes });
    paramStates.push({ param: p, storage: s, grad: g });
  }
  for (const l of graph.leafs) {
    if (placement.has(l)) continue;
    const kind: Storage['kind'] = l.name === 'adamw_params' ? 'adamw-params' : l.name === lossGradName ? 'loss-grad' : l.name.startsWith('grad acc for') ? 'grad-acc' : 'input';
    placement.set(l, { storage: storage(l, tensorBytes(l), kind), offsetBytes: 0 });
  }
  const descOf = (t: GNode): TensorDesc => {
    const pl = placement.get(t);
    if (!pl) throw new OpCaseError(`${t.name || t.op} #${t.id} is used before it is placed`);
    return { type: dtypeOf(t), ne: t.ne, nb: t.nb, offsetBytes: pl.offsetBytes, bufferSizeBytes: pl.storage.sizeBytes, layout: 'graph' };
  };
  const nodes: PlannedNode[] = [];
  for (const n of graph.nodes) {
    if (n.op === 'NONE') {
      if (!placement.has(n)) placement.set(n, { storage: storage(n, tensorBytes(n), 'param-state'), offsetBytes: 0 });
      continue;
    }
    if (VIEW_OPS.has(n.op)) {
      const src = placement.get(n.srcs[0])!;
      placement.set(n, { storage: src.storage, offsetBytes: src.offsetBytes + (n.op === 'VIEW' ? n.params[0] : 0) });
      continue;
    }
    const srcs = n.srcs.map(descOf);
    let dstPlace: Placement;
    if (n.inplace) dstPlace = placement.get(n.srcs[0])!;
    else {
      // the op's dst may be wider than ggml's (COUNT_EQUAL's i64 as two words): sized after the case
      dstPlace = { storage: storage(n, n.type === 'i64' ? 8 : tensorBytes(n), 'node'), offsetBytes: 0 };
    }
    placement.set(n, dstPlace);
    const params = n.op === 'OPT_STEP_ADAMW' ? { ...(opts.adamw ?? {}) } : {};
    const { op, c, declaredLayout, layoutMismatch } = nodeCase(n, srcs, { offsetBytes: dstPlace.offsetBytes, bufferSizeBytes: dstPlace.storage.sizeBytes }, params);
    if (!n.inplace && c.dst.bufferSizeBytes < dstPlace.offsetBytes + c.dst.ne.reduce((a, b) => a * b, 1) * typeSizeBytes[c.dst.type]) {
      throw new OpCaseError(`${op.name} #${n.id}: its dst needs more than the node's ${dstPlace.storage.sizeBytes} B`);
    }
    nodes.push({ node: n, op, c, declaredLayout, layoutMismatch, srcStorages: n.srcs.map((s) => placement.get(s)!.storage), dstStorage: dstPlace.storage });
  }
  const totalBytes = storages.reduce((a, s) => a + s.sizeBytes, 0);
  const largestBytes = storages.reduce((a, s) => Math.max(a, s.sizeBytes), 0);
  return { graph, storages, placement, nodes, totalBytes, largestBytes, loss, paramStates };
}

/** The bytes a plan allocates (buffers and the run's host copies are not counted twice). */
export function planBytes(graph: TrainingGraph): { totalBytes: number; largestBytes: number } {
  // the same sizes planGraph gives, without building the cases (a 7B graph is refused fast)
  let total = 0;
  let largest = 0;
  const add = (b: number) => ((total += b), (largest = Math.max(largest, b)));
  const inState = new Set<GNode>();
  for (const n of graph.nodes) {
    if (n.op !== 'OPT_STEP_ADAMW') continue;
    add(3 * tensorBytes(n.srcs[0]));
    for (const i of [0, 2, 3]) inState.add(n.srcs[i]);
  }
  for (const l of graph.leafs) if (!inState.has(l)) add(Math.max(4, tensorBytes(l)));
  for (const n of graph.nodes) {
    if (n.op === 'NONE' || VIEW_OPS.has(n.op) || n.inplace) continue;
    add(n.type === 'i64' ? 8 : tensorBytes(n));
  }
  return { totalBytes: total, largestBytes: largest };
}
