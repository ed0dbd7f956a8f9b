// `lane`: the promotion lane — native vs generated over each pair's shape matrix; replays and
// the sensitivity report.
import { MAX_JSON_FILE_BYTES } from '../../core/input/caps';
import { UsageError } from '../../core/errors';
import { parseLaneControl } from '../../core/lane/judgement';
import { sensitivityControls, sensitivityGroups, sensitivityReport, summarizeReplays } from '../../core/lane/replay';
import { DEFAULT_TOLERANCE } from '../../core/stats/verdict';
import { LANE_CONTROL_OPTIONS, parseFactors, parseRepeatOption } from '../lane-options';
import { parseManifest } from '../../core/manifest/format';
import { OPS, opByName } from '../../core/ops/registry';
import { parseCaseSpec } from '../../core/ops/shape-specs';
import { opFamilies } from '../../core/ops/types';
import { laneJson } from '../../core/report/json';
import { formatLane, REPEAT_ONE_WARNING } from '../../core/report/lane-text';
import { formatReplays, formatSensitivity } from '../../core/report/replay-text';
import { validateResult } from '../../core/report/validate';
import type { LaneControl, LaneRequest, LaneResult } from '../../core/results';
import { parseSchedule } from '../../core/schedule/schedule';
import type { Condition } from '../../core/schedule/shape-rules';
import { keepMatching, parseFilter } from '../filter';
import { ReplayProgress } from '../../core/progress';
import { progressPrinter } from '../progress';
import { readCappedText } from '../read-capped';
import { SHARE_OPTIONS, shareBase, writeShareOutputs } from '../share-output';
import { readUserKernel } from '../user-kernel-files';
import { markHung, reportResumed, respawnWithoutHung } from '../watchdog-respawn';
import { cmdLaneCensus } from '../census';
import { cliOf, countOpt, intOption, output, parse } from './args';

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

/** One replay's wall and host seconds (-v): what issue 22's host-time target reads. */
function replayDetail(what: string, r: LaneResult): string {
  return `${what}: ${(r.durationMs / 1000).toFixed(1)} s, host ${((r.host?.buildMs ?? 0) / 1000).toFixed(2)} s building inputs and oracles, ${((r.host?.checkMs ?? 0) / 1000).toFixed(2)} s checking outputs`;
}

export async function cmdLane(argv: string[]): Promise<number> {
  if (argv.includes('--census')) return cmdLaneCensus(argv);
  const v = parse(argv, {
    op: { type: 'string', multiple: true },
    tolerance: { type: 'string' },
    device: { type: 'string' },
    ...SHARE_OPTIONS,
    prefer: { type: 'string', multiple: true },
    control: { type: 'string' },
    undeclare: { type: 'string', multiple: true },
    seed: countOpt('seed'),
    shape: { type: 'string', multiple: true },
    proposal: { type: 'string' },
    filter: { type: 'string' },
    kernel: { type: 'string', multiple: true },
    'watchdog-ms': countOpt('watchdogMs'),
    replay: countOpt('replay'),
    sensitivity: { type: 'boolean' },
    ...LANE_CONTROL_OPTIONS,
  });
  const cli = cliOf(v);
  const base = shareBase(v['share-base'] as string | undefined);
  const proposal = v.proposal ? readProposal(v.proposal as string) : undefined;
  const replays = intOption(v, 'replay') ?? (v.sensitivity ? 10 : 1);
  if (replays < 1) throw new UsageError(`--replay must be a positive integer, got '${v.replay}'`);
  if (v.sensitivity && v.control !== undefined) throw new UsageError('--sensitivity runs its own controls (A/A and planted 1.02, 1.05, 1.10, 1.20× slowdowns, or --factors): give it without --control');
  const factors = parseFactors(v.factors as string | undefined);
  if (factors && !v.sensitivity) throw new UsageError('--factors goes with --sensitivity (the planted factors it replays)');
  const { repeat, repeatAuto } = parseRepeatOption(v);
  const given = ((v.shape as unknown as string[] | undefined) ?? []).map(parseCaseSpec);
  const kernels = markHung(((v.kernel as unknown as string[] | undefined) ?? []).map(readUserKernel));
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
  if (repeat === 1) process.stderr.write(`${REPEAT_ONE_WARNING}\n`);
  const lab = await cli.open(v.device as string | undefined);
  reportResumed();
  const progress = progressPrinter(process.stderr, cli.verbosity);
  const request = (c: LaneControl | undefined): LaneRequest => ({
    ops,
    repeat,
    repeatAuto,
    tolerance,
    prefer,
    allowUndecided: v['allow-undecided'] === true,
    control: c,
    undeclare: (v.undeclare as unknown as string[] | undefined) ?? [],
    seed: intOption(v, 'seed'),
    shapes: shapes.length ? shapes : undefined,
    proposal,
    kernels: kernels.length ? kernels : undefined,
    watchdogMs: intOption(v, 'watchdog-ms'),
  });
  try {
    if (v.sensitivity) {
      // Each control replayed in turn, in one session: A/A first, then the planted slowdowns.
      const byControl = new Map<LaneControl, LaneResult[]>();
      const controls = sensitivityControls(factors);
      const overall = new ReplayProgress(controls.length * replays, () => performance.now());
      for (const [ci, c] of controls.entries()) {
        for (let i = 0; i < replays; i++) {
          const r = await lab.lane(request(c), (p) => progress.update(overall.of(ci * replays + i, { ...p, label: `${c} replay ${i + 1}/${replays}: ${p.label}` })));
          overall.done(r.host?.buildMs);
          cli.detail(1, replayDetail(`${c} replay ${i + 1}/${replays}`, r));
          byControl.set(c, [...(byControl.get(c) ?? []), r]);
        }
      }
      progress.done();
      const report = sensitivityReport(byControl);
      out.text(formatSensitivity(report, replays, tolerance ?? DEFAULT_TOLERANCE));
      out.json({ kind: 'lane-sensitivity', replays, controls, shapes: report, groups: sensitivityGroups(report), lanes: Object.fromEntries([...byControl].map(([c, rs]) => [c, rs.map(laneJson)])) });
      return 0;
    }
    if (replays > 1) {
      const results: LaneResult[] = [];
      const overall = new ReplayProgress(replays, () => performance.now());
      for (let i = 0; i < replays; i++) {
        const r = await lab.lane(request(control), (p) => progress.update(overall.of(i, { ...p, label: `replay ${i + 1}/${replays}: ${p.label}` })));
        overall.done(r.host?.buildMs);
        cli.detail(1, replayDetail(`replay ${i + 1}/${replays}`, r));
        results.push(r);
      }
      progress.done();
      out.text(formatLane(results[results.length - 1]));
      const summary = summarizeReplays(results);
      out.text(formatReplays(summary, replays));
      out.json({ kind: 'lane-replay', replays, shapes: summary, lanes: results.map(laneJson) });
      return results.every((r) => r.green) ? 0 : 1;
    }
    let result: LaneResult;
    try {
      result = await lab.lane(request(control), progress.update);
    } catch (e) {
      // A hung user kernel on a software adapter: the lane goes on in a fresh process.
      progress.done();
      const code = respawnWithoutHung(e);
      if (code === null) throw e;
      return code;
    }
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
