// `npm run lab -- <command>`: the lab headless. Exit 0 on success, 1 when a gate fails, 2 on
// usage errors (unknown op, malformed shape or schedule, missing adapter).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './project-root';
import { serveStatic } from './static-server';
import { parseArgs } from 'node:util';
import { USAGE_ERROR_NAMES, UsageError } from '../core/errors';
import { OPS, opByName } from '../core/ops/registry';
import { parseDims, parseParamAssignments } from '../core/ops/types';
import { laneJson, level1Json, sweepJson } from '../core/report/json';
import { formatAdapter, formatLevel1, formatPeaks } from '../core/report/text';
import { adapterFingerprint, adapterName } from '../core/adapter';
import type { Calibration } from '../core/metrics/roofline';
import { specFor } from '../core/metrics/spec-table';
import { loadCalibration } from './calibration-cache';
import type { VariantRequest } from '../gpu/level1';
import type { LabApi } from '../worker/api';
import { BENCH_ITEMS, formatBench, runBench, type BenchSize } from './bench';
import { progressPrinter } from './progress';
import { formatLane } from '../core/report/lane-text';
import { DEFAULT_SHARE_BASE, SHARE_BASE_ENV, SHARE_OPTIONS, shareBase, writeShareOutputs } from './share-output';
import type { LaneControl } from '../gpu/lane';
import { parseSchedule, parseSpace } from '../core/schedule/schedule';
import { parseCaseSpec, parseShapeList } from '../core/ops/shape-specs';
import type { Condition } from '../core/schedule/shape-rules';
import { formatSweep } from '../core/report/sweep-text';
import { diffLanes, formatDiff } from '../core/report/diff';
import { validateResult } from '../core/report/validate';
import { fmtGBps, fmtGflops, fmtNs, textTable } from '../core/report/format';
import type { LaneJson as LaneJsonT, Level1Json } from '../core/report/json';
import { caseOf, refuseOutsideLimits } from '../core/resolve-kernel';
import type { OpDef } from '../core/ops/types';
import { checkOutputPath } from './output-paths';
import { keepMatching, parseFilter } from './filter';

const HELP = `kernel-lab — decides, with evidence, when a generated WebGPU kernel may replace a native one

usage: npm run lab -- <command> [options]

commands:
  serve [--port 4173]         serve the built page (npm start builds it first)
  device [--calibrate]        adapter info, limits, features, spec and measured peaks;
                              --calibrate measures copy bandwidth, FMA throughput and the
                              empty-dispatch floor (kept per adapter for later metrics)
  time --op OP --shape SHAPE  Level 1: check one kernel against the oracle, then time it alone
       [--layout NAME] [--param NAME=VALUE]... [--native [--wgsl FILE] | --schedule JSON]
       [--seed N] [--min-runs N] [--markdown FILE] [--share-base URL]
                              --wgsl FILE runs your edit of the native kernel (same bindings);
                              --param sets an op parameter (e.g. --param eps=1e-5), repeatable
  time --op all|OP[,OP…] [--filter REGEX] [--native]
                              without --shape: one table over each op's default matrix
                              (like test-backend-ops -m perf); exit 1 if any kernel is wrong

  lane [--op OP]... [--shape OP:DIMS[:LAYOUT][:k=v,…]]... [--repeat N] [--tolerance T]
       [--device NAME] [--markdown FILE] [--proposal SWEEP.json] [--share-base URL]
       [--prefer OP]... [--control aa|slow|stall|wrong] [--undeclare CODE]...
                              the promotion lane: native vs generated over each pair's shape
                              matrix; exit 0 green, 1 when a prefer gate fails, 2 on usage
                              errors or a missing adapter. --prefer gates an observe pair for
                              this run; --control plants a statistics control; --shape
                              replaces the matrices (e.g. shapes from a census); --proposal
                              tries a sweep's proposed rules first, for this run only
  sweep --op OP [--reps 9] [--shapes DIMS[:LAYOUT][:k=v;…],...] [--param NAME=VALUE]...
        [--space JSON]
                              offline schedule search: every valid candidate of the op's
                              space, checked then timed; refusals with reasons; a proposal
                              of schedulesFor rules to review (nothing is written).
                              --space restricts knobs, e.g. '{"workgroupSize":[64,256]}';
                              --param sets a param on every shape (the matrix's if no --shapes)
  diff A.json B.json [--threshold 5]
                              a lane run B against baseline A, shape by shape: exit 1 when a
                              speedup fell by more than the threshold (%), 0 when none did,
                              2 when they cannot be compared (other adapters, the native
                              column moved, not lane results)
  bench [--size full|small] [--only ID]
                              the engine's performance targets as a table (small shapes on
                              a software adapter; targets are judged on hardware only)

options for every command:
  --runtime node|browser      node: Dawn (the 'webgpu' package); browser: headless Chromium
                              through Playwright running the built page's worker (default node)
  --json FILE|-               write the result as JSON (- for stdout; the text then goes to stderr)
  --timer gpu|wallclock       GPU timestamps (default), or the wall clock around
                              onSubmittedWorkDone (what runs without timestamp-query)
  --filter REGEX              time (many ops), lane, sweep: run only the cases whose
                              'OP DIMS LAYOUT [PARAMS]' matches, e.g. --filter 'inplace'
  -v, -vv                     more detail: -v every progress step and the adapter first;
                              -vv also the WGSL run (time) and stack traces of errors

exit codes: 0 done (lane green, no regression), 1 a wrong kernel, a failed prefer gate or a
regression (diff), 2 a usage error: a bad option, op, shape or output path, a case outside the
contract or the adapter's limits (refused before any GPU work), a missing adapter, results that
cannot be compared

time and lane print a share link that opens the result read-only in the page, and with
--markdown FILE write the GitHub markdown of the result (with that link) for a pull request.
  --share-base URL            where the page is served (default $${SHARE_BASE_ENV}, else
                              package.json's homepage, ${DEFAULT_SHARE_BASE})

ops: ${OPS.map((o) => `${o.name} (${o.shapeSyntax})`).join(', ')}
`;

type Out = { text: (s: string) => void; json: (value: unknown) => void };

function output(jsonTarget: string | undefined): Out {
  const toStdout = jsonTarget === '-';
  return {
    text: (s) => (toStdout ? process.stderr : process.stdout).write(s.endsWith('\n') ? s : s + '\n'),
    json: (value) => {
      if (!jsonTarget) return;
      const text = JSON.stringify(value, null, 2) + '\n';
      if (toStdout) process.stdout.write(text);
      else writeFileSync(jsonTarget, text);
    },
  };
}

/** The timer option every command takes: GPU timestamps (default) or the wall clock. */
let timestamps = true;
/** -v / -vv: how much the CLI says besides the result (0, 1 or 2). */
let verbosity = 0;

/** Says a line on stderr when the detail level is at least `level`. */
function detail(level: number, line: string): void {
  if (verbosity >= level) process.stderr.write(`${line}\n`);
}

async function openRuntime(runtime: string, deviceMatch?: string): Promise<LabApi & { close(): Promise<void> }> {
  const lab = await openEngine(runtime, deviceMatch);
  if (verbosity >= 1) {
    try {
      detail(1, `adapter: ${formatAdapter(await lab.adapter()).split('\n')[0]} (runtime ${runtime})`);
    } catch (e) {
      await lab.close();
      throw e;
    }
  }
  return lab;
}

async function openEngine(runtime: string, deviceMatch?: string): Promise<LabApi & { close(): Promise<void> }> {
  if (runtime === 'node') return (await import('./runtime-node')).openNodeEngine(deviceMatch, timestamps);
  if (runtime === 'browser') return (await import('./runtime-browser')).openBrowserEngine(deviceMatch, timestamps);
  throw new UsageError(`--runtime must be node or browser, got '${runtime}'`);
}

const COMMON = {
  runtime: { type: 'string', default: 'node' },
  timer: { type: 'string', default: 'gpu' },
  json: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  verbose: { type: 'boolean', short: 'v', multiple: true },
} as const;

function parse<T extends Record<string, { type: 'string' | 'boolean'; default?: string | boolean; short?: string; multiple?: boolean }>>(argv: string[], options: T) {
  try {
    const values = parseArgs({ args: argv, options: { ...COMMON, ...options }, allowPositionals: false, strict: true }).values as Record<string, string | boolean | undefined>;
    if (values.timer !== 'gpu' && values.timer !== 'wallclock') throw new UsageError(`--timer must be gpu or wallclock, got '${values.timer}'`);
    timestamps = values.timer === 'gpu';
    verbosity = Math.min(2, ((values.verbose as unknown as boolean[] | undefined) ?? []).length);
    // Output files are checked before any device work (a usage error, exit 2).
    checkOutputPath('--json', values.json as string | undefined);
    checkOutputPath('--markdown', values.markdown as string | undefined);
    return values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
}

/** A sweep's JSON (`sweep --json FILE`): its proposal's rules, checked before any device work. */
function readProposal(path: string): { op: string; when: Condition[]; schedule: unknown }[] {
  let json: { kind?: string; op?: string; proposal?: { when: Condition[]; schedule: unknown }[] };
  try {
    json = JSON.parse(readText(path));
  } catch (e) {
    throw new UsageError(`--proposal ${path} is not JSON: ${(e as Error).message}`);
  }
  if (json.kind !== 'sweep' || typeof json.op !== 'string' || !Array.isArray(json.proposal)) throw new UsageError(`--proposal ${path} is not a sweep result (npm run lab -- sweep --op OP --json FILE)`);
  const op = opByName(json.op);
  return json.proposal.map((p, i) => {
    if (!Array.isArray(p.when)) throw new UsageError(`--proposal ${path}: entry ${i} has no 'when' list`);
    parseSchedule(p.schedule, op.family);
    return { op: op.name, when: p.when, schedule: p.schedule };
  });
}

function intOption(values: Record<string, unknown>, name: string): number | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got '${v}'`);
  return n;
}

async function cmdDevice(argv: string[]): Promise<number> {
  const v = parse(argv, { calibrate: { type: 'boolean' } });
  const out = output(v.json as string | undefined);
  const lab = await openRuntime(v.runtime as string);
  try {
    const adapter = await lab.adapter();
    let calibration: Calibration | null = v.runtime === 'node' ? loadCalibration(adapterFingerprint(adapter)) : null;
    if (v.calibrate) {
      const progress = progressPrinter(process.stderr, verbosity);
      calibration = await lab.calibrate(progress.update);
      progress.done();
    }
    out.text(`${formatAdapter(adapter)}\n${formatPeaks(adapter, calibration)}`);
    if (calibration && v.calibrate) out.text(calibration.details.map((d) => `  ${d}`).join('\n'));
    out.json({ kind: 'device', adapter, spec: specFor(adapter), calibration });
    return 0;
  } finally {
    await lab.close();
  }
}

/** Repeated `--param k=v` (each may also be `k=v,k2=v2`) → params, or undefined when none. */
function paramOptions(v: Record<string, unknown>): Record<string, number> | undefined {
  const given = (v.param as string[] | undefined) ?? [];
  if (!given.length) return undefined;
  const out: Record<string, number> = {};
  for (const text of given) {
    for (const [k, val] of Object.entries(parseParamAssignments(text))) {
      if (k in out) throw new UsageError(`--param ${k} is given twice`);
      out[k] = val;
    }
  }
  return out;
}

async function cmdTime(argv: string[]): Promise<number> {
  const v = parse(argv, {
    op: { type: 'string' },
    shape: { type: 'string' },
    layout: { type: 'string' },
    param: { type: 'string', multiple: true },
    native: { type: 'boolean' },
    schedule: { type: 'string' },
    wgsl: { type: 'string' },
    seed: { type: 'string' },
    'min-runs': { type: 'string' },
    filter: { type: 'string' },
    ...SHARE_OPTIONS,
  });
  const base = shareBase(v['share-base'] as string | undefined);
  if (!v.op) throw new UsageError('time needs --op (one of ' + OPS.map((o) => o.name).join(', ') + ', or all)');
  if (!v.shape) return timeTable(v);
  if (v.filter !== undefined) throw new UsageError('--filter picks among many cases: give it without --shape (time --op all --filter REGEX)');
  if (v.native && v.schedule) throw new UsageError('give --native or --schedule, not both');
  const op = opByName(v.op as string);
  const dims = parseDims(v.shape as string);
  const params = paramOptions(v);
  op.makeCase(dims, (v.layout as string | undefined) ?? op.layouts[0].name, params); // usage errors before any device work
  if (v.wgsl && !v.native) throw new UsageError('--wgsl replaces the native kernel: give it with --native');
  const variant: VariantRequest = v.native
    ? { kind: 'native', wgsl: v.wgsl ? readText(v.wgsl as string) : undefined }
    : v.schedule
      ? { kind: 'schedule', schedule: v.schedule }
      : { kind: 'auto' };
  const out = output(v.json as string | undefined);
  const lab = await openRuntime(v.runtime as string);
  try {
    const result = await lab.time({
      op: op.name,
      dims,
      layout: v.layout as string | undefined,
      ...(params ? { params } : {}),
      variant,
      seed: intOption(v, 'seed'),
      timing: { minRuns: intOption(v, 'min-runs') },
    });
    out.text(formatLevel1(result));
    detail(2, `wgsl (dispatch ${result.dispatch.join(' × ')}):\n${result.wgsl}`);
    const json = level1Json(result);
    out.json(json);
    await writeShareOutputs(json, { markdown: v.markdown as string | undefined, base }, out.text);
    return result.correct ? 0 : 1;
  } finally {
    await lab.close();
  }
}

async function cmdLane(argv: string[]): Promise<number> {
  const v = parse(argv, {
    op: { type: 'string', multiple: true },
    repeat: { type: 'string' },
    tolerance: { type: 'string' },
    device: { type: 'string' },
    ...SHARE_OPTIONS,
    prefer: { type: 'string', multiple: true },
    control: { type: 'string' },
    undeclare: { type: 'string', multiple: true },
    seed: { type: 'string' },
    shape: { type: 'string', multiple: true },
    proposal: { type: 'string' },
    filter: { type: 'string' },
  });
  const base = shareBase(v['share-base'] as string | undefined);
  const proposal = v.proposal ? readProposal(v.proposal as string) : undefined;
  const given = ((v.shape as unknown as string[] | undefined) ?? []).map(parseCaseSpec);
  const opsGiven = ((v.op as unknown as string[] | undefined) ?? []).map((o) => opByName(o).name);
  const filter = parseFilter(v.filter as string | undefined);
  // --filter turns the matrices (or the --shape list) into the shapes that match; the lane then
  // runs the ops that kept a shape.
  const shapes = filter
    ? (given.length ? given : (opsGiven.length ? opsGiven.map(opByName) : OPS).flatMap((op) => op.matrix.map((e) => ({ op: op.name, dims: [...e.dims], layout: e.layout, ...(e.params ? { params: { ...e.params } } : {}) })))).filter(
        (sh) => keepMatching(opByName(sh.op), [sh], filter).length > 0,
      )
    : given;
  if (filter && !shapes.length) throw new UsageError(`--filter '${v.filter}' matches no shape of the lane`);
  const ops = filter && !given.length ? [...new Set(shapes.map((sh) => opByName(sh.op).name))] : opsGiven;
  const prefer = ((v.prefer as unknown as string[] | undefined) ?? []).map((o) => opByName(o).name);
  const tolerance = v.tolerance === undefined ? undefined : Number(v.tolerance);
  if (tolerance !== undefined && !(tolerance >= 0 && tolerance < 1)) throw new UsageError(`--tolerance must be a number in [0, 1), got '${v.tolerance}'`);
  const control = v.control as string | undefined;
  if (control !== undefined && !['aa', 'slow', 'stall', 'wrong'].includes(control)) throw new UsageError(`--control must be aa, slow, stall or wrong, got '${control}'`);
  const out = output(v.json as string | undefined);
  const lab = await openRuntime(v.runtime as string, v.device as string | undefined);
  const progress = progressPrinter(process.stderr, verbosity);
  try {
    const result = await lab.lane(
      {
        ops,
        repeat: intOption(v, 'repeat'),
        tolerance,
        prefer,
        control: control as LaneControl | undefined,
        undeclare: (v.undeclare as unknown as string[] | undefined) ?? [],
        seed: intOption(v, 'seed'),
        shapes: shapes.length ? shapes : undefined,
        proposal,
      },
      progress.update,
    );
    progress.done();
    out.text(formatLane(result));
    const json = laneJson(result);
    out.json(json);
    await writeShareOutputs(json, { markdown: v.markdown as string | undefined, base }, out.text);
    return result.green ? 0 : 1;
  } finally {
    progress.done();
    await lab.close();
  }
}

async function cmdSweep(argv: string[]): Promise<number> {
  const v = parse(argv, {
    op: { type: 'string' },
    reps: { type: 'string' },
    shapes: { type: 'string' },
    param: { type: 'string', multiple: true },
    space: { type: 'string' },
    seed: { type: 'string' },
    filter: { type: 'string' },
  });
  if (!v.op) throw new UsageError('sweep needs --op');
  const op = opByName(v.op as string);
  const filter = parseFilter(v.filter as string | undefined);
  const listedAll = v.shapes ? parseShapeList(String(v.shapes), op) : filter ? op.matrix.map((e) => ({ dims: [...e.dims], layout: e.layout, ...(e.params ? { params: { ...e.params } } : {}) })) : undefined;
  const listed = listedAll && keepMatching(op, listedAll, filter);
  if (listed && !listed.length) throw new UsageError(`--filter '${v.filter}' matches no shape of ${op.name}`);
  const params = paramOptions(v);
  // --param overrides each shape's own params (the matrix's shapes when --shapes is absent).
  const shapes = params
    ? (listed ?? op.matrix.map((e) => ({ dims: [...e.dims], layout: e.layout, ...(e.params ? { params: { ...e.params } } : {}) }))).map((e) => {
        const merged = { ...e.params, ...params };
        op.makeCase(e.dims, e.layout ?? op.layouts[0].name, merged);
        return { ...e, params: merged };
      })
    : listed;
  const space = v.space ? parseSpace(v.space as string, op.family) : undefined;
  const out = output(v.json as string | undefined);
  const lab = await openRuntime(v.runtime as string);
  const progress = progressPrinter(process.stderr, verbosity);
  try {
    const result = await lab.sweep({ op: op.name, reps: intOption(v, 'reps'), shapes, space, seed: intOption(v, 'seed') }, progress.update);
    progress.done();
    out.text(formatSweep(result));
    out.json(sweepJson(result));
    return 0;
  } finally {
    progress.done();
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
    j.label,
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
  if (v.schedule || v.wgsl) throw new UsageError('--schedule and --wgsl name one kernel: give them with --shape');
  if (v.markdown) throw new UsageError('--markdown is for one result: give it with --shape');
  if (v.param) throw new UsageError('--param sets one case: give it with --shape');
  const filter = parseFilter(v.filter as string | undefined);
  const cases = opList(v.op as string).flatMap((op) => keepMatching(op, op.matrix, filter).map((e) => ({ op, e })));
  if (!cases.length) throw new UsageError(`--filter '${v.filter}' matches no case of ${v.op}`);
  const out = output(v.json as string | undefined);
  const lab = await openRuntime(v.runtime as string);
  try {
    const adapter = await lab.adapter();
    // Every case is refused or kept before the first one runs.
    for (const { op, e } of cases) refuseOutsideLimits(op, caseOf(op, e), adapter);
    const results: Level1Json[] = [];
    for (const [i, { op, e }] of cases.entries()) {
      detail(1, `[${i + 1}/${cases.length}] ${op.name} ${caseOf(op, e).label}`);
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

/** Reads a result file as --json wrote it; unreadable or malformed is a usage error. */
function readResult(path: string) {
  let data: unknown;
  try {
    data = JSON.parse(readText(path));
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${path} is not JSON: ${(e as Error).message}`);
  }
  try {
    return validateResult(data);
  } catch (e) {
    throw new UsageError(`${path}: ${(e as Error).message}`);
  }
}

/** `diff A.json B.json [--threshold 5]`: B against baseline A; exit 1 on a regression. */
async function cmdDiff(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { threshold: { type: 'string' }, json: { type: 'string' }, verbose: { type: 'boolean', short: 'v', multiple: true } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  checkOutputPath('--json', values.json);
  if (positionals.length !== 2) throw new UsageError(`diff takes two result files (baseline, then new), got ${positionals.length}`);
  const threshold = values.threshold === undefined ? 5 : Number(values.threshold);
  if (!(threshold >= 0) || !Number.isFinite(threshold)) throw new UsageError(`--threshold must be a percentage ≥ 0, got '${values.threshold}'`);
  const [a, b] = positionals.map(readResult);
  for (const [r, path] of [[a, positionals[0]], [b, positionals[1]]] as const) {
    if (r.kind !== 'lane') throw new UsageError(`${path} is a ${r.kind} result: diff compares lane results (npm run lab -- lane --json FILE)`);
  }
  const d = diffLanes(a as LaneJsonT, b as LaneJsonT, threshold);
  const out = output(values.json);
  out.text(formatDiff(d));
  out.json({ kind: 'diff', ...d });
  if (!d.comparable) return 2;
  return d.regressions ? 1 : 0;
}

async function cmdBench(argv: string[]): Promise<number> {
  const v = parse(argv, { size: { type: 'string' }, only: { type: 'string' } });
  if (v.size !== undefined && v.size !== 'full' && v.size !== 'small') throw new UsageError(`--size must be full or small, got '${v.size}'`);
  if (v.only !== undefined && !BENCH_ITEMS.some((i) => i.id === v.only)) throw new UsageError(`--only must be one of ${BENCH_ITEMS.map((i) => i.id).join(', ')}`);
  const out = output(v.json as string | undefined);
  const lab = await openRuntime(v.runtime as string);
  try {
    const adapter = await lab.adapter();
    // A software adapter gets the small shapes: the full ones take minutes on a CPU.
    const size = (v.size as BenchSize | undefined) ?? (adapter.isFallbackAdapter ? 'small' : 'full');
    const report = await runBench(lab, size, (line) => process.stderr.write(`${line}\n`), v.only as string | undefined);
    out.text(formatBench(report));
    out.json(report);
    return report.rows.some((r) => r.pass === false || !r.correct) ? 1 : 0;
  } finally {
    await lab.close();
  }
}

/** `npm start`: serves the built page (dist/) until interrupted. */
async function cmdServe(argv: string[]): Promise<number> {
  const v = parse(argv, { port: { type: 'string' } });
  const port = v.port === undefined ? Number(process.env.PORT ?? 4173) : intOption(v, 'port')!;
  const dist = join(projectRoot(), 'dist');
  if (!existsSync(join(dist, 'index.html'))) throw new UsageError(`${dist}/index.html is missing: run \`npx vite build\` first (npm start does)`);
  const { url } = await serveStatic(dist, port).catch((e: Error) => {
    throw new UsageError(`cannot serve on port ${port}: ${e.message}`);
  });
  process.stdout.write(`kernel-lab: ${url}\n`);
  await new Promise<never>(() => undefined);
  return 0;
}

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  serve: cmdServe,
  device: cmdDevice,
  time: cmdTime,
  bench: cmdBench,
  lane: cmdLane,
  sweep: cmdSweep,
  diff: cmdDiff,
};

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP);
    return command ? 0 : 2;
  }
  const run = COMMANDS[command];
  if (!run) {
    process.stderr.write(`unknown command '${command}'\n\n${HELP}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  try {
    return await run(rest);
  } catch (e) {
    const err = e as Error;
    const usage = USAGE_ERROR_NAMES.includes(err.name);
    process.stderr.write(`${usage ? 'error' : err.name}: ${err.message}\n`);
    if ((!usage && process.env.KERNEL_LAB_DEBUG) || verbosity >= 2) process.stderr.write(`${err.stack}\n`);
    return usage ? 2 : 1;
  }
}
