// The training step's graph as ggml builds it for a llama-family model: the forward pass as
// llama.cpp's llama builder makes it (no KV cache, so K and V weights get gradients), the
// backward nodes ggml_compute_backward (ggml.c) creates from it, and what ggml-opt adds
// (gradient accumulators as leaves, OPT_STEP_ADAMW per parameter, ARGMAX + COUNT_EQUAL for
// accuracy). Nodes are in a topological order (sources first, as ggml_visit_parents visits), the same
// nodes and order ggml builds for the computing nodes; parameters and their AdamW steps may come in
// another order than ggml's (llama.cpp builds the embedding lookup before layer 0, so its
// parameter order starts with token_embd). Leaves (inputs, accumulators, momenta) are kept apart,
// parameters are nodes of op NONE as in ggml.
import type { ModelConfig } from './model-config';

export type TensorType = 'f32' | 'i32' | 'i64';
const TYPE_BYTES: Record<TensorType, number> = { f32: 4, i32: 4, i64: 8 };
export type Ne = readonly [number, number, number, number];

export interface GNode {
  readonly id: number;
  /** ggml_op name (UNARY and GLU name their sub-op in `desc`). */
  readonly op: string;
  /** ggml_op_desc: the op, or the unary/glu op for UNARY and GLU (SILU, SWIGLU). */
  readonly desc: string;
  readonly type: TensorType;
  readonly ne: Ne;
  /** Byte strides (a view's are its source's). */
  readonly nb: Ne;
  readonly srcs: readonly GNode[];
  /** op_params as ggml lays them out (int32 and float values as numbers). */
  readonly params: readonly number[];
  name: string;
  readonly isParam: boolean;
  /** ggml's *_inplace: the result is a view of src0's data (gradient accumulation, AdamW). */
  readonly inplace?: boolean;
}

/** Ops that only re-describe memory: counted apart from the nodes that compute. */
export const VIEW_OPS: ReadonlySet<string> = new Set(['VIEW', 'RESHAPE', 'PERMUTE', 'TRANSPOSE']);

export const nelements = (t: Pick<GNode, 'ne'>): number => t.ne[0] * t.ne[1] * t.ne[2] * t.ne[3];
export const tensorBytes = (t: Pick<GNode, 'ne' | 'type'>): number => nelements(t) * TYPE_BYTES[t.type];
const sameShape = (a: GNode, b: GNode) => a.ne.every((v, i) => v === b.ne[i]);
const contiguousNb = (type: TensorType, ne: Ne): Ne => {
  const e = TYPE_BYTES[type];
  return [e, e * ne[0], e * ne[0] * ne[1], e * ne[0] * ne[1] * ne[2]];
};
const isContiguous = (t: GNode) => contiguousNb(t.type, t.ne).every((v, i) => t.ne[i] === 1 || v === t.nb[i]);

/** A tensor graph with ggml's node/leaf bookkeeping. */
class Builder {
  private nextId = 0;
  readonly nodes: GNode[] = [];
  readonly leafs: GNode[] = [];
  private readonly visited = new Set<GNode>();

  tensor(op: string, type: TensorType, ne: readonly number[], srcs: GNode[], params: number[] = [], o: { desc?: string; nb?: Ne; isParam?: boolean; name?: string; inplace?: boolean } = {}): GNode {
    const n4 = [ne[0] ?? 1, ne[1] ?? 1, ne[2] ?? 1, ne[3] ?? 1] as const;
    for (const v of n4) if (!Number.isSafeInteger(v) || v < 1) throw new Error(`${op}: bad dimension ${v} in [${n4}]`);
    return { id: this.nextId++, op, desc: o.desc ?? op, type, ne: n4, nb: o.nb ?? contiguousNb(type, n4), srcs, params, name: o.name ?? '', isParam: o.isParam ?? false, ...(o.inplace ? { inplace: true } : {}) };
  }
  leaf(type: TensorType, ne: readonly number[], name: string, isParam = false) {
    return this.tensor('NONE', type, ne, [], [], { name, isParam });
  }
  /** ggml_build_forward_expand: sources first, each tensor once. */
  expand(t: GNode): void {
    if (this.visited.has(t)) return;
    this.visited.add(t);
    for (const s of t.srcs) this.expand(s);
    if (t.op === 'NONE' && !t.isParam) this.leafs.push(t);
    else this.nodes.push(t);
  }

  // ---- ops (shapes as ggml computes them) ----
  getRows = (a: GNode, rows: GNode) => this.tensor('GET_ROWS', 'f32', [a.ne[0], rows.ne[0], rows.ne[1], rows.ne[2]], [a, rows]);
  // ggml_get_rows_back(a, b, c): c gives only the shape; the node's sources are a and b.
  getRowsBack = (g: GNode, rows: GNode, like: GNode) => this.tensor('GET_ROWS_BACK', 'f32', [like.ne[0], like.ne[1]], [g, rows]);
  rmsNorm = (a: GNode, eps: number) => this.tensor('RMS_NORM', 'f32', a.ne, [a], [eps]);
  rmsNormBack = (g: GNode, x: GNode, eps: number) => this.tensor('RMS_NORM_BACK', 'f32', g.ne, [g, x], [eps]);
  binary = (op: 'ADD' | 'MUL', a: GNode, b: GNode) => this.tensor(op, 'f32', a.ne, [a, b]);
  /** ggml_add_impl inplace: a view of the accumulator, op ADD. */
  addInplace = (acc: GNode, b: GNode) => this.tensor('ADD', 'f32', acc.ne, [acc, b], [], { nb: acc.nb, inplace: true });
  mulMat = (a: GNode, b: GNode) => this.tensor('MUL_MAT', 'f32', [a.ne[1], b.ne[1], b.ne[2], b.ne[3]], [a, b]);
  outProd = (a: GNode, b: GNode) => this.tensor('OUT_PROD', 'f32', [a.ne[0], b.ne[0], b.ne[2], b.ne[3]], [a, b]);
  reshape = (a: GNode, ne: readonly number[]) => {
    if (!isContiguous(a)) throw new Error('reshape of a non-contiguous tensor');
    return this.tensor('RESHAPE', a.type, ne, [a]);
  };
  view4d = (a: GNode, ne: Ne, nb1: number, nb2: number, nb3: number, offset: number) => this.tensor('VIEW', a.type, ne, [a], [offset, 0] /* a size_t: two words */, { nb: [a.nb[0], nb1, nb2, nb3] });
  permute = (a: GNode, ax: readonly [number, number, number, number]) => {
    const ne = [0, 0, 0, 0];
    const nb = [0, 0, 0, 0];
    ax.forEach((to, from) => ((ne[to] = a.ne[from]), (nb[to] = a.nb[from])));
    return this.tensor('PERMUTE', a.type, ne, [a], [...ax], { nb: nb as unknown as Ne });
  };
  transpose = (a: GNode) => this.tensor('TRANSPOSE', a.type, [a.ne[1], a.ne[0], a.ne[2], a.ne[3]], [a], [], { nb: [a.nb[1], a.nb[0], a.nb[2], a.nb[3]] });
  cont = (a: GNode, ne: readonly number[] = a.ne) => this.tensor('CONT', a.type, ne, [a]);
  rope = (op: 'ROPE' | 'ROPE_BACK', a: GNode, pos: GNode, c: ModelConfig) =>
    // ggml_rope_impl's 16 words: n_past, n_dims, mode (0 = normal, llama), n_ctx, n_ctx_orig, freq_base,
    // freq_scale, ext_factor, attn_factor, beta_fast, beta_slow, 4 mrope sections, n_offs
    this.tensor(op, 'f32', a.ne, [a, pos], [0, c.nRot, 0, 0, c.nCtx, c.ropeFreqBase, 1, 0, 1, 32, 1, 0, 0, 0, 0, 0]);
  softMax = (a: GNode, mask: GNode, scale: number) => this.tensor('SOFT_MAX', 'f32', a.ne, [a, mask], [scale, 0]);
  softMaxBack = (g: GNode, y: GNode, scale: number) => this.tensor('SOFT_MAX_BACK', 'f32', g.ne, [g, y], [scale, 0]);
  swiglu = (gate: GNode, up: GNode) => this.tensor('GLU', 'f32', gate.ne, [gate, up], [2 /* GGML_GLU_OP_SWIGLU */, 0 /* not swapped */], { desc: 'SWIGLU' });
  silu = (a: GNode) => this.tensor('UNARY', 'f32', a.ne, [a], [10 /* GGML_UNARY_OP_SILU */], { desc: 'SILU' });
  siluBack = (g: GNode, x: GNode) => this.tensor('SILU_BACK', 'f32', g.ne, [g, x]);
  repeatBack = (a: GNode, like: GNode) => this.tensor('REPEAT_BACK', 'f32', like.ne, [a]);
  scale = (a: GNode, s: number) => this.tensor('SCALE', 'f32', a.ne, [a], [s, 0]);
  acc = (a: GNode, b: GNode, nb1: number, nb2: number, nb3: number, offset: number) => this.tensor('ACC', 'f32', a.ne, [a, b], [nb1, nb2, nb3, offset, 0]);
  crossEntropyLoss = (logits: GNode, labels: GNode) => this.tensor('CROSS_ENTROPY_LOSS', 'f32', [1], [logits, labels]);
  crossEntropyLossBack = (g: GNode, logits: GNode, labels: GNode) => this.tensor('CROSS_ENTROPY_LOSS_BACK', 'f32', logits.ne, [g, logits, labels]);
  argmax = (a: GNode) => this.tensor('ARGMAX', 'i32', [a.ne[1]], [a]);
  countEqual = (a: GNode, b: GNode) => this.tensor('COUNT_EQUAL', 'i64', [1], [a, b]);
  adamw = (p: GNode, g: GNode, m: GNode, v: GNode, hp: GNode) => this.tensor('OPT_STEP_ADAMW', 'f32', p.ne, [p, g, m, v, hp], [], { nb: p.nb, inplace: true });
}

export interface TrainingGraph {
  readonly config: ModelConfig;
  /** Every node in topological order: forward, then backward, then the optimizer steps. */
  readonly nodes: readonly GNode[];
  readonly leafs: readonly GNode[];
  /** Index in `nodes` where the backward nodes start, and where the optimizer steps start. */
  readonly backwardStart: number;
  readonly optimizerStart: number;
  readonly params: readonly GNode[];
}

/** The forward graph of llama.cpp's llama builder (training: every token outputs logits). */
function buildForward(b: Builder, c: ModelConfig) {
  const nTokens = c.nCtx * c.nBatch;
  const headDim = c.nEmbd / c.nHead;
  const nEmbdKv = headDim * c.nHeadKv;
  const params: GNode[] = [];
  const param = (name: string, ne: number[]) => {
    const t = b.leaf('f32', ne, name, true);
    params.push(t);
    return t;
  };
  const tokens = b.leaf('i32', [nTokens], 'inp_tokens');
  const pos = b.leaf('i32', [nTokens], 'inp_pos');
  const mask = b.leaf('f32', [nTokens, nTokens], 'kq_mask'); // no KV cache: kv = the batch's tokens
  // llama.cpp always builds inp_out_ids (constant topology); with every token an output it keeps all rows
  const outIds = b.leaf('i32', [nTokens], 'inp_out_ids');
  const kqScale = 1 / Math.sqrt(headDim);
  const tokEmbd = param('token_embd.weight', [c.nEmbd, c.nVocab]);
  let inpL = b.getRows(tokEmbd, tokens);
  const norm = (x: GNode, w: GNode) => b.binary('MUL', b.rmsNorm(x, c.rmsEps), w);
  for (let il = 0; il < c.nLayer; il++) {
    const p = (n: string, ne: number[]) => param(`blk.${il}.${n}.weight`, ne);
    const wAttnNorm = p('attn_norm', [c.nEmbd]);
    const wq = p('attn_q', [c.nEmbd, c.nEmbd]);
    const wk = p('attn_k', [c.nEmbd, nEmbdKv]);
    const wv = p('attn_v', [c.nEmbd, nEmbdKv]);
    const wo = p('attn_output', [c.nEmbd, c.nEmbd]);
    const wFfnNorm = p('ffn_norm', [c.nEmbd]);
    const wGate = p('ffn_gate', [c.nEmbd, c.nFf]);
    const wUp = p('ffn_up', [c.nEmbd, c.nFf]);
    const wDown = p('ffn_down', [c.nFf, c.nEmbd]);
    const inpSA = inpL;
    const cur = norm(inpL, wAttnNorm);
    const q = b.rope('ROPE', b.reshape(b.mulMat(wq, cur), [headDim, c.nHead, nTokens]), pos, c);
    const k = b.rope('ROPE', b.reshape(b.mulMat(wk, cur), [headDim, c.nHeadKv, nTokens]), pos, c);
    const v = b.reshape(b.mulMat(wv, cur), [headDim, c.nHeadKv, nTokens]);
    for (const t of [q, k, v]) b.expand(t);
    // build_attn_mha: q split into streams (one stream here: a view of the whole), heads to dim 2
    const qs = b.view4d(q, [q.ne[0], q.ne[1], q.ne[2], 1], q.nb[1], q.nb[2], q.nb[3], 0);
    const qp = b.permute(qs, [0, 2, 1, 3]);
    const kp = b.permute(k, [0, 2, 1, 3]);
    const vp = b.permute(v, [0, 2, 1, 3]);
    const kq = b.softMax(b.mulMat(kp, qp), mask, kqScale);
    const vc = b.cont(b.transpose(vp)); // v not transposed in a cache: made so here
    const kqv = b.permute(b.mulMat(vc, kq), [0, 2, 1, 3]);
    let attn = b.mulMat(wo, b.cont(kqv, [kqv.ne[0] * kqv.ne[1], kqv.ne[2] * kqv.ne[3]]));
    b.expand(attn);
    let residual = inpSA;
    if (il === c.nLayer - 1) {
      attn = b.getRows(attn, outIds);
      residual = b.getRows(inpSA, outIds);
    }
    const ffnInp = b.binary('ADD', attn, residual);
    const x = norm(ffnInp, wFfnNorm);
    const up = b.mulMat(wUp, x);
    const gate = b.mulMat(wGate, x);
    const down = b.mulMat(wDown, b.swiglu(gate, up));
    inpL = b.binary('ADD', down, ffnInp);
    b.expand(inpL);
  }
  const outNorm = param('output_norm.weight', [c.nEmbd]);
  const out = c.tiedOutput ? tokEmbd : param('output.weight', [c.nEmbd, c.nVocab]);
  const logits = b.mulMat(out, norm(inpL, outNorm));
  b.expand(logits);
  return { logits, params };
}

/** ggml_compute_backward's rules for the ops the forward uses, over the nodes in reverse. */
function buildBackward(b: Builder, loss: GNode, fwd: readonly GNode[]) {
  const grads = new Map<GNode, GNode>();
  const accs = new Set<GNode>(); // tensors whose grad is an accumulator: contributions add in place
  const needed = new Set<GNode>();
  const ignoreSrc1 = new Set(['GET_ROWS', 'ROPE', 'CPY', 'GET_ROWS_BACK']);
  for (const n of fwd) {
    if (n.type === 'i32') continue;
    const srcNeeds = n.srcs.some((s, j) => !(j === 1 && ignoreSrc1.has(n.op)) && needed.has(s));
    if (!(n.isParam || n === loss || srcNeeds)) continue;
    if (n.isParam || n === loss) {
      // ggml-opt's accumulators (one per parameter, one for the loss): leaves of the graph
      const acc = b.leaf('f32', n.ne, `grad acc for ${n.name || 'loss'}`);
      grads.set(n, acc);
      accs.add(n);
    }
    needed.add(n);
  }
  const contribute = (src: GNode, g: GNode) => {
    if (!needed.has(src)) return;
    const prior = grads.get(src);
    const next = prior ? (accs.has(src) ? b.addInplace(prior, g) : b.binary('ADD', prior, g)) : g;
    if (prior) next.name = `grad for ${src.name}`;
    grads.set(src, next);
    b.expand(next);
  };
  for (let i = fwd.length - 1; i >= 0; i--) {
    const t = fwd[i];
    const g = grads.get(t);
    if (!g || !needed.has(t)) continue;
    const [s0, s1] = t.srcs;
    switch (t.op) {
      case 'NONE':
        break;
      case 'ADD':
        contribute(s0, g);
        contribute(s1, sameShape(s0, s1) ? g : b.repeatBack(g, s1));
        break;
      case 'MUL':
        if (needed.has(s0)) contribute(s0, b.binary('MUL', g, s1));
        if (needed.has(s1)) {
          const tmp = b.binary('MUL', s0, g);
          contribute(s1, sameShape(s0, s1) ? tmp : b.repeatBack(tmp, s1));
        }
        break;
      case 'RMS_NORM':
        contribute(s0, b.rmsNormBack(g, s0, t.params[0]));
        break;
      case 'MUL_MAT':
        if (needed.has(s0)) {
          let tmp = b.outProd(s1, g);
          if (!sameShape(tmp, s0)) {
            // broadcast over dim 2 (grouped-query heads): sum the groups back
            const nr2 = tmp.ne[2] / s0.ne[2];
            tmp = b.repeatBack(b.view4d(tmp, [s0.ne[0], s0.ne[1], s0.ne[2], nr2], tmp.nb[1], tmp.nb[2] * nr2, tmp.nb[2], 0), s0);
          }
          contribute(s0, tmp);
        }
        if (needed.has(s1)) contribute(s1, b.outProd(s0, b.transpose(g)));
        break;
      case 'SCALE':
        contribute(s0, b.scale(g, t.params[0]));
        break;
      case 'CONT':
        contribute(s0, sameShape(t, s0) ? g : b.reshape(g, s0.ne));
        break;
      case 'RESHAPE':
        contribute(s0, b.reshape(isContiguous(g) ? g : b.cont(g), s0.ne));
        break;
      case 'VIEW':
        if (needed.has(s0)) {
          const prior = grads.get(s0);
          const [nb1, nb2, nb3] = [t.nb[1], t.nb[2], t.nb[3]];
          const next = prior ? b.acc(prior, g, nb1, nb2, nb3, t.params[0]) : b.acc(b.scale(s0, 0), g, nb1, nb2, nb3, t.params[0]);
          grads.set(s0, next);
          b.expand(next);
        }
        break;
      case 'PERMUTE': {
        const axb = [0, 0, 0, 0];
        t.params.forEach((ax, i2) => (axb[ax] = i2));
        contribute(s0, b.permute(g, axb as unknown as [number, number, number, number]));
        break;
      }
      case 'TRANSPOSE':
        contribute(s0, b.transpose(g));
        break;
      case 'GET_ROWS':
        contribute(s0, b.getRowsBack(g, s1, s0));
        break;
      case 'SOFT_MAX':
        contribute(s0, b.softMaxBack(g, t, t.params[0]));
        break;
      case 'ROPE':
        contribute(s0, b.rope('ROPE_BACK', g, s1, { nRot: t.params[1], nCtx: t.params[4], ropeFreqBase: t.params[5] } as ModelConfig));
        break;
      case 'GLU': // swiglu split: d gate = silu_back(g·up, gate), d up = silu(gate)·g
        if (needed.has(s0)) contribute(s0, b.siluBack(b.binary('MUL', g, s1), s0));
        if (needed.has(s1)) contribute(s1, b.binary('MUL', b.silu(s0), g));
        break;
      case 'CROSS_ENTROPY_LOSS':
        contribute(s0, b.crossEntropyLossBack(g, s0, s1));
        break;
      default:
        throw new Error(`no backward rule for ${t.op}`);
    }
  }
  return grads;
}

/** The whole training step (ggml-opt, cross-entropy loss, AdamW, gradient accumulation). */
export function buildTrainingGraph(c: ModelConfig): TrainingGraph {
  const b = new Builder();
  const { logits, params } = buildForward(b, c);
  const labels = b.leaf('f32', logits.ne, 'labels');
  const loss = b.crossEntropyLoss(logits, labels);
  loss.name = 'loss_cross_entropy';
  b.expand(loss);
  const pred = b.argmax(logits);
  b.expand(pred);
  b.expand(b.countEqual(pred, b.argmax(labels)));
  const fwd = [...b.nodes];
  const backwardStart = b.nodes.length;
  const grads = buildBackward(b, loss, fwd);
  const optimizerStart = b.nodes.length;
  const hp = b.leaf('f32', [7], 'adamw_params');
  // ggml-opt walks the forward nodes in reverse: one step per parameter with a gradient
  for (let i = fwd.length - 1; i >= 0; i--) {
    const n = fwd[i];
    const g = grads.get(n);
    if (!n.isParam || !g) continue;
    const step = b.adamw(n, g, b.leaf('f32', n.ne, `AdamW m for ${n.name}`), b.leaf('f32', n.ne, `AdamW v for ${n.name}`), hp);
    step.name = `adamw step for ${n.name}`;
    b.expand(step);
  }
  return Object.freeze({ config: c, nodes: b.nodes, leafs: b.leafs, backwardStart, optimizerStart, params: Object.freeze(params) });
}

/** Node count per op desc (views included; the census tells them apart with VIEW_OPS). */
export function countByOp(nodes: readonly GNode[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of nodes) out[n.desc] = (out[n.desc] ?? 0) + 1;
  return out;
}
