// `npm run lab -- census`: the training step's census for a preset or a GGUF file's header
// (only the header is read, by ranged reads of the file), or for a graph in ggml's
// test-export-graph-ops text format (--import); --export writes that format. No device needed.
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { UsageError } from '../core/errors';
import { formatCensus } from '../core/census/census';
import { censusOf, modelConfigOf, type CensusWithLines } from '../core/census/census-request';
import { formatGraphText } from '../core/census/ggml-text';
import type { ByteSource } from '../core/census/gguf';
import { GRAPH_TEXT_CAPS, MODEL_CAPS } from '../core/input/caps';
import { checkOutputPath, writeOutput } from './output-paths';
import { readCappedText } from './read-capped';
import { formatGraphRun, type GraphRunRequest, type GraphRunResult } from '../core/census/graph-report';
import { progressPrinter } from './progress';
import { censusShapes, graphSupport } from '../core/census/census-shapes';
import { labOpName } from '../core/census/census';
import { buildTrainingGraph } from '../core/census/graph';
import type { ModelConfig } from '../core/census/model-config';
import { checkCountOptions, countDeclaration, countOption } from '../core/input/counts';
import { retireChecklist, retireProposal, type GraphRunCount } from '../core/ops/promotion';
import { opByName } from '../core/ops/registry';
import type { LaneRequest, LaneResult } from '../core/results';
import type { AdapterDescriptor } from '../core/adapter';
import { formatLane } from '../core/report/lane-text';
import { laneJson } from '../core/report/json';

export const CENSUS_HELP = `  census [--preset micro|tiny|1b|7b | --model FILE.gguf | --import FILE] [--batch N] [--context N]
         [--export FILE] [--json FILE|-]
                              the training step's graph as ggml builds it (forward, backward,
                              AdamW) and its census: per op nodes, bytes read and written, up
                              to six shapes, whether the lab has it; --model reads only the
                              GGUF header; --export/--import ggml's test-export-graph-ops text
  lane --census [--preset micro|tiny|1b|7b | --model FILE.gguf] [--top N] [--op OP]... [--run-graph]
         [--repeat N] [--tolerance X] [--prefer OP]... [--runtime node|browser] [--json FILE|-]
                              times the census's shapes (distinct op, dims, layout the real graph
                              sends, params; ranked by bytes; the first N, default 10, of the
                              --op ops when given) native vs
                              generated with the lane's verdicts; lists the nodes no declared
                              layout fits; per pair the retire checklist (--run-graph runs one
                              checked step of the graph for its graph item) and a proposal
  census --run [--preset tiny | --model FILE.gguf] [--steps N] [--seed N] [--native] [--no-check]
         [--lr X] [--memory-gib N] [--runtime node|browser] [--json FILE|-]
                              runs the step node by node on the GPU with the registry's kernels
                              (buffers allocated once), N steps from seeded weights and tokens:
                              per op dispatches generated/native/fallback and time per step,
                              the loss per step; step 1 checked against a CPU f64 evaluation
                              (loss and every parameter; exit 1 when it fails)
`;

/** Bytes of an --import file. */
export const MAX_GRAPH_TEXT_BYTES = GRAPH_TEXT_CAPS.bytes;

/** --batch / --context: digits only, 1 to the model cap (--context 1e9 once built for minutes). */
function positive(v: string | undefined, name: 'batch' | 'context', cap: number): number | undefined {
  if (v === undefined) return undefined;
  if (!/^[0-9]+$/.test(v.trim()) || Number(v) < 1) throw new UsageError(`--${name} must be a whole number from 1 to ${cap}, got '${v.slice(0, 40)}'`);
  const n = Number(v);
  if (n > cap) throw new UsageError(`--${name} is ${v.slice(0, 40)}, above the cap of ${cap} (docs/input-limits.md)`);
  return n;
}

async function fileSource(path: string): Promise<{ src: ByteSource; close: () => Promise<void> }> {
  // Checked before open(): opening a FIFO for reading blocks until a writer comes.
  let st;
  try {
    st = await stat(path);
  } catch (e) {
    throw new UsageError(`--model: cannot read ${path}: ${(e as Error).message}`);
  }
  if (!st.isFile()) throw new UsageError(`--model: ${path} is not a regular file (a GGUF model is read by ranged reads)`);
  let fh;
  try {
    // O_NONBLOCK: should the path become a FIFO after the check, open() still returns at once.
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new UsageError(`--model: cannot read ${path}: ${(e as Error).message}`);
  }
  const fst = await fh.stat();
  if (!fst.isFile()) {
    await fh.close();
    throw new UsageError(`--model: ${path} is not a regular file`);
  }
  return {
    src: {
      sizeBytes: fst.size,
      read: async (offset, length) => {
        const buf = new Uint8Array(Math.max(0, Math.min(length, fst.size - offset)));
        const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
        return buf.subarray(0, bytesRead);
      },
    },
    close: () => fh.close(),
  };
}

/** A refusal of the input (a cap, a bad header or line) is a usage error naming the file. */
const INPUT_ERRORS = new Set(['GgufError', 'GraphTextError', 'ModelConfigError', 'CensusSizeError']);

const CENSUS_OPTIONS = {
  preset: { type: 'string' }, model: { type: 'string' }, import: { type: 'string' }, batch: { type: 'string' }, context: { type: 'string' }, export: { type: 'string' }, json: { type: 'string' },
  run: { type: 'boolean' }, steps: countDeclaration('steps'), seed: countDeclaration('seed'), native: { type: 'boolean' }, 'no-check': { type: 'boolean' }, lr: { type: 'string' }, 'memory-gib': { type: 'string' }, runtime: { type: 'string' },
} as const;

export async function cmdCensus(argv: string[]): Promise<number> {
  let v: Record<string, string | boolean | undefined>;
  try {
    v = parseArgs({ args: argv, options: CENSUS_OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  checkCountOptions(v, CENSUS_OPTIONS); // a --steps (graph runs) past RUN_CAPS is refused here like every count
  const runOnly = ['steps', 'seed', 'native', 'no-check', 'lr', 'memory-gib', 'runtime'].filter((k) => v[k] !== undefined);
  if (!v.run && runOnly.length) throw new UsageError(`${runOnly.map((k) => `--${k}`).join(', ')} shape a graph run: add --run`);
  if (v.run && (v.import !== undefined || v.export !== undefined)) throw new UsageError('--run builds the graph from a preset or a GGUF header: --import and --export are for the census');
  const sources = ['preset', 'model', 'import'].filter((k) => v[k] !== undefined);
  if (sources.length > 1) throw new UsageError(`give one of --preset, --model, --import (got ${sources.map((s) => `--${s}`).join(', ')})`);
  const nBatch = positive(v.batch as string | undefined, 'batch', MODEL_CAPS.nBatch);
  const nCtx = positive(v.context as string | undefined, 'context', MODEL_CAPS.nCtx);
  // Output files are checked before the work (a full disk is named when the write fails).
  checkOutputPath('--export', v.export as string | undefined);
  checkOutputPath('--json', v.json as string | undefined);
  // The graph run starts from the model (every cap checked), not from a census it would not use.
  if (v.run) return runGraphCommand(await configFromArgs(v), v);
  let report: CensusWithLines;
  const label = v.import !== undefined ? `--import ${v.import}` : v.model !== undefined ? `--model ${v.model}` : `--preset ${v.preset ?? 'tiny'}`;
  try {
    if (v.import !== undefined) {
      if (nBatch || nCtx) throw new UsageError('--batch and --context shape a built graph: an imported one has its shapes');
      report = await censusOf({ kind: 'text', text: readCappedText(v.import as string, MAX_GRAPH_TEXT_BYTES, '--import'), name: v.import as string });
    } else if (v.model !== undefined) {
      const { src, close } = await fileSource(v.model as string);
      try {
        report = await censusOf({ kind: 'gguf', file: new Blob([]), nBatch, nCtx }, src);
      } finally {
        await close();
      }
    } else {
      report = await censusOf({ kind: 'preset', preset: (v.preset as string | undefined) ?? 'tiny', nBatch, nCtx });
    }
  } catch (e) {
    if (INPUT_ERRORS.has((e as Error).name)) throw new UsageError(`${label}: ${(e as Error).message}`);
    throw e;
  }
  const { census, config } = report;
  const toStdout = v.json === '-';
  (toStdout ? process.stderr : process.stdout).write(formatCensus(census, report.title) + '\n' + (report.note ? `note: ${report.note}\n` : ''));
  if (v.export !== undefined) writeOutput('--export', v.export as string, formatGraphText(report.exported));
  if (v.json !== undefined) {
    const text = JSON.stringify({ kind: 'census', config, ...(report.note ? { note: report.note } : {}), ...census }, null, 2) + '\n';
    if (toStdout) process.stdout.write(text);
    else writeOutput('--json', v.json as string, text);
  }
  return 0;
}

function positiveNumber(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!(Number.isFinite(n) && n > 0)) throw new UsageError(`--${name} must be a positive number, got '${v}'`);
  return n;
}

/** `census --run`: the graph run through the engine of the chosen runtime. */
async function runGraphCommand(config: ModelConfig, v: Record<string, string | boolean | undefined>): Promise<number> {
  const steps = countOption(v, 'steps') ?? 20;
  const seed = Number(v.seed ?? 1);
  if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`--seed must be an integer ≥ 0, got '${v.seed}'`);
  const lr = positiveNumber(v.lr as string | undefined, 'lr');
  const gib = positiveNumber(v['memory-gib'] as string | undefined, 'memory-gib');
  const runtime = (v.runtime as string | undefined) ?? 'node';
  checkOutputPath('--json', v.json as string | undefined);
  const req: GraphRunRequest = {
    config,
    steps,
    seed,
    variant: v.native ? 'native' : 'auto',
    check: !v['no-check'],
    ...(lr !== undefined ? { adamw: { alpha: lr } } : {}),
    ...(gib !== undefined ? { memoryBudgetBytes: Math.floor(gib * 2 ** 30) } : {}),
  };
  const lab = runtime === 'node' ? await (await import('./runtime-node')).openNodeEngine() : runtime === 'browser' ? await (await import('./runtime-browser')).openBrowserEngine() : null;
  if (!lab) throw new UsageError(`--runtime must be node or browser, got '${runtime}'`);
  const progress = progressPrinter(process.stderr);
  let result: GraphRunResult;
  try {
    result = await lab.graphRun(req, (p) => progress.update(p));
  } finally {
    progress.done();
    await lab.close();
  }
  const toStdout = v.json === '-';
  (toStdout ? process.stderr : process.stdout).write(formatGraphRun(result) + '\n');
  if (v.json !== undefined) {
    const text = JSON.stringify(result, null, 2) + '\n';
    if (toStdout) process.stdout.write(text);
    else writeOutput('--json', v.json as string, text);
  }
  return result.check && !result.check.ok ? 1 : 0;
}

/** The model of --preset (default tiny) or --model, at --batch/--context: through the census's own checks and caps. */
async function configFromArgs(v: Record<string, string | boolean | undefined>): Promise<ModelConfig> {
  const nBatch = positive(v.batch as string | undefined, 'batch', MODEL_CAPS.nBatch);
  const nCtx = positive(v.context as string | undefined, 'context', MODEL_CAPS.nCtx);
  const label = v.model !== undefined ? `--model ${v.model}` : `--preset ${v.preset ?? 'tiny'}`;
  try {
    if (v.model !== undefined) {
      const { src, close } = await fileSource(v.model as string);
      try {
        return await modelConfigOf({ kind: 'gguf', file: new Blob([]), nBatch, nCtx }, src);
      } finally {
        await close();
      }
    }
    return await modelConfigOf({ kind: 'preset', preset: (v.preset as string | undefined) ?? 'tiny', nBatch, nCtx });
  } catch (e) {
    if (INPUT_ERRORS.has((e as Error).name)) throw new UsageError(`${label}: ${(e as Error).message}`);
    throw e;
  }
}

/** --top N: the shapes `lane --census` times (at most the census's distinct shapes). */
export const MAX_CENSUS_TOP = 1000;
function topOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text.trim()) || Number(text) < 1 || Number(text) > MAX_CENSUS_TOP) throw new UsageError(`--top must be a whole number from 1 to ${MAX_CENSUS_TOP}, got '${text.slice(0, 40)}'`);
  return Number(text);
}

const nodesOf = (xs: readonly { nodes: number }[]) => xs.reduce((a, x) => a + x.nodes, 0);

/** Shapes `lane --census` times when --top is not given. */
export const DEFAULT_CENSUS_TOP = 10;

/** `lane --census`: the census's shapes through the lane, and the retire checklist per pair. */
export async function cmdLaneCensus(argv: string[]): Promise<number> {
  let v: Record<string, string | boolean | string[] | undefined>;
  try {
    v = parseArgs({
      args: argv,
      options: {
        census: { type: 'boolean' }, preset: { type: 'string' }, model: { type: 'string' }, batch: { type: 'string' }, context: { type: 'string' }, top: { type: 'string' }, op: { type: 'string', multiple: true },
        'run-graph': { type: 'boolean' }, repeat: countDeclaration('repeat'), tolerance: { type: 'string' }, seed: { type: 'string' }, prefer: { type: 'string', multiple: true }, runtime: { type: 'string' }, json: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    throw new UsageError(`lane --census: ${(e as Error).message}`);
  }
  if (v.preset !== undefined && v.model !== undefined) throw new UsageError('give one of --preset, --model');
  const top = topOption(v.top as string | undefined) ?? DEFAULT_CENSUS_TOP;
  const repeat = countOption(v, 'repeat');
  const seed = v.seed === undefined ? undefined : Number(v.seed);
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0)) throw new UsageError(`--seed must be an integer ≥ 0, got '${v.seed}'`);
  const tolerance = v.tolerance === undefined ? undefined : Number(v.tolerance);
  if (tolerance !== undefined && !(tolerance >= 0 && tolerance < 1)) throw new UsageError(`--tolerance must be a number in [0, 1), got '${v.tolerance}'`);
  const prefer = ((v.prefer as string[] | undefined) ?? []).map((o) => opByName(o).name);
  checkOutputPath('--json', v.json as string | undefined);
  const config = await configFromArgs(v as Record<string, string | boolean | undefined>);
  const graph = buildTrainingGraph(config);
  const { shapes, unfit } = censusShapes(graph);
  // --op: only those ops' shapes (the rest of the census still ranks them; the first N of these are timed)
  const only = ((v.op as string[] | undefined) ?? []).map((o) => opByName(o).name);
  const picked = shapes.filter((s) => !only.length || only.includes(s.op)).slice(0, top);
  const runtime = (v.runtime as string | undefined) ?? 'node';
  const lab = runtime === 'node' ? await (await import('./runtime-node')).openNodeEngine() : runtime === 'browser' ? await (await import('./runtime-browser')).openBrowserEngine() : null;
  if (!lab) throw new UsageError(`--runtime must be node or browser, got '${runtime}'`);
  const progress = progressPrinter(process.stderr);
  let lane: LaneResult;
  let run: GraphRunResult | null = null;
  let adapter: AdapterDescriptor;
  try {
    adapter = await lab.adapter();
    const req: LaneRequest = { shapes: picked.map((s) => ({ op: s.op, dims: [...s.dims], layout: s.layout, ...(s.params ? { params: { ...s.params } } : {}) })), repeat, tolerance, seed, prefer };
    lane = await lab.lane(req, (p) => progress.update(p));
    if (v['run-graph']) run = await lab.graphRun({ config, steps: 1, seed: seed ?? 1, variant: 'auto', check: true }, (p) => progress.update({ ...p, label: `graph run: ${p.label}` }));
  } finally {
    progress.done();
    await lab.close();
  }
  const support = graphSupport(graph, adapter);
  const retire = lane.pairs.map((pair) => {
    const byOp = run?.perOp.filter((o) => labOpName(o.op) === pair.op) ?? [];
    const count: GraphRunCount | null = run
      ? { nodes: byOp.reduce((a, o) => a + o.nodes, 0), generated: byOp.reduce((a, o) => a + o.generated, 0), fallbacks: byOp.flatMap((o) => o.fallbacks), checked: run.check?.ok ?? null }
      : null;
    const items = retireChecklist(support.get(pair.op) ?? { nodes: 0, generated: 0, declared: {}, other: {} }, count, true);
    return { op: pair.op, state: pair.state, items, proposal: retireProposal(pair.state, pair.checklist, items) };
  });
  const lines = [
    `lane --census: ${config.name}: ${shapes.length} distinct shapes in declared layouts (${nodesOf(shapes)} nodes; the first ${picked.length} by bytes${only.length ? ` of ${only.join(', ')}` : ''} timed), ${unfit.length} with no declared layout (${nodesOf(unfit)} nodes)`,
    formatLane(lane),
    ...(unfit.length ? ['shapes the real graph sends that no declared layout fits (not timed):', ...unfit.slice(0, top).map((u) => `  ${u.op} ${u.dims.join('x')} (${u.nodes} nodes): ${u.why}`)] : []),
    ...(run ? [formatGraphRun(run)] : []),
    'retire checklist (per pair; a proposal is never written: the registry edit is reviewed):',
    ...retire.flatMap((r) => [
      `  ${r.op} (${r.state}): ${r.proposal.propose ? 'PROPOSE retired' : 'keep'} — ${r.proposal.why}`,
      ...r.items.map((i) => `    [${i.pass === null ? '-' : i.pass ? 'x' : ' '}] ${i.title}: ${i.evidence}`),
    ]),
  ];
  const toStdout = v.json === '-';
  (toStdout ? process.stderr : process.stdout).write(lines.join('\n') + '\n');
  if (v.json !== undefined) {
    const text = JSON.stringify({ kind: 'lane-census', config, shapes: picked, unfit, lane: laneJson(lane), graphRun: run, retire }, null, 2) + '\n';
    if (toStdout) process.stdout.write(text);
    else writeOutput('--json', v.json as string, text);
  }
  return lane.green && (!run?.check || run.check.ok) ? 0 : 1;
}
