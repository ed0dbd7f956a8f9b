import { describe, expect, it } from 'vitest';
import { buildTrainingGraph } from './graph';
import { nodeCase, planBytes, planGraph } from './graph-cases';
import type { GNode } from './graph';
import { adamwHyper, cpuStep, initialData } from './graph-step';
import { PRESETS } from './model-config';

describe('graph plan', () => {
  it('places every tensor once: views and in-place results in their source buffer', () => {
    const g = buildTrainingGraph(PRESETS.tiny);
    const plan = planGraph(g);
    expect(plan.nodes.length).toBe(436);
    expect(planBytes(g)).toEqual({ totalBytes: plan.totalBytes, largestBytes: plan.largestBytes });
    const noLayout = plan.nodes.filter((n) => !n.declaredLayout);
    // every node is a declared layout: the K·Q MUL_MAT is both-permuted, its backward's 3 OUT_PRODs
    // src1-permuted-transposed, src0-permuted, src0-permuted-src1-transposed; the attention backward's
    // 2 CONTs are CONT's src-permuted-120 and src-permuted-201 layouts, its 2 REPEAT_BACKs
    // src0-permuted-23, its ACC whole-src1-permuted
    expect(noLayout.length).toBe(0);
    expect(plan.nodes.filter((n) => n.op.name === 'CONT' && n.declaredLayout?.startsWith('src-permuted-')).length).toBe(10);
    expect(plan.nodes.filter((n) => n.op.name === 'REPEAT_BACK' && n.declaredLayout === 'src0-permuted-23').length).toBe(10);
    expect(plan.nodes.filter((n) => n.op.name === 'ACC' && n.declaredLayout === 'whole-src1-permuted').length).toBe(5);
  });
  it('a node whose strides no declared layout has runs on its own tensors, with why per layout', () => {
    // MUL_MAT src0 [8, 4, 2] whose batches sit 5 elements past its packed rows: a gap no layout has
    const leaf = (ne: [number, number, number, number], nb: [number, number, number, number]): GNode => ({ id: 0, op: 'NONE', desc: 'NONE', type: 'f32', ne, nb, srcs: [], params: [], name: 'x', isParam: false });
    const a = leaf([8, 4, 2, 1], [4, 32, 148, 296]);
    const b = leaf([8, 3, 2, 1], [4, 32, 96, 192]);
    const node: GNode = { id: 2, op: 'MUL_MAT', desc: 'MUL_MAT', type: 'f32', ne: [4, 3, 2, 1], nb: [4, 16, 48, 96], srcs: [a, b], params: [], name: 'y', isParam: false };
    const desc = (t: GNode) => ({ type: 'f32' as const, ne: t.ne, nb: t.nb, offsetBytes: 0, bufferSizeBytes: 1024, layout: 'graph' });
    const r = nodeCase(node, [desc(a), desc(b)], { offsetBytes: 0, bufferSizeBytes: 96 });
    expect(r.declaredLayout).toBeNull();
    expect(r.layoutMismatch).toMatch(/^contiguous: src0 strides 4,32,148,296 B \(order 0,1,2\+\) are not the layout's \(0,1,2\); /);
    expect(r.c.srcs[0].nb).toEqual([4, 32, 148, 296]);
    expect(r.c.layout).toBe('graph');
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
    // the attention scores: K heads shared by 2 Q heads (B0 = 4 of B = 8), K and Q permuted views
    expect(shapes.find((s) => s.op === 'MUL_MAT' && s.layout === 'both-permuted')).toMatchObject({ dims: [128, 128, 8, 8, 4], nodes: 5 });
    // and its backward's three OUT_PRODs
    for (const [dims, layout] of [[[128, 128, 8, 8, 4], 'src1-permuted-transposed'], [[8, 128, 128, 8], 'src0-permuted'], [[8, 128, 128, 8, 4], 'src0-permuted-src1-transposed']] as const) {
      expect(shapes.find((s) => s.op === 'OUT_PROD' && s.layout === layout)).toMatchObject({ dims, nodes: 5 });
    }
    // with CONT's, REPEAT_BACK's and ACC's permuted layouts, no node is left unfit
    expect(unfit).toEqual([]);
    // the in-place gradient accumulation is ADD's inplace layout
    expect(shapes.some((s) => s.op === 'ADD' && s.layout === 'inplace')).toBe(true);
    expect(shapeSpec({ op: 'RMS_NORM', dims: [64, 128], layout: 'contiguous', params: { eps: 1e-5 } })).toBe('RMS_NORM:64x128:contiguous:eps=0.00001');
  });
  it('1b: every MUL_MAT and OUT_PROD node is a declared layout; 4 Q heads share a K/V head (B0 = 8 of B = 32)', async () => {
    const { censusShapes, shapeSpec } = await import('./census-shapes');
    const { shapes, unfit } = censusShapes(buildTrainingGraph(PRESETS['1b']));
    expect(unfit.filter((s) => s.op === 'MUL_MAT' || s.op === 'OUT_PROD')).toEqual([]);
    const specs = shapes.filter((s) => s.dims.length === 5).map(shapeSpec).sort();
    expect(specs).toEqual([
      'MUL_MAT:512x512x64x32x8:both-permuted',
      'MUL_MAT:64x512x512x32x8:batched-broadcast',
      'OUT_PROD:512x512x64x32x8:src1-permuted-transposed',
      'OUT_PROD:64x512x512x32x8:src0-permuted-src1-transposed',
    ]);
  });
});
