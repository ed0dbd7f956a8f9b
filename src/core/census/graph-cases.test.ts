import { describe, expect, it } from 'vitest';
import { buildTrainingGraph } from './graph';
import { planBytes, planGraph } from './graph-cases';
import { adamwHyper, cpuStep, initialData } from './graph-step';
import { PRESETS } from './model-config';

describe('graph plan', () => {
  it('places every tensor once: views and in-place results in their source buffer', () => {
    const g = buildTrainingGraph(PRESETS.tiny);
    const plan = planGraph(g);
    expect(plan.nodes.length).toBe(436);
    expect(planBytes(g)).toEqual({ totalBytes: plan.totalBytes, largestBytes: plan.largestBytes });
    const noLayout = plan.nodes.filter((n) => !n.declaredLayout);
    // per layer: the K·Q MUL_MAT and 3 OUT_PRODs of its backward (4 × 5); the attention backward's
    // 2 CONTs are CONT's src-permuted-120 and src-permuted-201 layouts, its 2 REPEAT_BACKs
    // src0-permuted-23, its ACC whole-src1-permuted
    expect(noLayout.length).toBe(20);
    expect(new Set(noLayout.map((n) => n.op.name))).toEqual(new Set(['MUL_MAT', 'OUT_PROD']));
    expect(plan.nodes.filter((n) => n.op.name === 'CONT' && n.declaredLayout?.startsWith('src-permuted-')).length).toBe(10);
    for (const n of noLayout) expect(n.layoutMismatch).toMatch(/: /);
  });
  it('micro: the CPU step', () => {
    const plan = planGraph(buildTrainingGraph(PRESETS.micro));
    const data = initialData(plan, 1);
    const hyper = adamwHyper();
    const losses = [] as number[];
    for (let s = 1; s <= 5; s++) losses.push(cpuStep(plan, data, hyper, s).loss);
    for (let i = 1; i < losses.length; i++) expect(losses[i]).toBeLessThan(losses[i - 1]);
  });
});

describe('census shapes for the lane', () => {
  it('tiny: distinct shapes ranked by bytes, each a declared layout; nodes no layout has are listed with why', async () => {
    const { censusShapes, shapeSpec } = await import('./census-shapes');
    const { shapes, unfit } = censusShapes(buildTrainingGraph(PRESETS.tiny));
    for (let i = 1; i < shapes.length; i++) expect(shapes[i - 1].bytes).toBeGreaterThanOrEqual(shapes[i].bytes);
    // every node is in one list or the other
    expect([...shapes, ...unfit].reduce((a, s) => a + s.nodes, 0)).toBe(436);
    // the output projection's MUL_MAT: logits [512, 128] = output [64, 512] · norm [64, 128], packed
    expect(shapes.find((s) => s.op === 'MUL_MAT' && s.dims.join('x') === '512x128x64x1')).toMatchObject({ layout: 'contiguous', nodes: 1 });
    // the attention scores: K heads shared by 2 Q heads, K and Q permuted views — no declared MUL_MAT layout is that
    const kq = unfit.find((s) => s.op === 'MUL_MAT');
    expect(kq).toMatchObject({ dims: [128, 128, 8, 8], nodes: 5 });
    expect(kq!.why).toMatch(/batched-broadcast: src0 strides .* are not the layout's/);
    // the in-place gradient accumulation is ADD's inplace layout
    expect(shapes.some((s) => s.op === 'ADD' && s.layout === 'inplace')).toBe(true);
    expect(shapeSpec({ op: 'RMS_NORM', dims: [64, 128], layout: 'contiguous', params: { eps: 1e-5 } })).toBe('RMS_NORM:64x128:contiguous:eps=0.00001');
  });
});
