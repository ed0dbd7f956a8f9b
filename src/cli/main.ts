// `npm run lab -- <command>`: the lab headless. Exit 0 on success, 1 when a gate fails, 2 on
// usage errors (unknown op, malformed shape or schedule, missing adapter).
import { existsSync, writeFileSync } from 'node:fs';
import { readCappedText } from './read-capped';
import { MAX_JSON_FILE_BYTES, MAX_WGSL_FILE_BYTES } from '../core/input/caps';
import { validateResult } from '../core/report/validate';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { projectRoot } from './project-root';
import { serveStatic } from './static-server';
import { parseArgs } from 'node:util';
import { USAGE_ERROR_NAMES, UsageError } from '../core/errors';
import { OPS, opByName } from '../core/ops/registry';
import { opFamilies, parseDims, parseParamAssignments } from '../core/ops/types';
import { laneJson, level1Json, sweepJson } from '../core/report/json';
import { formatAdapter, formatLevel1, formatPeaks } from '../core/report/text';
import { adapterFingerprint, adapterName } from '../core/adapter';
import type { Calibration } from '../core/metrics/roofline';
import { specFor } from '../core/metrics/spec-table';
import { loadCalibration } from './calibration-cache';
import type { VariantRequest } from '../gpu/level1';
import type { LabApi } from '../worker/api';
import { BENCH_ITEMS, formatBench, runBench, type BenchPeer, type BenchSize } from './bench';
import { AGREEMENT_TOLERANCE, runAgreement } from './agreement';
import { formatOpsBench, runOpsBench } from './bench-ops';
import { progressPrinter } from './progress';
import { formatLane, REPEAT_ONE_WARNING } from '../core/report/lane-text';
import { DEFAULT_SHARE_BASE, SHARE_BASE_ENV, SHARE_OPTIONS, shareBase, writeShareOutputs } from './share-output';
import { parseLaneControl } from '../core/lane/judgement';
import { sensitivityReport, SENSITIVITY_CONTROLS, summarizeReplays } from '../core/lane/replay';
import { formatReplays, formatSensitivity } from '../core/report/replay-text';
import type { LaneControl, LaneRequest, LaneResult } from '../core/results';
import { parseOpSpace, parseSchedule } from '../core/schedule/schedule';
import { parseCaseSpec, parseShapeList } from '../core/ops/shape-specs';
import type { Condition } from '../core/schedule/shape-rules';
import { formatSweep } from '../core/report/sweep-text';
import { diffLanes, formatDiff } from '../core/report/diff';
import { fmtGBps, fmtGflops, fmtNs, textTable } from '../core/report/format';
import type { LaneJson as LaneJsonT, Level1Json } from '../core/report/json';
import { caseOf, refuseOutsideLimits } from '../core/resolve-kernel';
import type { OpDef } from '../core/ops/types';
import { checkOutputPath } from './output-paths';
import { keepMatching, parseFilter } from './filter';
import { parseManifest } from '../core/manifest/format';
import { readUserKernel } from './user-kernel-files';
import { CENSUS_HELP, cmdCensus } from './census';
import { cmdFormats, FORMATS_HELP } from './formats';

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
  time --kernel MANIFEST.json --shape SHAPE [--layout NAME] [--param NAME=VALUE]...
                              your own kernel: a manifest and its WGSL (docs/kernel-manifest.md);
                              the op is the manifest's; refusals are named (exit 2)

  lane [--op OP]... [--shape OP:DIMS[:LAYOUT][:k=v,…]]... [--repeat N] [--tolerance T]
       [--device NAME] [--markdown FILE] [--proposal SWEEP.json] [--share-base URL]
       [--prefer OP]... [--control aa|slow|stall|wrong|slow:F] [--undeclare CODE]...
       [--replay N] [--sensitivity]
       [--kernel MANIFEST.json]...  your kernels as further columns: checked, then timed in
                              the same alternating passes; speedup = native ÷ yours (they never
                              gate the lane); without --op/--shape the lane runs their ops
                              the promotion lane: native vs generated over each pair's shape
                              matrix; exit 0 green, 1 when a prefer gate fails, 2 on usage
                              errors or a missing adapter. --prefer gates an observe pair for
                              this run; --control plants a statistics control; --shape
                              replaces the matrices (e.g. shapes from a census); --proposal
                              tries a sweep's proposed rules first, for this run only;
                              --control slow:F plants an F× slowdown (1 < F ≤ 3) with identical
                              output; --replay N runs the lane N times in one session and reports
                              per shape the verdict counts, flip rate and native stability;
                              --sensitivity replays A/A and planted 1.05/1.10/1.20× (default 10
                              each) and reports the smallest slowdown seen as slower in ≥ 95%
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
${CENSUS_HELP}${FORMATS_HELP}  bench [--size full|small] [--only ID[,ID…]|agreement|ops] [--peer tfjs]
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


/** A sweep's JSON (`sweep --json FILE`): its proposal's rules, checked before any device work. */
function readProposal(path: string): { op: string; when: Condition[]; schedule: unknown }[] {
  let parsed: unknown;
  const text = readCappedText(path, MAX_JSON_FILE_BYTES, '--proposal');
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--proposal ${path} is not JSON: ${(e as Error).message}`);
  }
  if ((parsed as { kind?: unknown } | null)?.kind !== 'sweep') throw new UsageError(`--proposal ${path} is not a sweep result (npm run lab -- sweep --op OP --json FILE)`);
  let json: { op: string; proposal: { when: Condition[]; schedule: unknown }[] };
  try {
    json = validateResult(parsed) as unknown as typeof json; // own properties, caps, depth
  } catch (e) {
    throw new UsageError(`--proposal ${path} is not a valid sweep result: ${(e as Error).message}`);
  }
  const op = opByName(json.op);
  return json.proposal.map((p, i) => {
    if (!Array.isArray(p.when)) throw new UsageError(`--proposal ${path}: entry ${i} has no 'when' list`);
    parseSchedule(p.schedule, opFamilies(op));
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
    kernel: { type: 'string' },
    seed: { type: 'string' },
    'min-runs': { type: 'string' },
    filter: { type: 'string' },
    ...SHARE_OPTIONS,
  });
  const base = shareBase(v['share-base'] as string | undefined);
  if (v.kernel && (v.native || v.schedule || v.wgsl)) throw new UsageError('--kernel runs your manifest: give it without --native, --schedule or --wgsl');
  const user = v.kernel ? readUserKernel(v.kernel as string) : null;
  // A user kernel names its op; --op, when given, must agree (checked when it resolves).
  if (!v.op && user) v.op = parseManifest(user.manifest).op;
  if (!v.op) throw new UsageError('time needs --op (one of ' + OPS.map((o) => o.name).join(', ') + ', or all)');
  if (!v.shape) {
    if (user) throw new UsageError('time --kernel needs --shape, e.g. --shape 4096x4096');
    return timeTable(v);
  }
  if (v.filter !== undefined) throw new UsageError('--filter picks among many cases: give it without --shape (time --op all --filter REGEX)');
  if (v.native && v.schedule !== undefined) throw new UsageError('give --native or --schedule, not both');
  const op = opByName(v.op as string);
  const dims = parseDims(v.shape as string);
  const params = paramOptions(v);
  op.makeCase(dims, (v.layout as string | undefined) ?? op.layouts[0].name, params); // usage errors before any device work
  if (v.wgsl !== undefined && !v.native) throw new UsageError('--wgsl replaces the native kernel: give it with --native');
  const variant: VariantRequest = user
    ? { kind: 'user', ...user }
    : v.native
    ? { kind: 'native', wgsl: v.wgsl !== undefined ? readCappedText(v.wgsl as string, MAX_WGSL_FILE_BYTES, '--wgsl') : undefined }
    : v.schedule !== undefined // '' is a schedule to refuse, not a request for the auto pick
      ? { kind: 'schedule', schedule: parseSchedule(v.schedule as string, opFamilies(op)) }
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
    kernel: { type: 'string', multiple: true },
    replay: { type: 'string' },
    sensitivity: { type: 'boolean' },
  });
  const base = shareBase(v['share-base'] as string | undefined);
  const proposal = v.proposal ? readProposal(v.proposal as string) : undefined;
  const replays = intOption(v, 'replay') ?? (v.sensitivity ? 10 : 1);
  if (replays < 1) throw new UsageError(`--replay must be a positive integer, got '${v.replay}'`);
  if (v.sensitivity && v.control !== undefined) throw new UsageError('--sensitivity runs its own controls (A/A and planted 1.05, 1.10, 1.20× slowdowns): give it without --control');
  const given = ((v.shape as unknown as string[] | undefined) ?? []).map(parseCaseSpec);
  const kernels = ((v.kernel as unknown as string[] | undefined) ?? []).map(readUserKernel);
  const opsGiven = ((v.op as unknown as string[] | undefined) ?? []).map((o) => opByName(o).name);
  // With --kernel and neither --op nor --shape, the lane runs the kernels' ops.
  if (kernels.length && !opsGiven.length && !given.length) opsGiven.push(...new Set(kernels.map((k) => opByName(parseManifest(k.manifest).op).name)));
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
  const control = v.control === undefined ? undefined : parseLaneControl(v.control as string);
  const out = output(v.json as string | undefined);
  const repeat = intOption(v, 'repeat');
  if (repeat === 1) process.stderr.write(`${REPEAT_ONE_WARNING}\n`);
  const lab = await openRuntime(v.runtime as string, v.device as string | undefined);
  const progress = progressPrinter(process.stderr, verbosity);
  const request = (c: LaneControl | undefined): LaneRequest => ({
    ops,
    repeat,
    tolerance,
    prefer,
    control: c,
    undeclare: (v.undeclare as unknown as string[] | undefined) ?? [],
    seed: intOption(v, 'seed'),
    shapes: shapes.length ? shapes : undefined,
    proposal,
    kernels: kernels.length ? kernels : undefined,
  });
  try {
    if (v.sensitivity) {
      // Each control replayed in turn, in one session: A/A first, then the planted slowdowns.
      const byControl = new Map<LaneControl, LaneResult[]>();
      for (const c of SENSITIVITY_CONTROLS) {
        for (let i = 0; i < replays; i++) {
          const r = await lab.lane(request(c), (p) => progress.update({ ...p, label: `${c} replay ${i + 1}/${replays}: ${p.label}` }));
          byControl.set(c, [...(byControl.get(c) ?? []), r]);
        }
      }
      progress.done();
      const report = sensitivityReport(byControl);
      out.text(formatSensitivity(report, replays));
      out.json({ kind: 'lane-sensitivity', replays, controls: SENSITIVITY_CONTROLS, shapes: report, lanes: Object.fromEntries([...byControl].map(([c, rs]) => [c, rs.map(laneJson)])) });
      return 0;
    }
    if (replays > 1) {
      const results: LaneResult[] = [];
      for (let i = 0; i < replays; i++) results.push(await lab.lane(request(control), (p) => progress.update({ ...p, label: `replay ${i + 1}/${replays}: ${p.label}` })));
      progress.done();
      out.text(formatLane(results[results.length - 1]));
      const summary = summarizeReplays(results);
      out.text(formatReplays(summary, replays));
      out.json({ kind: 'lane-replay', replays, shapes: summary, lanes: results.map(laneJson) });
      return results.every((r) => r.green) ? 0 : 1;
    }
    const result = await lab.lane(request(control), progress.update);
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
  const space = v.space ? parseOpSpace(v.space as string, opFamilies(op)).restrict : undefined;
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
    data = JSON.parse(readCappedText(path, MAX_JSON_FILE_BYTES, path));
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
  const v = parse(argv, { size: { type: 'string' }, only: { type: 'string' }, peer: { type: 'string' } });
  if (v.size !== undefined && v.size !== 'full' && v.size !== 'small') throw new UsageError(`--size must be full or small, got '${v.size}'`);
  if (v.only === 'agreement') return cmdAgreement(v);
  if (v.only === 'ops') return cmdOpsBench(v);
  const only = v.only === undefined ? undefined : String(v.only).split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of only ?? []) if (!BENCH_ITEMS.some((i) => i.id === id)) throw new UsageError(`--only: '${id}' is not one of ${[...BENCH_ITEMS.map((i) => i.id), 'agreement', 'ops'].join(', ')}`);
  if (v.peer !== undefined && v.peer !== 'tfjs') throw new UsageError(`--peer must be tfjs, got '${v.peer}'`);
  if (v.peer !== undefined && v.runtime !== 'node') throw new UsageError('--peer tfjs runs in the Node runtime (same process, same Dawn GPU object)');
  const out = output(v.json as string | undefined);
  const lab = await openRuntime(v.runtime as string);
  try {
    const adapter = await lab.adapter();
    // A software adapter gets the small shapes: the full ones take minutes on a CPU.
    const size = (v.size as BenchSize | undefined) ?? (adapter.isFallbackAdapter ? 'small' : 'full');
    const peer = v.peer === 'tfjs' ? await tfjsPeer((lab as unknown as { gpu: GPU }).gpu) : undefined;
    const report = await runBench(lab, size, (line) => process.stderr.write(`${line}\n`), only, peer);
    out.text(formatBench(report));
    out.json(report);
    return report.rows.some((r) => r.pass === false || !r.correct) ? 1 : 0;
  } finally {
    await lab.close();
  }
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
  const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as typeof import('./peer-tfjs');
  return {
    name: 'tfjs',
    time: async ({ dims, params }) => (params?.type0 || params?.type1 ? null : mod.tfjsMatmul(dims[0], dims[1], dims[2])),
  };
}

/** `bench --only ops`: every op at a llama-sized case, native and generated. */
async function cmdOpsBench(v: Record<string, unknown>): Promise<number> {
  const out = output(v.json as string | undefined);
  const lab = await openRuntime(v.runtime as string);
  try {
    const adapter = await lab.adapter();
    const full = (v.size as string | undefined) !== 'small' && !adapter.isFallbackAdapter;
    const rows = await runOpsBench(lab, full, (line) => process.stderr.write(`${line}\n`));
    out.text(`${adapterName(adapter)}\n${formatOpsBench(rows, full)}`);
    out.json({ kind: 'ops-bench', adapter, full, rows: rows.map((r) => ({ op: r.op, shape: r.shape, error: r.error, native: r.native && level1Json(r.native), generated: r.generated && level1Json(r.generated) })) });
    return rows.some((r) => r.error || r.native?.correct === false || r.generated?.correct === false) ? 1 : 0;
  } finally {
    await lab.close();
  }
}

/** `bench --only agreement`: Level 1 and the lane on the same MUL_MAT shapes, lanes in both orders. */
async function cmdAgreement(v: Record<string, unknown>): Promise<number> {
  const out = output(v.json as string | undefined);
  const lab = await openRuntime(v.runtime as string);
  try {
    const adapter = await lab.adapter();
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
  census: cmdCensus,
  formats: (argv) => cmdFormats(argv, { parse: (a, o) => parse(a, o) as Record<string, unknown>, openRuntime: (r) => openRuntime(r), output }),
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
