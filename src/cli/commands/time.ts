// `time`: Level 1 — one kernel checked against the oracle, then timed alone; or, without
// --shape, one table over each op's default matrix.
import { LEVEL1_CAPS, MAX_WGSL_FILE_BYTES } from '../../core/input/caps';
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
import type { Level1Result, VariantRequest } from '../../gpu/level1';
import { keepMatching, parseFilter } from '../filter';
import { readCappedText } from '../read-capped';
import { SHARE_OPTIONS, shareBase, writeShareOutputs } from '../share-output';
import { readUserKernel } from '../user-kernel-files';
import { readResume, reportResumed, respawnToResume } from '../watchdog-respawn';
import { cliOf, countOpt, intOption, output, paramOptions, parse } from './args';

export async function cmdTime(argv: string[]): Promise<number> {
  const v = parse(argv, {
    op: { type: 'string' },
    shape: { type: 'string', multiple: true },
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
    'time-incorrect': { type: 'boolean' },
    ...SHARE_OPTIONS,
  });
  const cli = cliOf(v);
  const base = shareBase(v['share-base'] as string | undefined);
  if (v.kernel && (v.native || v.schedule || v.wgsl)) throw new UsageError('--kernel runs your manifest: give it without --native, --schedule or --wgsl');
  const user = v.kernel ? readUserKernel(v.kernel as string) : null;
  // A user kernel names its op; --op, when given, must agree (checked when it resolves).
  if (!v.op && user) v.op = parseManifest(user.manifest).op;
  if (!v.op) throw new UsageError('time needs --op (one of ' + OPS.map((o) => o.name).join(', ') + ', or all)');
  const shapes = v.shape as unknown as string[] | undefined;
  if (shapes === undefined) { // --shape '' is a shape to refuse, not the whole default matrix
    if (user) throw new UsageError('time --kernel needs --shape, e.g. --shape 4096x4096');
    return timeTable(v);
  }
  if (shapes.length > LEVEL1_CAPS.shapes) throw new UsageError(`--shape is given ${shapes.length} times, over the cap of ${LEVEL1_CAPS.shapes} shapes for one time run`);
  if (v.filter !== undefined) throw new UsageError('--filter picks among many cases: give it without --shape (time --op all --filter REGEX)');
  if (v.native && v.schedule !== undefined) throw new UsageError('give --native or --schedule, not both');
  if (shapes.length > 1 && v.markdown) throw new UsageError('--markdown is for one result: give it with one --shape');
  // An ablation's timing is a diagnosis: it never becomes a share link or PR markdown.
  const timeIncorrect = v['time-incorrect'] === true;
  if (timeIncorrect && (v.markdown || v['share-base'])) throw new UsageError('--time-incorrect times a kernel that may be wrong, for diagnosis: give it without --markdown and --share-base');
  const params = paramOptions(v);
  // Each case's plan: usage errors before any device work; the engine runs these same plans.
  const cases = shapes.map((s) => {
    const dims = parseDims(s);
    return { dims, op: planCase({ op: v.op as string, dims, layout: v.layout as string | undefined, ...(params ? { params } : {}) }).op };
  });
  const op = cases[0].op;
  if (v.wgsl !== undefined && !v.native) throw new UsageError('--wgsl replaces the native kernel: give it with --native');
  const variant: VariantRequest = user
    ? { kind: 'user', ...user }
    : v.native
    ? { kind: 'native', wgsl: v.wgsl !== undefined ? readCappedText(v.wgsl as string, MAX_WGSL_FILE_BYTES, '--wgsl') : undefined }
    : v.schedule !== undefined // '' is a schedule to refuse, not a request for the auto pick
      ? { kind: 'schedule', schedule: parseSchedule(v.schedule as string, opFamilies(op)) }
      : { kind: 'auto' };
  const out = output(v.json as string | undefined);
  const options = runOptions(v); // a bad --seed/--min-runs/--watchdog-ms is a usage error before the device opens
  const lab = await cli.open();
  try {
    reportResumed();
    const done = await runCases(cases.length, (i) =>
      lab.time({
        op: op.name,
        dims: cases[i].dims,
        layout: v.layout as string | undefined,
        ...(params ? { params } : {}),
        variant,
        ...options,
        ...(timeIncorrect ? { timeIncorrect } : {}),
      }).then((result) => {
        out.text(formatLevel1(result));
        cli.detail(2, `wgsl (dispatch ${result.dispatch.join(' × ')}):\n${result.wgsl}`);
        return result;
      }),
    );
    if ('respawned' in done) return done.respawned;
    const { results } = done;
    if (results.length === 1) {
      out.json(results[0]);
      // A wrong kernel's timing (--time-incorrect) is a diagnosis: never shared.
      if (results[0].correct || !results[0].timing) await writeShareOutputs(results[0], { markdown: v.markdown as string | undefined, base }, out.text);
    } else {
      out.text(`\n${textTable(TABLE_HEAD, results.map(tableRow))}`);
      out.json({ kind: 'level1-table', results });
    }
    return exitOf(results, results.length > 1 ? out.text : undefined);
  } finally {
    await lab.close();
  }
}

/**
 * Runs cases 0…n−1 (from where a parent process stopped, when this one resumes it). A kernel the
 * watchdog ended is a too-slow result like any other; when it leaves no working device in this
 * process (a software adapter in Node: watchdog.ts) and cases are left, the rest runs in a fresh
 * process (watchdog-respawn.ts), whose output and exit code are the command's.
 */
async function runCases(n: number, run: (i: number) => Promise<Level1Result>): Promise<{ results: Level1Json[] } | { respawned: number }> {
  const resume = readResume();
  const results: Level1Json[] = resume && resume.from < n ? [...resume.results] : [];
  for (let i = results.length; i < n; i++) {
    const r = await run(i);
    results.push(level1Json(r));
    if (r.watchdog && r.watchdog.recoveryMs === null && i + 1 < n) return { respawned: respawnToResume({ from: i + 1, results }, `${r.op} ${r.label} too-slow (the watchdog's bound ${r.watchdog.boundMs} ms)`) };
  }
  return { results };
}

/** The seed, run count and watchdog bound every case of one `time` shares. */
function runOptions(v: Record<string, unknown>) {
  return { seed: intOption(v, 'seed'), timing: { minRuns: intOption(v, 'min-runs') }, watchdogMs: intOption(v, 'watchdog-ms') };
}

/** 0 when every kernel was correct and timed; 1 when any was wrong or too-slow (the rows are printed: an outcome, not a crash). */
function exitOf(results: readonly Level1Json[], say?: (line: string) => void): number {
  const wrong = results.filter((r) => !r.correct && !r.watchdog).length;
  const slow = results.filter((r) => r.watchdog).length;
  if (say && wrong) say(`${wrong} of ${results.length} kernels are wrong (never timed)`);
  if (say && slow) say(`${slow} of ${results.length} kernels are too-slow (ended by the watchdog)`);
  return wrong || slow ? 1 : 0;
}

/** --op all | OP[,OP…] → the ops, in registry order when 'all'. */
function opList(text: string): OpDef[] {
  if (text.trim().toLowerCase() === 'all') return [...OPS];
  const ops = text.split(',').map((t) => t.trim()).filter(Boolean).map(opByName);
  return [...new Map(ops.map((o) => [o.name, o])).values()];
}

const TABLE_HEAD = ['op', 'shape', 'kernel', 'correct', 'median', 'runs', 'bandwidth', 'compute'];

/** One row of the many-ops table, as test-backend-ops' perf mode prints one case per line. */
function tableRow(j: Level1Json): string[] {
  const t = j.timing;
  return [
    j.op,
    j.label ?? j.shape,
    j.variant === 'native' ? (j.fallback ? `native (${j.fallback.code})` : 'native') : j.userKernel ? j.userKernel.id : j.variant,
    j.watchdog ? 'too-slow' : j.correct ? 'yes' : 'NO',
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
  if (v['time-incorrect']) throw new UsageError('--time-incorrect is for one kernel you are taking apart: give it with --shape');
  const filter = parseFilter(v.filter as string | undefined);
  const cases = opList(v.op as string).flatMap((op) => keepMatching(op, op.matrix, filter).map((e) => ({ op, e })));
  if (!cases.length) throw new UsageError(`--filter '${v.filter}' matches no case of ${v.op}`);
  const out = output(v.json as string | undefined);
  const options = runOptions(v);
  const plans = cases.map(({ op, e }) => planOf(op, e)); // once per case: the limit check and the progress label
  const lab = await cli.open();
  try {
    const adapter = await lab.adapter();
    // Every case is refused or kept before the first one runs.
    for (const plan of plans) refuseOutsideLimits(plan, adapter);
    reportResumed();
    const done = await runCases(cases.length, (i) => {
      const { op, e } = cases[i];
      cli.detail(1, `[${i + 1}/${cases.length}] ${op.name} ${plans[i].c.label}`);
      return lab.time({ op: op.name, dims: [...e.dims], layout: e.layout, ...(e.params ? { params: { ...e.params } } : {}), variant: { kind: v.native ? 'native' : 'auto' }, ...options });
    });
    if ('respawned' in done) return done.respawned;
    const { results } = done;
    out.text(`${adapterName(adapter)}\n${textTable(TABLE_HEAD, results.map(tableRow))}`);
    for (const r of results) if (r.watchdog) out.text(`${r.op} ${r.label ?? r.shape}: too-slow — ${r.watchdog.note}`);
    out.json({ kind: 'level1-table', results });
    return exitOf(results, out.text);
  } finally {
    await lab.close();
  }
}
