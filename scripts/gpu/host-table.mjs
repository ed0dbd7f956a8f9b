// Host seconds per replay of a `lane --replay N --json FILE` run (issue 22: ≤ 5 s on the four large
// shapes): per replay its wall time, the host time building inputs and oracles (reused after the
// first replay: ≈ 0) and checking outputs. Usage: node scripts/gpu/host-table.mjs REPLAY.json
import { readFileSync } from 'node:fs';

const run = JSON.parse(readFileSync(process.argv[2], 'utf8'));
if (run.kind !== 'lane-replay') throw new Error(`${process.argv[2]} is a ${run.kind} result, not lane --replay`);
const s = (ms) => (ms === undefined ? '—' : (ms / 1000).toFixed(2));
const rows = run.lanes.map((l, i) => [String(i + 1), s(l.durationMs), s(l.host?.buildMs), s(l.host?.checkMs), s(l.host && l.host.buildMs + l.host.checkMs)]);
const head = ['replay', 'wall s', 'host build s', 'host check s', 'host s'];
const widths = head.map((h, j) => Math.max(h.length, ...rows.map((r) => r[j].length)));
const line = (r) => r.map((c, j) => c.padStart(widths[j])).join('  ');
console.log(`shapes: ${run.shapes.map((x) => `${x.op} ${x.shape}`).join(', ')}`);
console.log(line(head));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows) console.log(line(r));
const later = run.lanes.slice(1).map((l) => (l.host ? l.host.buildMs + l.host.checkMs : NaN)).sort((a, b) => a - b);
if (later.length) console.log(`host s per replay after the first: median ${s(later[later.length >> 1])} (target ≤ 5 s)`);
