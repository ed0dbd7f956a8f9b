// `bench`: the engine's performance targets as a table; `--only ops` every op at a llama-sized
// case; `--only agreement` Level 1 against the lane.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UsageError } from '../../core/errors';
import { adapterName } from '../../core/adapter';
import { fmtNs, textTable } from '../../core/report/format';
import { level1Json } from '../../core/report/json';
import { AGREEMENT_TOLERANCE, runAgreement } from '../agreement';
import { BENCH_ITEMS, formatBench, runBench, type BenchPeer, type BenchSize } from '../bench';
import { formatOpsBench, runOpsBench } from '../bench-ops';
import { OPS } from '../../core/ops/registry';
import { cliOf, output, parse, withLab } from './args';

export async function cmdBench(argv: string[]): Promise<number> {
  const v = parse(argv, { size: { type: 'string' }, only: { type: 'string' }, peer: { type: 'string' }, op: { type: 'string' } });
  const cli = cliOf(v);
  if (v.size !== undefined && v.size !== 'full' && v.size !== 'small') throw new UsageError(`--size must be full or small, got '${v.size}'`);
  if (v.only === 'agreement') return cmdAgreement(v);
  if (v.op !== undefined && v.only !== 'ops') throw new UsageError('--op goes with --only ops (the ops to time)');
  if (v.only === 'ops') return cmdOpsBench(v);
  const only = v.only === undefined ? undefined : String(v.only).split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of only ?? []) if (!BENCH_ITEMS.some((i) => i.id === id)) throw new UsageError(`--only: '${id}' is not one of ${[...BENCH_ITEMS.map((i) => i.id), 'agreement', 'ops'].join(', ')}`);
  if (v.peer !== undefined && v.peer !== 'tfjs') throw new UsageError(`--peer must be tfjs, got '${v.peer}'`);
  if (v.peer !== undefined && v.runtime !== 'node') throw new UsageError('--peer tfjs runs in the Node runtime (same process, same Dawn GPU object)');
  const out = output(v.json as string | undefined);
  return withLab(cli, async (lab, adapter) => {
    // A software adapter gets the small shapes: the full ones take minutes on a CPU.
    const size = (v.size as BenchSize | undefined) ?? (adapter.isFallbackAdapter ? 'small' : 'full');
    const peer = v.peer === 'tfjs' ? await tfjsPeer((lab as unknown as { gpu: GPU }).gpu) : undefined;
    const report = await runBench(lab, size, (line) => process.stderr.write(`${line}\n`), only, peer);
    out.text(formatBench(report));
    out.json(report);
    return report.rows.some((r) => r.pass === false || !r.correct) ? 1 : 0;
  });
}

/**
 * TensorFlow.js's WebGPU backend on this process's Dawn GPU object: navigator.gpu is set to it
 * before the peer bundle (dist-cli/peer-tfjs.mjs, beside this file) is imported.
 */
async function tfjsPeer(gpu: GPU): Promise<BenchPeer> {
  // Node 20 has no navigator; 21+ has one without gpu.
  if (typeof globalThis.navigator !== 'object' || globalThis.navigator === null) Object.defineProperty(globalThis, 'navigator', { value: {}, configurable: true, writable: true });
  Object.defineProperty(globalThis.navigator, 'gpu', { value: gpu, configurable: true });
  const file = join(dirname(fileURLToPath(import.meta.url)), 'peer-tfjs.mjs');
  if (!existsSync(file)) throw new UsageError(`--peer tfjs needs ${file} (npm run build:cli builds it; @tensorflow/tfjs-core and -backend-webgpu are optional dependencies)`);
  const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as typeof import('../peer-tfjs');
  return {
    name: 'tfjs',
    time: async ({ dims, params }) => (params?.type0 || params?.type1 ? null : mod.tfjsMatmul(dims[0], dims[1], dims[2])),
  };
}

/** `bench --only ops`: every op at a llama-sized case, native and generated. */
async function cmdOpsBench(v: Record<string, unknown>): Promise<number> {
  const cli = cliOf(v);
  const names = v.op === undefined ? undefined : String(v.op).split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
  for (const n of names ?? []) if (!OPS.some((o) => o.name === n)) throw new UsageError(`--op: '${n}' is not an op; ops: ${OPS.map((o) => o.name).join(', ')}`);
  if (names && names.length === 0) throw new UsageError('--op: no op named');
  const out = output(v.json as string | undefined);
  return withLab(cli, async (lab, adapter) => {
    const full = (v.size as string | undefined) !== 'small' && !adapter.isFallbackAdapter;
    const rows = await runOpsBench(lab, full, (line) => process.stderr.write(`${line}\n`), names);
    out.text(`${adapterName(adapter)}\n${formatOpsBench(rows, full)}`);
    out.json({ kind: 'ops-bench', adapter, full, rows: rows.map((r) => ({ op: r.op, shape: r.shape, error: r.error, native: r.native && level1Json(r.native), generated: r.generated && level1Json(r.generated) })) });
    return rows.some((r) => r.error || r.native?.correct === false || r.generated?.correct === false) ? 1 : 0;
  });
}

/** `bench --only agreement`: Level 1 and the lane on the same MUL_MAT shapes, lanes in both orders. */
async function cmdAgreement(v: Record<string, unknown>): Promise<number> {
  const cli = cliOf(v);
  const out = output(v.json as string | undefined);
  return withLab(cli, async (lab, adapter) => {
    const size = (v.size as 'full' | 'small' | undefined) ?? (adapter.isFallbackAdapter ? 'small' : 'full');
    const rows = await runAgreement(lab, size, (line) => process.stderr.write(`${line}\n`));
    const judged = !adapter.isFallbackAdapter;
    out.text(
      [
        `agreement — ${adapterName(adapter)}: the same kernel and shape timed by Level 1 and by lanes over all shapes in order and reversed (target: within ${100 * AGREEMENT_TOLERANCE}%)`,
        textTable(
          ['shape', 'variant', 'Level 1', 'lane (in order)', 'lane (reversed)', 'worst difference', 'verdict'],
          rows.map((r) => [r.shape, r.variant, fmtNs(r.level1Ns), fmtNs(r.laneForwardNs), fmtNs(r.laneReverseNs), r.worstDiff === null ? '—' : `${(100 * r.worstDiff).toFixed(2)}%`, !judged || r.worstDiff === null ? '—' : r.worstDiff <= AGREEMENT_TOLERANCE ? 'pass' : 'FAIL']),
        ),
      ].join('\n'),
    );
    out.json({ kind: 'agreement', adapter, size, rows });
    return judged && rows.some((r) => r.worstDiff === null || r.worstDiff > AGREEMENT_TOLERANCE) ? 1 : 0;
  });
}
