// PR markdown: every number in the table is the result's, formatted as the page formats it.
import { describe, expect, it } from 'vitest';
import { adapterFingerprint } from '../adapter';
import { compareLanes } from './compare';
import { fmtExp, fmtRatio, fmtUs } from './format';
import { calibrationJson, LAB_VERSION, CODE_HASH } from './json';
import { level1Markdown, laneMarkdown, mdEscape, resultMarkdown } from './markdown';
import { sampleAdapter, sampleLane, sampleLevel1 } from '../../../test/fixtures/sample-results';
import { validateResult } from './validate';

/** The cells of a markdown table row, unescaped pipes only. */
function cells(line: string): string[] {
  return line
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

describe('PR markdown', () => {
  it('Level 1: verdict, median with min–max, runs, resolution, adapter and lab version', () => {
    const r = sampleLevel1();
    const md = level1Markdown(r, 'http://127.0.0.1:4173/#r=1.abc');
    const row = md.split('\n').find((l) => l.startsWith('| ADD |'))!;
    expect(cells(row)).toEqual([
      'ADD',
      '256x16 inplace',
      'generated',
      '`elementwise{"elementsPerThread":4,"vectorWidth":4,"workgroupSize":256}`',
      `yes (max err ${fmtExp(r.maxErr)}, bound ${fmtExp(r.bound)})`,
      `${fmtUs(r.timing!.medianNs, 2)} [${fmtUs(r.timing!.minNs, 2)}–${fmtUs(r.timing!.maxNs, 2)}]`,
      '1200',
      '1 ns',
      'timestamp',
    ]);
    expect(md).toContain('12.35 [10.24–19.88]');
    expect(md).toContain(`Adapter: **google swiftshader swiftshader device (subzero) (software, browser)** — software adapter, CPU timings · kernel-lab ${LAB_VERSION} (code ${CODE_HASH})`);
    expect(md).toContain('### kernel-lab Level 1: ADD 256x16 inplace · generated ✅ correct');
    expect(md.trimEnd().endsWith('[Open this result in kernel-lab](http://127.0.0.1:4173/#r=1.abc)')).toBe(true);
  });

  it('a wrong Level 1 result says it was never timed', () => {
    const md = level1Markdown(sampleLevel1({ correct: false, timing: null }));
    expect(md).toContain('❌ wrong');
    expect(md).toContain('| NO (max err');
    expect(md).toContain('| not timed |');
    expect(md).toContain('A wrong kernel is never timed.');
    expect(md).not.toContain('Open this result');
  });

  it('lane: an undecided shape names its noise and the tolerance; a planted one its asked and measured factors; a refused one why', () => {
    const r = sampleLane({ ops: ['ADD'] });
    const [a, b, ...rest] = r.pairs[0].shapes;
    const plant = { askedFactor: 1.02, measuredFactor: 1.0213, iterations: 700, attempts: 3, refused: null, smallestFactor: null };
    const refused = { op: 'ADD', reason: '7x3: refused as a control: too short', plant: { shape: '7x3', ...plant, measuredFactor: null, iterations: null, refused: 'too short', smallestFactor: 1.04 } };
    const lane = { ...r, settings: { ...r.settings, repeatAuto: { targetWidth: 0.02, maxPasses: 30 } }, skipped: [refused], pairs: [{ ...r.pairs[0], shapes: [{ ...a, verdict: 'undecided' as const, effectFloor: 0.3 }, { ...b, plant }, ...rest] }] };
    const md = laneMarkdown(lane);
    expect(md).toContain(`| undecided (noise 30.0% > tolerance 5.0%) |`);
    expect(md).toContain(`Planted slowdowns (inside the kernel's dispatch, measured by Level 1 before the passes): ${mdEscape(b.shape)} asked 1.02× measured 1.021×`);
    expect(md).toContain('- ADD skipped: 7x3: refused as a control: too short');
    expect(md).toContain("repeat auto (median's 95% interval ≤ 2% of it, at most 30 passes)");
    // The JSON validation takes all three.
    expect(validateResult(lane)).toBeTruthy();
  });

  it('lane: one table per pair, every shape with its speedup median [min–max] and verdict', () => {
    const r = sampleLane();
    const md = laneMarkdown(r);
    const lines = md.split('\n');
    for (const p of r.pairs) {
      expect(md).toContain(`#### ${p.op} (${p.state}) → ${p.verdict}`);
      for (const s of p.shapes) {
        const row = lines.find((l) => l.startsWith(`| ${mdEscape(s.shape)} |`) && cells(l)[1] === fmtUs(s.nativeMedianNs));
        expect(row, `${p.op} ${s.shape}`).toBeDefined();
        expect(cells(row!)).toEqual([mdEscape(s.shape), fmtUs(s.nativeMedianNs), fmtUs(s.generatedMedianNs), `${fmtRatio(s.speedupMedian)} [${fmtRatio(s.speedupMin)}–${fmtRatio(s.speedupMax)}]`, s.verdict]);
      }
    }
    expect(md).toContain(`repeat 5 · tolerance 0.05 · kernel-lab ${LAB_VERSION}`);
    expect(resultMarkdown(r)).toBe(md);
  });

  it('renders shared strings as text: no tag, link or table cell can be injected', () => {
    const evil = sampleLevel1({ op: 'ADD](javascript:alert(1))|<img src=x onerror=alert(1)>', adapter: sampleAdapter({ vendor: '<script>alert(1)</script>' }) });
    const md = level1Markdown(evil);
    expect(md).not.toMatch(/<img|<script/);
    expect(md).toContain('ADD\\](javascript:alert(1))\\|&lt;img src=x onerror=alert(1)&gt;');
    const row = md.split('\n').find((l) => l.startsWith('| ADD'))!;
    expect(cells(row)).toHaveLength(9);
  });

  it('keeps every shared string on its line: newlines cannot forge a heading, a row or a list', () => {
    const evil = sampleLevel1({ op: 'ADD\n\n### ✅ approved by kernel-lab\n', label: 'x\r\n| forged | row |', fallback: { code: '# code', reason: 'a\u2028- item\n1. one' }, scheduleKey: 'k`\n# h' });
    const md = level1Markdown(evil);
    const lines = md.split('\n');
    expect(lines.filter((l) => /^#{1,6}\s/.test(l))).toEqual([lines[0]]);
    expect(lines[0]).toContain('ADD ### ✅ approved by kernel-lab');
    expect(lines.filter((l) => l.startsWith('|'))).toHaveLength(3);
    expect(md).not.toMatch(/^(- |1\. |# )/m);
    expect(md).toContain('auto fell back to native: \\# code — a - item 1. one');
    const lane = sampleLane();
    const hostile = { ...lane, skipped: [{ op: '# MUL_MAT', reason: 'off\n## Verdict: green' }] };
    const laneMd = resultMarkdown(hostile);
    expect(laneMd).toContain('- \\# MUL_MAT skipped: off ## Verdict: green');
    expect(laneMd.split('\n').filter((l) => l.startsWith('## '))).toEqual([]);
  });

  it('calibration: the measured peaks', () => {
    const a = sampleAdapter();
    const md = resultMarkdown(calibrationJson({ kind: 'calibration', adapterFingerprint: adapterFingerprint(a), copyGBps: 12.345, f32Gflops: 67.891, f16Gflops: null, emptyDispatchNs: 21_000, measuredAt: '2026-01-01T00:00:00.000Z', details: [] }, a));
    expect(md).toContain('| 12.3 GB/s | 67.9 GFLOP/s | — | 21.0 µs |');
  });
});

describe('comparing two lane runs', () => {
  it('compares only when the native column stayed within the tolerance', () => {
    const a = sampleLane({ seed: 1 });
    const scaleNative = (f: number) => ({ ...a, startedAt: '2026-03-02T00:00:00.000Z', pairs: a.pairs.map((p) => ({ ...p, shapes: p.shapes.map((s) => ({ ...s, nativeMedianNs: s.nativeMedianNs! * f })) })) });
    const steady = compareLanes(a, scaleNative(1.03));
    expect(steady.comparable).toBe(true);
    if (steady.comparable) expect(steady.rows.length).toBe(a.pairs.reduce((n, p) => n + p.shapes.length, 0));
    const moved = compareLanes(a, scaleNative(1.2));
    expect(moved.comparable).toBe(false);
    const n = a.pairs.reduce((k, p) => k + p.shapes.length, 0);
    if (!moved.comparable) expect(moved.reason).toContain(`the native column moved beyond the 5% tolerance on ${n} of ${n} shapes (ADD 4096x128 +20.0%`);
  });

  it('never compares across adapters', () => {
    const other = sampleLane({ adapter: sampleAdapter({ device: 'nvidia-h200', vendor: 'nvidia', isFallbackAdapter: false }) });
    const r = compareLanes(sampleLane(), other);
    expect(r).toMatchObject({ comparable: false, reason: expect.stringMatching(/different adapters/) });
  });
});
