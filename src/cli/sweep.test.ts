// The sweep through the Node runtime on SwiftShader: every candidate checked on the reference's
// buffers, timed through the same round driver as the lane, refused or proposed.
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

describe('sweep (SwiftShader, node runtime)', () => {
  it("compares every candidate with what auto runs today, and leaves the contract's rejections out", () => {
    const space = JSON.stringify({ workgroupSize: [64, 256], elementsPerThread: [1], vectorWidth: [1, 4] });
    const r = runCli(['sweep', '--op', 'ADD', '--reps', '2', '--shapes', '256x4,64x64:src1-transposed,254x3', '--space', space, '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.shapes).toEqual(['256x4', '254x3']);
    expect(j.excludedShapes).toEqual([{ shape: '64x64 src1-transposed', reason: expect.stringMatching(/^src1-rows-not-contiguous: /) }]);
    // The registry's ADD rules: vec4 where ne0 is a multiple of 4, scalar otherwise.
    expect(j.reference.map((x: { variant: string }) => x.variant)).toEqual([
      'elementwise{"elementsPerThread":4,"vectorWidth":4,"workgroupSize":256}',
      'elementwise{"elementsPerThread":4,"vectorWidth":1,"workgroupSize":256}',
    ]);
    expect(j.candidates).toHaveLength(4);
    for (const c of j.candidates) {
      expect(['accepted', 'noise', 'slower', 'no-rule']).toContain(c.status);
      // vec4 cannot take 254x3: that shape is unfit, the other timed in both reps.
      const timed = c.shapes.filter((s: { outcome: string }) => s.outcome !== 'unfit');
      expect(timed.length).toBe(c.schedule.vectorWidth === 4 ? 1 : 2);
    }
    expect(r.stderr).toMatch(/\[100%\] done/);
  });
});
