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
    console.log(noLayout.length);
  });
  it('micro: the CPU step', () => {
    const plan = planGraph(buildTrainingGraph(PRESETS.micro));
    const data = initialData(plan, 1);
    const hyper = adamwHyper();
    const losses = [] as number[];
    for (let s = 1; s <= 5; s++) losses.push(cpuStep(plan, data, hyper, s).loss);
    console.log(losses);
    for (let i = 1; i < losses.length; i++) expect(losses[i]).toBeLessThan(losses[i - 1]);
  });
});
