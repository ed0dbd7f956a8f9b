// `time`: Level 1 — one kernel checked against the oracle, then timed alone; or, without
// --shape, one table over each op's default matrix.
import { MAX_WGSL_FILE_BYTES } from '../../core/input/caps';
import { UsageError } from '../../core/errors';
import { adapterName } from '../../core/adapter';
import { parseManifest } from '../../core/manifest/format';
import { OPS, opByName } from '../../core/ops/registry';
import { opFamilies, parseDims, type OpDef } from '../../core/ops/types';
import { fmtGBps, fmtGflops, fmtNs, textTable } from '../../core/report/format';
import { level1Json, type Level1Json } from '../../core/report/json';
import { formatLevel1 } from '../../core/report/text';
import { planCase, planOf, refuseOutsideLimits } from '../../core/plan/plan';
import { parseSchedule } from '../../core/schedule/schedule';
import type { VariantRequest } from '../../gpu/level1';
import { keepMatching, parseFilter } from '../filter';
import { readCappedText } from '../read-capped';
import { SHARE_OPTIONS, shareBase, writeShareOutputs } from '../share-output';
import { readUserKernel } from '../user-kernel-files';
import { cliOf, countOpt, intOption, output, paramOptions, parse } from './args';

export async function cmdTime(argv: string[]): Promise<number> {
  const v = parse(argv, {
    op: { type: 'string' },
    shape: { type: 'string' },
    layout: { type: 'string' },
    param: { type: 'string', multiple: true },
    native: { type: 'boolean' },
    schedule: { type: 'string' },
    wgsl: { type: 'string' },
    kernel: { type: 'string' },
    seed: countOpt('seed'),
    'min-runs': countOpt('minRuns'),
    'watchdog-ms': countOpt('watchdogMs'),
    filter: { type: 'string' },
    ...SHARE_OPTIONS,
  });
  const cli = cliOf(v);
  const base = shareBase(v['share-base'] as string | undefined);
  if (v.kernel && (v.native || v.schedule || v.wgsl)) throw new UsageError('--kernel runs your manifest: give it without --native, --schedule or --wgsl');
  const user = v.kernel ? readUserKernel(v.kernel as string) : null;
  // A user kernel names its op; --op, when given, must agree (checked when it resolves).
  if (!v.op && user) v.op = parseManifest(user.manifest).op;
  if (!v.op) throw new UsageError('time needs --op (one of ' + OPS.map((o) => o.name).join(', ') + ', or all)');
  if (v.shape === undefined) { // --shape '' is a shape to refuse, not the whole default matrix
    if (user) throw new UsageError('time --kernel needs --shape, e.g. --shape 4096x4096');
    return timeTable(v);
  }
  if (v.filter !== undefined) throw new UsageError('--filter picks among many cases: give it without --shape (time --op all --filter REGEX)');
  if (v.native && v.schedule !== undefined) throw new UsageError('give --native or --schedule, not both');
  const dims = parseDims(v.shape as string);
  const params = paramOptions(v);
  // The case's plan: usage errors before any device work; the engine runs this same plan.
  const { op } = planCase({ op: v.op as string, dims, layout: v.layout as string | undefined, ...(params ? { params } : {}) });
  if (v.wgsl !== undefined && !v.native) throw new UsageError('--wgsl replaces the native kernel: give it with --native');
  const variant: VariantRequest = user
    ? { kind: 'user', ...user }
    : v.native
    ? { kind: 'native', wgsl: v.wgsl !== undefined ? readCappedText(v.wgsl as string, MAX_WGSL_FILE_BYTES, '--wgsl') : undefined }
    : v.schedule !== undefined // '' is a schedule to refuse, not a request for the auto pick
      ? { kind: 'schedule', schedule: parseSchedule(v.schedule as string, opFamilies(op)) }
      : { kind: 'auto' };
  const out = output(v.json as string | undefined);
  const lab = await cli.open();
  try {
    const result = await lab.time({
      op: op.name,
      dims,
      layout: v.layout as string | undefined,
      ...(params ? { params } : {}),
      variant,
      seed: intOption(v, 'seed'),
      timing: { minRuns: intOption(v, 'min-runs') },
      watchdogMs: intOption(v, 'watchdog-ms'),
    });
    out.text(formatLevel1(result));
    cli.detail(2, `wgsl (dispatch ${result.dispatch.join(' × ')}):\n${result.wgsl}`);
    const json = level1Json(result);
    out.json(json);
    await writeShareOutputs(json, { markdown: v.markdown as string | undefined, base }, out.text);
    return result.correct ? 0 : 1;
  } finally {
    await lab.close();
  }
}

/** --op all | OP[,OP…] → the ops, in registry order when 'all'. */
function opList(text: string): OpDef[] {
  if (text.trim().toLowerCase() === 'all') return [...OPS];
  const ops = text.split(',').map((t) => t.trim()).filter(Boolean).map(opByName);
  return [...new Map(ops.map((o) => [o.name, o])).values()];
}

/** One row of the many-ops table, as test-backend-ops' perf mode prints one case per line. */
function tableRow(j: Level1Json): string[] {
  const t = j.timing;
  return [
    j.op,
    j.label ?? j.shape,
    j.variant === 'native' ? (j.fallback ? `native (${j.fallback.code})` : 'native') : 'generated',
    j.correct ? 'yes' : 'NO',
    t ? fmtNs(t.medianNs) : '—',
    t ? String(t.runs) : '—',
    fmtGBps(j.metrics?.gbps),
    j.metrics?.gflops === null || j.metrics?.gflops === undefined ? '—' : fmtGflops(j.metrics.gflops),
  ];
}

/** `time --op all|OP,OP` without --shape: every op's default matrix (filtered), one table. */
async function timeTable(v: Record<string, unknown>): Promise<number> {
  const cli = cliOf(v);
  if (v.schedule || v.wgsl) throw new UsageError('--schedule and --wgsl name one kernel: give them with --shape');
  if (v.markdown) throw new UsageError('--markdown is for one result: give it with --shape');
  if (v.param) throw new UsageError('--param sets one case: give it with --shape');
  const filter = parseFilter(v.filter as string | undefined);
  const cases = opList(v.op as string).flatMap((op) => keepMatching(op, op.matrix, filter).map((e) => ({ op, e })));
  if (!cases.length) throw new UsageError(`--filter '${v.filter}' matches no case of ${v.op}`);
  const out = output(v.json as string | undefined);
  const lab = await cli.open();
  try {
    const adapter = await lab.adapter();
    // Every case is refused or kept before the first one runs.
    for (const { op, e } of cases) refuseOutsideLimits(planOf(op, e), adapter);
    const results: Level1Json[] = [];
    for (const [i, { op, e }] of cases.entries()) {
      cli.detail(1, `[${i + 1}/${cases.length}] ${op.name} ${planOf(op, e).c.label}`);
      const r = await lab.time({ op: op.name, dims: [...e.dims], layout: e.layout, ...(e.params ? { params: { ...e.params } } : {}), variant: { kind: v.native ? 'native' : 'auto' }, seed: intOption(v, 'seed'), timing: { minRuns: intOption(v, 'min-runs') } });
      results.push(level1Json(r));
    }
    out.text(`${adapterName(adapter)}\n${textTable(['op', 'shape', 'kernel', 'correct', 'median', 'runs', 'bandwidth', 'compute'], results.map(tableRow))}`);
    const wrong = results.filter((r) => !r.correct).length;
    if (wrong) out.text(`${wrong} of ${results.length} kernels are wrong (never timed)`);
    out.json({ kind: 'level1-table', results });
    return wrong ? 1 : 0;
  } finally {
    await lab.close();
  }
}
