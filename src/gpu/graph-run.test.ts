// The graph run on SwiftShader through Dawn (run with scripts/with-gpu-env.mjs): the micro preset's
// training step on the GPU against the CPU f64 evaluation of the same graph, a planted wrong
// backward kernel caught by the whole-step check, and the memory refusal before any allocation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeEngine } from '../cli/runtime-node';
import { lossFell } from '../core/census/graph-report';
import { PRESETS } from '../core/census/model-config';
import { MUL } from '../core/ops/mul';
import type { GpuContext } from './device';
import { refuseOverBudget, runGraph } from './graph-run';

let lab: Awaited<ReturnType<typeof openNodeEngine>>;
let ctx: GpuContext;

beforeAll(async () => {
  lab = await openNodeEngine();
  ctx = await lab.context();
}, 120_000);
afterAll(async () => lab?.close());

describe('graph run (micro preset, SwiftShader)', () => {
  it('learns, and step 1 matches the CPU f64 evaluation: the loss and every parameter, m and v', async () => {
    const r = await runGraph(ctx, { preset: 'micro', steps: 3, seed: 1, variant: 'auto', check: true });
    expect(r.check, JSON.stringify(r.check?.params.filter((p) => p.outOfBound))).toMatchObject({ lossOk: true, paramsOk: true, ok: true });
    expect(r.check!.params).toHaveLength(12); // 9 in the layer + token_embd, output_norm, output
    expect(r.losses).toHaveLength(3);
    expect(lossFell(r.losses)).toBe(true);
    expect(r.losses[1]).toBeLessThan(r.losses[0]);
    // every computing node dispatched once per step; no contract fallback on this graph
    expect(r.perOp.reduce((a, o) => a + o.nodes, 0)).toBe(r.computeNodes);
    for (const o of r.perOp) expect(o.generated + o.native).toBe(o.nodes);
    expect(r.perOp.find((o) => o.op === 'OPT_STEP_ADAMW')).toMatchObject({ nodes: 12 });
  }, 600_000);

  it('a planted wrong backward kernel (SILU_BACK computing dy·x) fails the whole-step check', async () => {
    const r = await runGraph(ctx, { preset: 'micro', steps: 1, seed: 1, variant: 'auto', check: true }, undefined, {
      kernelFor: (pn) => (pn.op.name === 'SILU_BACK' ? MUL.native({ ...pn.c, op: 'MUL', params: {} }) : null),
    });
    // the forward is untouched: the loss still matches; the parameters fed by the FFN's gate do not
    expect(r.check!.lossOk).toBe(true);
    expect(r.check!.paramsOk).toBe(false);
    const bad = r.check!.params.filter((p) => p.outOfBound > 0).map((p) => p.param);
    expect(bad).toContain('blk.0.ffn_gate.weight');
  }, 600_000);

  it('a step too large for the memory budget is refused before allocating, naming the bytes', () => {
    expect(() => refuseOverBudget(PRESETS['7b'], ctx.adapter, 4 * 2 ** 30)).toThrow(/census --run 7b: .*needs \d+ B/);
    expect(() => refuseOverBudget(PRESETS.micro, ctx.adapter, 1024)).toThrow(/census --run micro: the step needs \d+ B \(0\.00 GiB\) of buffers, over the memory budget of 1024 B/);
    expect(refuseOverBudget(PRESETS.micro, ctx.adapter, 2 ** 30).totalBytes).toBeGreaterThan(0);
  });
});
