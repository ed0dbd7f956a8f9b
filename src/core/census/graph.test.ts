import { describe, expect, it } from 'vitest';
import { buildTrainingGraph, countByOp, VIEW_OPS } from './graph';
import { makeConfig, PRESETS } from './model-config';

// Node counts of the tiny preset's training step, worked out by hand from llama.cpp's llama
// builder, ggml_compute_backward (ggml.c) and ggml_opt_build (ggml-opt.cpp). L = 5 layers.
//
// Forward, per layer (F1..F30):
//   RMS_NORM, MUL (attn norm) · MUL_MAT q,k,v · RESHAPE ×3 · ROPE q,k · VIEW q (build_attn_mha's
//   one-stream split) · PERMUTE q,k,v · MUL_MAT kq · SOFT_MAX · TRANSPOSE v, CONT · MUL_MAT kqv ·
//   PERMUTE · CONT (cont_2d) · MUL_MAT wo · ADD (residual) · RMS_NORM, MUL (ffn norm) · MUL_MAT
//   up, gate · GLU(SWIGLU) · MUL_MAT down · ADD (residual); 9 parameters (op NONE nodes).
//   Last layer: GET_ROWS ×2 (inp_out_ids on the attention output and the residual).
// Forward, once: GET_ROWS (token_embd), RMS_NORM + MUL (output norm), MUL_MAT (output),
//   CROSS_ENTROPY_LOSS, ARGMAX ×2 (pred, labels), COUNT_EQUAL; parameters token_embd,
//   output_norm, output.
// Backward, per layer (reverse order):
//   each of the 7 weight MUL_MATs: OUT_PROD (d weight) + in-place ADD into its accumulator,
//     TRANSPOSE(grad) + OUT_PROD (d input)                               → 14 OUT_PROD, 7 TRANSPOSE, 7 ADD
//   kq and kqv MUL_MAT: OUT_PROD + VIEW + REPEAT_BACK (d src0: K and V have 4 heads, Q 8, so the
//     8-head product is summed back over the groups), TRANSPOSE + OUT_PROD (d src1)
//                                                                         → 4 OUT_PROD, 2 VIEW, 2 REPEAT_BACK, 2 TRANSPOSE
//   GLU swiglu: MUL(g, up) → SILU_BACK; SILU(gate) → MUL                  → 2 MUL, SILU_BACK, SILU
//   each norm MUL: MUL(g, w) (d x); MUL(x, g) → REPEAT_BACK → ADD into w's accumulator
//                                                                         → 4 MUL, 2 REPEAT_BACK, 2 ADD
//   RMS_NORM ×2 → RMS_NORM_BACK ×2;  SOFT_MAX → SOFT_MAX_BACK;  ROPE ×2 → ROPE_BACK ×2
//   CONT (cont_2d, shape changes) → RESHAPE; CONT (v, same shape) passes the grad through
//   PERMUTE ×4 → PERMUTE ×4;  TRANSPOSE v → TRANSPOSE
//   VIEW q (no grad yet on its source) → SCALE(q, 0) + ACC
//   RESHAPE q, k (grads from ROPE_BACK, contiguous) → RESHAPE ×2; RESHAPE v (grad a PERMUTE,
//     not contiguous) → CONT + RESHAPE
//   residual ADDs pass the grad to both sources (no node)
//   sums of several grads on one tensor (non-in-place ADD): attn-norm output 3 uses → 2,
//     ffn-norm output 2 → 1, ffn_inp 2 → 1, the layer input 2 → 1        → 5 ADD
//   last layer: GET_ROWS ×2 → GET_ROWS_BACK ×2
// Backward, once: CROSS_ENTROPY_LOSS_BACK; output MUL_MAT: 2 OUT_PROD, TRANSPOSE, ADD (acc);
//   output norm: 2 MUL, REPEAT_BACK, ADD (acc), RMS_NORM_BACK; GET_ROWS → GET_ROWS_BACK + ADD (acc).
// Optimizer: OPT_STEP_ADAMW per parameter: 9·5 + 3 = 48.
const TINY_COUNTS = {
  NONE: 9 * 5 + 3, // 48 parameters
  GET_ROWS: 1 + 2,
  RMS_NORM: 2 * 5 + 1,
  MUL: 2 * 5 + 1 + 6 * 5 + 2, // 43
  MUL_MAT: 9 * 5 + 1, // 46
  RESHAPE: 3 * 5 + 4 * 5, // 35
  ROPE: 2 * 5,
  PERMUTE: 4 * 5 + 4 * 5, // 40
  TRANSPOSE: 1 * 5 + 10 * 5 + 1, // 56
  CONT: 2 * 5 + 1 * 5, // 15
  VIEW: 1 * 5 + 2 * 5, // 15
  SOFT_MAX: 5,
  ADD: 2 * 5 + (9 + 5) * 5 + 3, // 83
  SWIGLU: 5,
  CROSS_ENTROPY_LOSS: 1,
  ARGMAX: 2,
  COUNT_EQUAL: 1,
  CROSS_ENTROPY_LOSS_BACK: 1,
  OUT_PROD: 18 * 5 + 2, // 92
  REPEAT_BACK: 4 * 5 + 1, // 21
  RMS_NORM_BACK: 2 * 5 + 1,
  SILU_BACK: 5,
  SILU: 5,
  GET_ROWS_BACK: 1 + 2,
  SOFT_MAX_BACK: 5,
  SCALE: 5,
  ACC: 5,
  ROPE_BACK: 2 * 5,
  OPT_STEP_ADAMW: 48,
};

describe('buildTrainingGraph', () => {
  it('tiny preset: node counts per op as derived from ggml\'s rules', () => {
    const g = buildTrainingGraph(PRESETS.tiny);
    expect(countByOp(g.nodes)).toEqual(TINY_COUNTS);
    expect(g.nodes.length).toBe(630);
    const views = g.nodes.filter((n) => VIEW_OPS.has(n.op)).length;
    expect(views).toBe(35 + 40 + 56 + 15); // 146 views, 484 other nodes (48 of them parameters)
    // forward: per layer 9 parameters + 21 computing nodes + 9 views; once: 3 parameters, 3
    // GET_ROWS, RMS_NORM, MUL, MUL_MAT, CROSS_ENTROPY_LOSS, 2 ARGMAX, COUNT_EQUAL
    expect(g.backwardStart).toBe(39 * 5 + 13);
    expect(g.optimizerStart).toBe(630 - 48);
    expect(g.nodes.slice(g.optimizerStart).every((n) => n.op === 'OPT_STEP_ADAMW')).toBe(true);
  });

  it('tiny preset: shapes of the attention nodes (8 heads of 8, 4 KV heads, 128 tokens)', () => {
    const g = buildTrainingGraph(PRESETS.tiny);
    const first = (op: string) => g.nodes.find((n) => n.op === op)!;
    expect(first('GET_ROWS').ne).toEqual([64, 128, 1, 1]);
    expect(g.nodes.filter((n) => n.op === 'MUL_MAT').slice(0, 6).map((n) => n.ne)).toEqual([
      [64, 128, 1, 1], // q
      [32, 128, 1, 1], // k
      [32, 128, 1, 1], // v
      [128, 128, 8, 1], // kq: kv × tokens × heads
      [8, 128, 8, 1], // kqv
      [64, 128, 1, 1], // wo
    ]);
    const kqPermute = g.nodes.filter((n) => n.op === 'PERMUTE')[1];
    expect(kqPermute.ne).toEqual([8, 128, 4, 1]);
    expect(kqPermute.nb).toEqual([4, 128, 32, 16384]); // a view: strides of the [8,4,128] rope output
    expect(first('SOFT_MAX').params).toEqual([1 / Math.sqrt(8), 0]);
    expect(first('SOFT_MAX').srcs[1].ne).toEqual([128, 128, 1, 1]); // causal mask
    expect(first('CROSS_ENTROPY_LOSS').srcs[0].ne).toEqual([512, 128, 1, 1]);
    expect(first('OUT_PROD').ne).toEqual([64, 512, 1, 1]); // d output.weight
    expect(g.nodes.filter((n) => n.op === 'REPEAT_BACK')[2].ne).toEqual([128, 8, 4, 1]); // after output norm's and ffn norm's: d v (cont), summed over groups
  });

  it('no grouped-query heads (7b): no group sums; tied output: one parameter less, two grads into token_embd', () => {
    const per = (c: Parameters<typeof buildTrainingGraph>[0]) => countByOp(buildTrainingGraph(c).nodes);
    const mha = per(makeConfig('mha', { ...PRESETS.tiny, nHeadKv: 8 }));
    expect(mha.VIEW).toBe(5); // only the q view
    expect(mha.REPEAT_BACK).toBe(2 * 5 + 1);
    const tied = per(makeConfig('tied', { ...PRESETS.tiny, tiedOutput: true }));
    expect(tied.NONE).toBe(47);
    expect(tied.OPT_STEP_ADAMW).toBe(47);
    expect(tied.ADD).toBe(83); // token_embd's accumulator takes 2 in-place ADDs, output's 1 is gone
    const b2 = buildTrainingGraph(makeConfig('b2', { ...PRESETS.tiny, nBatch: 2, nCtx: 16 }));
    expect(b2.nodes.find((n) => n.op === 'SOFT_MAX')!.ne).toEqual([32, 32, 8, 1]);
  });
});
