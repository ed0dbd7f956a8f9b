// `lane --census` and `census --run` as a user runs them (the built bundle, SwiftShader through
// the Node runtime): the census's shapes through the lane with the retire checklist, and the
// graph run's refusals before any allocation. The micro preset: the tiny one's shapes are too slow
// on SwiftShader for a test (a 128x128x8 SOFT_MAX run takes seconds there).
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

describe('lane --census (micro preset, SwiftShader)', () => {
  it('times the first shapes by bytes in their declared layouts and gives the retire checklist per pair', () => {
    const r = runCli(['lane', '--census', '--preset', 'micro', '--top', '2', '--repeat', '3', '--json', '-'], 900_000);
    expect([0, 1], r.stderr).toContain(r.status);
    const json = JSON.parse(r.stdout);
    expect(json.kind).toBe('lane-census');
    expect(json.shapes).toHaveLength(2);
    expect(json.shapes[0].bytes).toBeGreaterThanOrEqual(json.shapes[1].bytes);
    // a lane shape's label starts with its dims
    const timed = json.lane.pairs.flatMap((p: { op: string; shapes: { shape: string; layout: string }[] }) => p.shapes.map((s) => `${p.op} ${s.shape.split(' ')[0]} ${s.layout}`));
    for (const s of json.shapes) expect(timed).toContain(`${s.op} ${s.dims.join('x')} ${s.layout}`);
    // the attention's K·Q (KV heads shared by 2 Q heads, both permuted views), its backward and the
    // REPEAT_BACK, CONT and ACC views around it are declared layouts: nothing is left untimable
    expect(json.unfit).toEqual([]);
    expect(r.stderr).toMatch(/lane --census: micro: \d+ distinct shapes in declared layouts \(108 nodes; the first 2 by bytes timed\), 0 with no declared layout \(0 nodes\)/);
    expect(r.stderr).not.toContain('shapes the real graph sends that no declared layout fits');
    for (const x of json.retire) {
      expect(x.items.map((i: { id: string }) => i.id)).toEqual(['supports-on-contract', 'graph-no-fallback', 'cpu-oracle-stays']);
      // without --run-graph the graph item is not measured, so nothing is proposed
      expect(x.items[1].pass).toBeNull();
      expect(x.proposal.propose).toBe(false);
    }
  }, 900_000);
});

describe('census --run refusals (before the device allocates anything)', () => {
  it('a preset too large for the memory budget is refused, naming the bytes it needs', () => {
    const r = runCli(['census', '--run', '--preset', '1b']);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/census --run 1b: the step needs \d+ B \(\d+\.\d\d GiB\) of buffers, over the memory budget of 4294967296 B \(4\.00 GiB; --memory-gib raises it\); refused before allocating/);
  }, 300_000);
  it("lane --census --op names an op the lab has (refused before the device opens)", () => {
    const r = runCli(['lane', '--census', '--preset', 'micro', '--op', 'NOPE']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown op 'NOPE' (ops: ADD, RMS_NORM");
  }, 300_000);
  it('run options without --run, and bad step counts, are usage errors', () => {
    expect(runCli(['census', '--steps', '3']).stderr).toContain('--steps shape a graph run: add --run');
    const r = runCli(['census', '--run', '--preset', 'micro', '--steps', '0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--steps must be a whole number from 1 to 1000, got '0'");
  }, 300_000);
});
