// The CLI as the tools people know: exit codes exactly as the README says, output paths checked
// before any device work, early refusal of a case outside the limits, --filter, the many-ops
// table, -v, and `diff` against a baseline.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LaneJson } from '../core/report/json';
import { sampleAdapter, sampleLane } from '../../test/fixtures/sample-results';
import { runCli } from './run-cli';

const dir = mkdtempSync(join(tmpdir(), 'lab-tools-'));

describe('exit 2 before any device work', () => {
  it('checks --json and --markdown paths before the run', () => {
    const t0 = Date.now();
    const json = runCli(['time', '--op', 'ADD', '--shape', '8x8', '--json', join(dir, 'no-such-dir', 'r.json')]);
    expect([json.status, json.stderr]).toEqual([2, expect.stringMatching(/error: --json .*r\.json: the directory .*no-such-dir does not exist/)]);
    const md = runCli(['lane', '--op', 'ADD', '--markdown', dir]);
    expect([md.status, md.stderr]).toEqual([2, expect.stringMatching(/error: --markdown .* is a directory, not a file/)]);
    // No adapter was opened: both answered in far less than a run would take.
    expect(Date.now() - t0).toBeLessThan(20_000);
  });

  it('refuses a case outside the adapter limits before allocating (was: a u32 error, exit 1)', () => {
    const add = runCli(['time', '--op', 'ADD', '--shape', '65536x65536']);
    expect(add.status, add.stderr).toBe(2);
    // Refused before any GPU work: past the u32 indices (checked first) or the binding size.
    expect(add.stderr).toMatch(/error: ADD 65536x65536(: src0 spans \d+ elements, past the \d+ a kernel's u32 indices reach| is refused before any GPU work: exceeds-binding-size)/);
    const t0 = Date.now();
    const mm = runCli(['time', '--op', 'MUL_MAT', '--shape', '20000x20000x20000']);
    expect([mm.status, mm.stderr]).toEqual([2, expect.stringMatching(/MUL_MAT 20000x20000x20000(: src0 needs a \d+ B buffer .* over this adapter's maxStorageBufferBindingSize| is refused before any GPU work)/)]);
    // No inputs, no oracle: refused in the time it takes to open the adapter.
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it('names a bad --filter, and a filter that matches nothing', () => {
    const bad = runCli(['time', '--op', 'all', '--filter', '(']);
    expect([bad.status, bad.stderr]).toEqual([2, expect.stringMatching(/--filter '\(' is not a regular expression/)]);
    const none = runCli(['time', '--op', 'ADD', '--filter', 'no-such-layout']);
    expect([none.status, none.stderr]).toEqual([2, expect.stringMatching(/--filter 'no-such-layout' matches no case of ADD/)]);
  });
});

describe('time over many ops (one table, like test-backend-ops -m perf)', () => {
  it('runs every matching case of a comma list of ops, at -v saying each step', () => {
    const r = runCli(['time', '--op', 'ADD,RMS_NORM', '--filter', 'x16 ', '-v', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { kind: string; results: { op: string; label: string; correct: boolean; timing: unknown }[] };
    expect(json.kind).toBe('level1-table');
    expect(json.results.length).toBeGreaterThan(0);
    for (const x of json.results) {
      expect(['ADD', 'RMS_NORM']).toContain(x.op);
      expect(x.label).toMatch(/x16( |$)/);
      expect(x.correct).toBe(true);
      expect(x.timing).not.toBeNull();
    }
    // The table (on stderr with --json -) has one line per case under its header.
    expect(r.stderr).toMatch(/op\s+shape\s+kernel\s+correct\s+median\s+runs\s+bandwidth\s+compute/);
    expect(r.stderr.match(/^(ADD|RMS_NORM) /gm)?.length).toBe(json.results.length);
    // -v: the adapter first, then a line per case.
    expect(r.stderr).toMatch(/^adapter: /m);
    expect(r.stderr).toMatch(new RegExp(`\\[${json.results.length}/${json.results.length}\\] `));
  });
});

describe('lab diff', () => {
  const write = (name: string, lane: LaneJson) => {
    const p = join(dir, name);
    writeFileSync(p, JSON.stringify(lane));
    return p;
  };
  /** The lane with every generated median scaled (native unchanged: the column agrees). */
  const scaledGenerated = (lane: LaneJson, factor: number): LaneJson => {
    type Shape = { generatedMedianNs: number | null; speedupMedian: number | null; speedupMin: number | null; speedupMax: number | null; speedups: number[]; nativeMedianNs: number | null };
    const copy = structuredClone(lane) as LaneJson & { pairs: { shapes: Shape[] }[] };
    for (const p of copy.pairs)
      for (const s of p.shapes) {
        s.generatedMedianNs = s.generatedMedianNs! * factor;
        s.speedupMedian = s.nativeMedianNs! / s.generatedMedianNs;
        // The whole speedup scales: a result with a median outside its min–max is refused on import.
        s.speedups = s.speedups.map((x) => x / factor);
        s.speedupMin = s.speedupMin! / factor;
        s.speedupMax = s.speedupMax! / factor;
      }
    return copy;
  };
  const base = sampleLane();

  it('exits 0 without a regression, 1 with one, 2 when the runs cannot be compared', () => {
    const a = write('a.json', base);
    const same = runCli(['diff', a, write('b0.json', scaledGenerated(base, 1.02))]);
    expect([same.status, same.stdout]).toEqual([0, expect.stringMatching(/no regression beyond 5%/)]);
    // Generated 10% slower: every speedup falls by 1 − 1/1.1 = 9.1%.
    const slower = runCli(['diff', a, write('b1.json', scaledGenerated(base, 1.1))]);
    expect(slower.status).toBe(1);
    expect(slower.stdout).toMatch(/-9\.1%\s+REGRESSION/);
    expect(slower.stdout).toMatch(/shapes regressed by more than 5%/);
    // With a 10% threshold the same fall passes.
    expect(runCli(['diff', a, join(dir, 'b1.json'), '--threshold', '10']).status).toBe(0);
    const other = runCli(['diff', a, write('c.json', sampleLane({ adapter: sampleAdapter({ vendor: 'amd', architecture: 'rdna-3', device: 'gfx1100' }) }))]);
    expect([other.status, other.stdout]).toEqual([2, expect.stringMatching(/not compared: the runs are on different adapters/)]);
  });

  it('refuses what it cannot read or compare, exit 2', () => {
    const a = write('a2.json', base);
    expect(runCli(['diff', a]).stderr).toMatch(/diff takes two result files/);
    const notJson = join(dir, 'x.txt');
    writeFileSync(notJson, 'hello');
    const r = runCli(['diff', a, notJson]);
    expect([r.status, r.stderr]).toEqual([2, expect.stringMatching(/x\.txt is not JSON/)]);
    expect(runCli(['diff', a, a, '--threshold=-3']).stderr).toMatch(/--threshold must be a percentage/);
  });
});
