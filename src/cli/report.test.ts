// `lab report` as a user runs it: real runs on this machine's SwiftShader (lane and Level 1),
// beside hand-made fixtures of two other adapters (their descriptions say FIXTURE), and the bad
// inputs the issue names: mixed kinds, duplicates, unknown schema versions, tampered links, a
// disagreeing native column, a FIFO, and many files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LaneJson } from '../core/report/json';
import { runCli } from './run-cli';

const dir = mkdtempSync(join(tmpdir(), 'lab-report-'));
const path = (name: string) => join(dir, name);
let swiftLane: LaneJson;

function fixture(lane: LaneJson, vendor: string, architecture: string, device: string, runtime: 'node' | 'browser', factor: number): LaneJson {
  // A hand-made adapter: the real run's shapes with its times scaled (marked FIXTURE), so only the adapter differs.
  return {
    ...lane,
    startedAt: new Date(Date.parse(lane.startedAt) + 60_000 * factor).toISOString(),
    adapter: { ...lane.adapter, vendor, architecture, device, description: `FIXTURE: ${device} (hand-made)`, isFallbackAdapter: false, runtime },
    pairs: lane.pairs.map((p) => ({ ...p, shapes: p.shapes.map((s) => ({ ...s, nativeMedianNs: s.nativeMedianNs && s.nativeMedianNs / factor, generatedMedianNs: s.generatedMedianNs && s.generatedMedianNs / factor })) })),
  };
}

beforeAll(() => {
  const lane = runCli(['lane', '--op', 'ADD', '--filter', '^ADD (4096x128|2048x128 inplace)$', '--repeat', '3', '--json', path('swift-lane.json')]);
  expect(lane.status, lane.stderr).toBe(0);
  const l1 = runCli(['time', '--op', 'RMS_NORM', '--shape', '256x16', '--json', path('swift-l1.json')]);
  expect(l1.status, l1.stderr).toBe(0);
  swiftLane = JSON.parse(readFileSync(path('swift-lane.json'), 'utf8'));
  writeFileSync(path('h200-fixture.json'), JSON.stringify(fixture(swiftLane, 'nvidia', 'hopper', 'nvidia-h200', 'node', 40)));
  writeFileSync(path('m3-fixture.json'), JSON.stringify(fixture(swiftLane, 'apple', 'metal-3', 'apple-m3', 'browser', 10)));
}, 600_000);

describe('lab report', () => {
  it('merges a real SwiftShader lane and Level 1 run with two other adapters into one table', () => {
    const r = runCli(['report', path('swift-lane.json'), path('swift-l1.json'), path('h200-fixture.json'), path('m3-fixture.json'), '--json', path('report.json'), '--markdown', path('report.md'), '--html', path('report.html'), '--registry']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(path('report.json'), 'utf8'));
    expect(report.columns.map((c: { adapterClass: string }) => c.adapterClass)).toEqual(['apple/metal-3', 'google/swiftshader', 'nvidia/hopper']);
    const shapes = swiftLane.pairs[0].shapes;
    expect(report.rows).toHaveLength(shapes.length + 1);
    const swiftId = report.columns[1].id;
    const row = report.rows.find((x: { op: string; caseLabel: string }) => x.op === 'ADD' && x.caseLabel === shapes[0].shape);
    // Each adapter's own speedup, as its run measured it (the fixtures scale both sides alike).
    for (const c of report.columns) expect(row.cells[c.id].entries[0].speedupMedian).toBe(shapes[0].speedupMedian);
    expect(row.cells[swiftId].entries[0].nativeMedianNs).toBe(shapes[0].nativeMedianNs);
    const l1 = report.rows.find((x: { op: string }) => x.op === 'RMS_NORM');
    expect(Object.keys(l1.cells)).toEqual([swiftId]);
    expect(r.stdout).toContain('no ratio crosses adapters');
    expect(r.stdout).toMatch(/Registry edits the evidence supports[\s\S]*\/\/ ADD: states\n'apple\/metal-3': \{ state: '/);
    expect(r.stdout).toMatch(/share: \S+#report=2/);
    expect(readFileSync(path('report.md'), 'utf8')).toMatch(/^### kernel-lab report: \d+ cases × 3 adapters/);
    expect(readFileSync(path('report.html'), 'utf8')).toContain('<table>');
  }, 120_000);

  it('reads a folder, and takes a report link and a result link', () => {
    const link = /share link: (\S+)/.exec(runCli(['time', '--op', 'ADD', '--shape', '64x16']).stdout)?.[1];
    expect(link).toMatch(/#r=2/);
    const r = runCli(['report', dir.replace(/\/$/, ''), link!, '--allow-stale']);
    expect(r.stdout).toContain('cases over 3 adapters');
    expect(r.status).toBe(2); // report.json (a report, not a result) in the folder is refused by name
    expect(r.stdout).toMatch(/Refused inputs:\n {2}\S+report\.json: a kernel-lab report, not a result/);
  }, 120_000);

  it('names each bad input and still reports the rest', () => {
    writeFileSync(path('future.json'), JSON.stringify({ ...swiftLane, schemaVersion: 99 }));
    writeFileSync(path('not-json.json'), '{"kind": "lane", ');
    const noon = { ...swiftLane, startedAt: new Date(Date.parse(swiftLane.startedAt) + 3_600_000).toISOString(), pairs: swiftLane.pairs.map((p) => ({ ...p, shapes: p.shapes.map((s, i) => (i === 0 ? { ...s, nativeMedianNs: s.nativeMedianNs! * 2 } : s)) })) };
    writeFileSync(path('noon.json'), JSON.stringify(noon));
    execFileSync('mkfifo', [path('fifo.json')]);
    const tampered = 'http://127.0.0.1:4173/#r=2.AAAAxxxxyyyy';
    const r = runCli(['report', path('swift-lane.json'), path('swift-lane.json'), path('future.json'), path('not-json.json'), path('noon.json'), path('fifo.json'), tampered, path('missing.json')]);
    expect(r.status).toBe(2);
    expect(r.stdout).toContain(`${path('swift-lane.json')}: the same run as ${path('swift-lane.json')}`);
    expect(r.stdout).toContain('schemaVersion 99 is newer than this lab reads');
    expect(r.stdout).toMatch(/not-json\.json: .*JSON/);
    expect(r.stdout).toContain('fifo.json: not a regular file or folder');
    expect(r.stdout).toMatch(/http:\/\/127\.0\.0\.1:4173\/#r=2\.AAAAxxxxyyyy: the link is damaged/);
    expect(r.stdout).toContain('missing.json: no such file, folder or share link');
    expect(r.stdout).toMatch(/native columns disagree: .*swift-lane\.json .* vs .*noon\.json .*both shown, not averaged/);
  }, 120_000);

  it('reads a recorded lab formats run through the result schema; a tampered one is refused naming the field', () => {
    // Recorded by `lab formats --json` on SwiftShader before formats runs joined the result schema.
    const recorded = new URL('../../test/fixtures/formats-swiftshader.json', import.meta.url).pathname;
    const tampered = JSON.parse(readFileSync(recorded, 'utf8'));
    tampered.rows[2].medianNs = 'fast';
    writeFileSync(path('formats-tampered.json'), JSON.stringify(tampered));
    const r = runCli(['report', recorded, path('formats-tampered.json'), '--allow-stale', '--json', path('formats-report.json')]);
    expect(r.status, r.stderr).toBe(2);
    const report = JSON.parse(readFileSync(path('formats-report.json'), 'utf8'));
    expect(report.rows.map((x: { caseLabel: string }) => x.caseLabel)).toEqual(['32x2x64 gemv f16', '32x2x64 gemv mxfp4', '32x2x64 gemv q4_0', '32x2x64 gemv q4_k', '32x2x64 gemv q8_0']);
    const q80 = report.rows[4].cells[report.columns[0].id].entries;
    expect(q80.map((e: { generatedMedianNs: number }) => e.generatedMedianNs)).toEqual([3158200, 3502209]);
    expect(report.refused).toEqual([{ source: path('formats-tampered.json'), note: "formats result: rows[2].medianNs: expected a finite number, got 'fast'" }]);
  }, 120_000);

  it('reads 1,000 result files from a folder in bounded time', () => {
    const l1 = JSON.parse(readFileSync(path('swift-l1.json'), 'utf8'));
    mkdirSync(path('many'));
    for (let i = 0; i < 1000; i++) writeFileSync(path(`many/r${i}.json`), JSON.stringify({ ...l1, startedAt: new Date(Date.parse(l1.startedAt) + i * 1000).toISOString() }));
    const t0 = Date.now();
    const r = runCli(['report', path('many'), '--json', path('many.json')]);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(path('many.json'), 'utf8'));
    expect(report.rows[0].cells[report.columns[0].id].entries).toHaveLength(1000);
    expect(Date.now() - t0).toBeLessThan(60_000);
  }, 120_000);

  it('refuses when nothing is usable, and bounds the number of inputs', () => {
    const none = runCli(['report', path('missing.json')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('no usable result among 1 argument(s)');
    const many = Array.from({ length: 2001 }, () => path('swift-l1.json'));
    const r = runCli(['report', ...many]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('report takes at most 2000 results');
  }, 120_000);
});
