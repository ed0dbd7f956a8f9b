import { describe, expect, it } from 'vitest';
import { buildCrossAdapterReport, adapterClassOf, MAX_REPORT_INPUTS } from './cross-adapter';
import { validateResult } from './validate';
import { cellColour, crossReportHtml, crossReportMarkdown, crossReportText, registryEdits } from './cross-adapter-render';
import { decodeCrossReportLink, encodeCrossReportLink, validateCrossReport } from './cross-adapter-share';
import { CODE_HASH, type LaneJson } from './json';
import { sampleAdapter, sampleLane, sampleLevel1 } from '../../../test/fixtures/sample-results';
import { encodeShare } from './share';

// Adapters other than SwiftShader are hand-made fixtures (marked so in their description).
const H200 = sampleAdapter({ vendor: 'nvidia', architecture: 'hopper', device: 'nvidia-h200', description: 'FIXTURE: NVIDIA H200 (hand-made)', isFallbackAdapter: false, runtime: 'node' });
const M3 = sampleAdapter({ vendor: 'apple', architecture: 'metal-3', device: '', description: 'FIXTURE: Apple M3 (hand-made)', isFallbackAdapter: false, runtime: 'browser' });
const SWIFT = sampleAdapter();

function lane(adapter = SWIFT, startedAt = '2026-12-02T05:00:00.000Z', seed = 1): LaneJson {
  return sampleLane({ adapter, startedAt, seed, ops: ['ADD', 'RMS_NORM'] });
}

/** The same lane with one shape's verdict and speedups set (what a real slower/wrong shape records). */
function withShape(r: LaneJson, op: string, i: number, over: Partial<LaneJson['pairs'][number]['shapes'][number]>): LaneJson {
  return { ...r, pairs: r.pairs.map((p) => (p.op !== op ? p : { ...p, shapes: p.shapes.map((s, j) => (j === i ? { ...s, ...over } : s)) })) };
}

describe('cross-adapter report', () => {
  it('makes one column per adapter and one row per (op, case); each cell is its own run', () => {
    const r = buildCrossAdapterReport([
      { source: 'swift.json', result: lane(SWIFT) },
      { source: 'h200.json', result: lane(H200, '2026-12-02T05:01:00.000Z', 2) },
      { source: 'm3.json', result: lane(M3, '2026-12-02T05:02:00.000Z', 3) },
    ]);
    expect(r.columns.map((c) => c.adapterClass)).toEqual(['apple/metal-3', 'google/swiftshader', 'nvidia/hopper']);
    const add = lane(SWIFT).pairs.find((p) => p.op === 'ADD')!;
    const norm = lane(SWIFT).pairs.find((p) => p.op === 'RMS_NORM')!;
    expect(r.rows.length).toBe(add.shapes.length + norm.shapes.length);
    const first = r.rows.find((row) => row.op === 'ADD' && row.caseLabel === add.shapes[0].shape)!;
    expect(Object.keys(first.cells)).toHaveLength(3);
    // Side by side: the H200 cell holds the H200 run's own speedup, never a cross-adapter ratio.
    const h200Id = r.columns.find((c) => c.adapterClass === 'nvidia/hopper')!.id;
    const h200Add = lane(H200, '2026-12-02T05:01:00.000Z', 2).pairs.find((p) => p.op === 'ADD')!.shapes[0];
    expect(first.cells[h200Id].entries[0].speedupMedian).toBe(h200Add.speedupMedian);
    expect(first.cells[h200Id].entries[0].nativeMedianNs).toBe(h200Add.nativeMedianNs);
    expect(r.refused).toEqual([]);
  });

  it('ignores a duplicate run and notes it', () => {
    const a = lane();
    const r = buildCrossAdapterReport([
      { source: 'a.json', result: a },
      { source: 'copy-of-a.json', result: a },
    ]);
    expect(r.columns).toHaveLength(1);
    expect(r.rows[0].cells[r.columns[0].id].entries).toHaveLength(1);
    expect(r.notes).toEqual([{ source: 'copy-of-a.json', note: expect.stringContaining('the same run as a.json') }]);
  });

  it('reports (never averages) two runs of one adapter whose native columns disagree', () => {
    const a = lane(SWIFT, '2026-12-02T05:00:00.000Z');
    const s0 = a.pairs[0].shapes[0];
    const b = withShape(lane(SWIFT, '2026-12-02T06:00:00.000Z'), a.pairs[0].op, 0, { nativeMedianNs: s0.nativeMedianNs! * 1.5 });
    const r = buildCrossAdapterReport([
      { source: 'morning.json', result: a },
      { source: 'noon.json', result: b },
    ]);
    const row = r.rows.find((x) => x.op === a.pairs[0].op && x.caseLabel === s0.shape)!;
    const cell = row.cells[r.columns[0].id];
    expect(cell.entries.map((e) => e.nativeMedianNs)).toEqual([s0.nativeMedianNs, s0.nativeMedianNs! * 1.5]);
    expect(cell.disagreement).toMatch(/native columns disagree: morning.json .* vs noon.json .* \(\+50\.0% > tolerance 5\.0%\); both shown, not averaged/);
    expect(r.notes.some((n) => n.note.includes('native columns disagree'))).toBe(true);
  });

  it('refuses stale runs unless allowed, and then marks them', () => {
    const old = { ...lane(H200), codeHash: 'old0hash' };
    const refused = buildCrossAdapterReport([{ source: 'old.json', result: old }], { codeHash: CODE_HASH });
    expect(refused.columns).toEqual([]);
    expect(refused.refused[0]).toEqual({ source: 'old.json', note: expect.stringMatching(/^stale: made by code old0hash .* pass --allow-stale/) });
    const kept = buildCrossAdapterReport([{ source: 'old.json', result: old }, { source: 'new.json', result: lane(H200, '2026-12-02T07:00:00.000Z') }], { allowStale: true });
    expect(kept.columns[0].stale).toBe(true);
    expect(kept.columns[0].codeHashes).toEqual([CODE_HASH, 'old0hash'].sort());
    expect(crossReportText(kept)).toContain('[stale, mixed code]');
    const versions = buildCrossAdapterReport([{ source: 'a.json', result: { ...lane(H200), labVersion: '0.0.9' } }, { source: 'b.json', result: lane(H200, '2026-12-02T07:00:00.000Z') }]);
    expect(crossReportText(versions)).toMatch(/\[lab 0\.0\.9 \+ [^\]]+\]/);
  });

  it('takes Level 1 results and calibrations beside lanes', () => {
    const l1 = { ...sampleLevel1({ adapter: H200, variant: 'native' }) };
    const cal = { kind: 'calibration' as const, schemaVersion: 1, labVersion: l1.labVersion, codeHash: l1.codeHash, adapter: H200, adapterFingerprint: 'x', copyGBps: 4180, f32Gflops: 61500, f16Gflops: null, emptyDispatchNs: 6370, measuredAt: '2026-12-02T05:00:00.000Z', details: [] };
    const r = buildCrossAdapterReport([
      { source: 'l1.json', result: l1 },
      { source: 'cal.json', result: cal },
    ]);
    expect(r.columns).toHaveLength(1);
    expect(r.columns[0].peaks).toEqual({ copyGBps: 4180, f32Gflops: 61500, emptyDispatchNs: 6370 });
    const cell = r.rows[0].cells[r.columns[0].id];
    expect(cell.entries[0]).toMatchObject({ kind: 'level1', variant: 'native', nativeMedianNs: l1.timing!.medianNs, generatedMedianNs: null });
    expect(crossReportText(r)).toContain('copy 4.18 TB/s, f32 61.5 TFLOP/s');
  });

  it('states the promotion each class supports, in the registry vocabulary', () => {
    const allFaster = (r: LaneJson): LaneJson => ({ ...r, pairs: r.pairs.map((p) => ({ ...p, shapes: p.shapes.map((s) => ({ ...s, verdict: 'faster' as const })), checklist: p.checklist.map((c) => ({ ...c, pass: true })) })) });
    const add = lane(H200).pairs.find((p) => p.op === 'ADD')!;
    const slowerSwift = withShape(allFaster(lane(SWIFT)), 'ADD', 0, { verdict: 'slower' });
    const wrongM3 = withShape(allFaster(lane(M3)), 'ADD', 1, { verdict: 'wrong' });
    const r = buildCrossAdapterReport([
      { source: 'h200.json', result: allFaster(lane(H200)) },
      { source: 'swift.json', result: slowerSwift },
      { source: 'm3.json', result: wrongM3 },
    ]);
    const ev = (cls: string) => r.evidence.find((e) => e.op === 'ADD' && e.adapterClass === cls)!;
    expect(ev('nvidia/hopper').state).toBe('prefer');
    expect(ev('nvidia/hopper').evidence).toMatch(new RegExp(`^lane evidence \\(h200.json\\): ${add.shapes.length} shapes — ${add.shapes.length} faster`));
    expect(ev('google/swiftshader')).toMatchObject({ state: 'observe', evidence: expect.stringContaining('1 shape(s) slower, too slow or undecided') });
    expect(ev('apple/metal-3')).toMatchObject({ state: 'native-only', evidence: expect.stringContaining('wrong on 1 shape(s)') });
    const edits = registryEdits(r.evidence);
    expect(edits).toContain("// ADD: states");
    expect(edits).toMatch(/'nvidia\/hopper': \{ state: 'prefer', evidence: ".*" \}, \/\/ unchanged; registry now: prefer/);
    expect(edits).toMatch(/'apple\/metal-3': \{ state: 'native-only', .*\/\/ edit; registry now: prefer \(via 'default'\)/);
  });

  it('renders markdown and HTML with hostile text escaped', () => {
    const evil = sampleAdapter({ vendor: '<img src=x onerror=alert(1)>', architecture: '|x|', description: 'FIXTURE' });
    const r = buildCrossAdapterReport([{ source: 'evil.json', result: lane(evil) }]);
    const md = crossReportMarkdown(r);
    expect(md).not.toContain('<img');
    expect(md).toContain('&lt;img');
    const html = crossReportHtml(r);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(cellColour(r.rows[0].cells[r.columns[0].id])).toMatch(/^#/);
  });

  it('takes lab formats runs: a case per (shape, format), each format its own row', () => {
    const row = (format: string, medianNs: number | null, correct: boolean | null) => ({ format, bitsPerWeight: 4.5, variant: 'generated', scheduleKey: 'k', correct, medianNs, p20Ns: medianNs, p80Ns: medianNs, weightBytes: 9437184, weightGBps: 300, gflops: 1000, pctPeakBw: 6, pctPeakFlops: 2, bottleneck: 'latency-bound', nmse: 0.0121, maxRelError: 1, reason: correct === null ? 'no shader-f16' : null });
    const run = { kind: 'formats', op: 'gemv', ggmlOp: 'MUL_MAT', shape: '4096x1x4096', adapter: 'nvidia hopper', distribution: 'Gaussian', rows: [row('q4_0', 31400, true), row('f16', null, null)], adapterDescriptor: H200, schemaVersion: 1, labVersion: '0.1.0', codeHash: CODE_HASH, startedAt: '2026-12-02T06:10:00.000Z' };
    const r = buildCrossAdapterReport([{ source: 'formats.json', result: validateResult(run) }]);
    expect(r.rows.map((x) => `${x.op} ${x.caseLabel}`)).toEqual(['MUL_MAT 4096x1x4096 gemv f16', 'MUL_MAT 4096x1x4096 gemv q4_0']);
    const q4 = r.rows[1].cells[r.columns[0].id].entries[0];
    expect(q4).toMatchObject({ kind: 'formats', verdict: 'correct', generatedMedianNs: 31400, generatedPctBw: 6 });
    expect(crossReportText(r)).toContain('formats generated · 4.5 bits/w · NMSE 1.21e-2 31.4 µs (6% BW)');
    expect(r.rows[0].cells[r.columns[0].id].entries[0].verdict).toBe('not run: no shader-f16');
    // A formats run from before the stamps (no adapter descriptor, no code hash) is refused by name.
    expect(() => validateResult(JSON.parse(JSON.stringify({ ...run, codeHash: undefined })))).toThrow(/codeHash: missing .*rerun lab formats --json/);
    expect(() => validateResult({ ...run, adapterDescriptor: 'x' })).toThrow(/adapterDescriptor/);
  });

  it('caps the inputs', () => {
    const many = Array.from({ length: MAX_REPORT_INPUTS + 1 }, (_, i) => ({ source: `${i}.json`, result: sampleLevel1() }));
    expect(() => buildCrossAdapterReport(many)).toThrow(`a report takes at most ${MAX_REPORT_INPUTS} results, got ${MAX_REPORT_INPUTS + 1}`);
  });

  it('classes adapters as the registry does', () => {
    expect(adapterClassOf(H200)).toBe('nvidia/hopper');
    expect(adapterClassOf({ vendor: 'Apple', architecture: '' })).toBe('apple/*');
  });
});

describe('report links', () => {
  it('round-trip, and a tampered link is refused by name', async () => {
    const r = buildCrossAdapterReport([{ source: 'a.json', result: lane() }, { source: 'b.json', result: lane(H200) }]);
    const link = await encodeCrossReportLink(r);
    expect(link.startsWith('#report=2')).toBe(true);
    expect(await decodeCrossReportLink(link)).toEqual(JSON.parse(JSON.stringify(r)));
    const i = link.length - 10;
    const tampered = link.slice(0, i) + (link[i] === 'A' ? 'B' : 'A') + link.slice(i + 1);
    await expect(decodeCrossReportLink(tampered)).rejects.toThrow(/damaged/);
  });

  it('a result link is not a report, and a report with a foreign cell key is refused', async () => {
    const resultLink = await encodeShare(sampleLevel1());
    await expect(decodeCrossReportLink(resultLink)).rejects.toThrow(/kind must be 'report'/);
    const r = JSON.parse(JSON.stringify(buildCrossAdapterReport([{ source: 'a.json', result: lane() }])));
    r.rows[0].cells.__proto__bad = r.rows[0].cells[r.columns[0].id];
    expect(() => validateCrossReport(r)).toThrow(/keyed by the report's column ids \(found '__proto__bad'\)/);
    expect(() => validateCrossReport({ ...r, schemaVersion: 99 })).toThrow(/newer than this lab reads/);
    // The report's schema names the path and the rule.
    const good = JSON.parse(JSON.stringify(buildCrossAdapterReport([{ source: 'a.json', result: lane() }])));
    expect(validateCrossReport(good)).toBe(good);
    expect(() => validateCrossReport({ ...good, columns: [{ ...good.columns[0], id: 5 }] })).toThrow('report: columns[0].id: expected a string, got number 5');
    expect(() => validateCrossReport({ ...good, notes: [{ source: 'x', note: 'y'.repeat(4001) }] })).toThrow('report: notes[0].note: 4001 characters, over the 4000-character cap');
    expect(() => validateCrossReport({ ...good, evidence: [{ op: 'ADD', adapterClass: 'a/b', state: 'promoted', evidence: '' }] })).toThrow("report: evidence[0].state: expected one of native-only, observe, prefer, retired, got 'promoted'");
    const id = good.columns[0].id;
    const cell = good.rows[0].cells[id];
    const rows = [{ ...good.rows[0], cells: { [id]: { ...cell, entries: [{ ...cell.entries[0], nativeMedianNs: '12' }] } } }];
    expect(() => validateCrossReport({ ...good, rows })).toThrow(`report: rows[0].cells.${id}.entries[0].nativeMedianNs: expected a finite number, got '12'`);
  });
});
