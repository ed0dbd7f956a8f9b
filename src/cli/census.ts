// `npm run lab -- census`: the training step's census for a preset or a GGUF file's header
// (only the header is read, by ranged reads of the file), or for a graph in ggml's
// test-export-graph-ops text format (--import); --export writes that format. No device needed.
import { open } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { UsageError } from '../core/errors';
import { formatCensus, takeCensus } from '../core/census/census';
import { allLines, formatGraphText, graphLines, parseGraphText, type GraphLine } from '../core/census/ggml-text';
import { readGgufHeader, type ByteSource } from '../core/census/gguf';
import { buildTrainingGraph } from '../core/census/graph';
import { configFromGguf, PRESETS, presetByName, withRun, type ModelConfig } from '../core/census/model-config';
import { readCappedText } from './read-capped';
import { formatGraphRun, type GraphRunRequest, type GraphRunResult } from '../core/census/graph-report';
import { checkOutputPath } from './output-paths';
import { progressPrinter } from './progress';
import { censusShapes, graphSupport } from '../core/census/census-shapes';
import { labOpName } from '../core/census/census';
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
  lane --census [--preset micro|tiny|1b|7b | --model FILE.gguf] [--top N] [--run-graph]
         [--repeat N] [--tolerance X] [--prefer OP]... [--runtime node|browser] [--json FILE|-]
                              times the census's shapes (distinct op, dims, layout the real graph
                              sends, params; ranked by bytes; the first N, default 10) native vs
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

/** Steps of one --run. */
export const MAX_GRAPH_RUN_STEPS = 10000;

/** Bytes of an --import file. */
export const MAX_GRAPH_TEXT_BYTES = 64 * 1024 * 1024;

function positive(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got '${v}'`);
  return n;
}

async function fileSource(path: string): Promise<{ src: ByteSource; close: () => Promise<void> }> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    throw new UsageError(`--model: cannot read ${path}: ${(e as Error).message}`);
  }
  const st = await fh.stat();
  if (!st.isFile()) {
    await fh.close();
    throw new UsageError(`--model: ${path} is not a regular file`);
  }
  return {
    src: {
      sizeBytes: st.size,
      read: async (offset, length) => {
        const buf = new Uint8Array(Math.max(0, Math.min(length, st.size - offset)));
        const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
        return buf.subarray(0, bytesRead);
      },
    },
    close: () => fh.close(),
  };
}

/** The model of --preset (default tiny) or --model (its GGUF header), at --batch/--context. */
async function configFromArgs(v: Record<string, string | boolean | undefined>, nBatch: number | undefined, nCtx: number | undefined): Promise<ModelConfig> {
  let config: ModelConfig;
  if (v.model !== undefined) {
    const { src, close } = await fileSource(v.model as string);
    try {
      const header = await readGgufHeader(src).catch((e: Error) => {
        throw new UsageError(`--model ${v.model}: ${e.message}`);
      });
      config = configFromGguf(header, { nCtx: nCtx ?? PRESETS.tiny.nCtx, nBatch: nBatch ?? 1 });
    } finally {
      await close();
    }
  } else {
    config = withRun(presetByName((v.preset as string | undefined) ?? 'tiny'), { nBatch, nCtx });
  }
  return config;
}

export async function cmdCensus(argv: string[]): Promise<number> {
  let v: Record<string, string | boolean | undefined>;
  try {
    v = parseArgs({
      args: argv,
      options: {
        preset: { type: 'string' }, model: { type: 'string' }, import: { type: 'string' }, batch: { type: 'string' }, context: { type: 'string' }, export: { type: 'string' }, json: { type: 'string' },
        run: { type: 'boolean' }, steps: { type: 'string' }, seed: { type: 'string' }, native: { type: 'boolean' }, 'no-check': { type: 'boolean' }, lr: { type: 'string' }, 'memory-gib': { type: 'string' }, runtime: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const runOnly = ['steps', 'seed', 'native', 'no-check', 'lr', 'memory-gib', 'runtime'].filter((k) => v[k] !== undefined);
  if (!v.run && runOnly.length) throw new UsageError(`${runOnly.map((k) => `--${k}`).join(', ')} shape a graph run: add --run`);
  if (v.run && (v.import !== undefined || v.export !== undefined)) throw new UsageError('--run builds the graph from a preset or a GGUF header: --import and --export are for the census');
  const sources = ['preset', 'model', 'import'].filter((k) => v[k] !== undefined);
  if (sources.length > 1) throw new UsageError(`give one of --preset, --model, --import (got ${sources.map((s) => `--${s}`).join(', ')})`);
  const nBatch = positive(v.batch as string | undefined, 'batch');
  const nCtx = positive(v.context as string | undefined, 'context');
  let lines: GraphLine[]; // what the census counts
  let exported: GraphLine[]; // what --export writes (computing nodes)
  let title: string;
  let config: ModelConfig | null = null;
  if (v.import !== undefined) {
    if (nBatch || nCtx) throw new UsageError('--batch and --context shape a built graph: an imported one has its shapes');
    try {
      lines = parseGraphText(readCappedText(v.import as string, MAX_GRAPH_TEXT_BYTES, '--import'));
    } catch (e) {
      if ((e as Error).name === 'GraphTextError') throw new UsageError(`--import ${v.import}: ${(e as Error).message}`);
      throw e;
    }
    exported = lines;
    title = `${v.import} (${lines.length} ops imported)`;
  } else {
    config = await configFromArgs(v, nBatch, nCtx);
    if (v.run) return runGraphCommand(config, v);
    const graph = buildTrainingGraph(config);
    lines = allLines(graph);
    exported = graphLines(graph);
    title = `${config.name} (vocab ${config.nVocab}, embd ${config.nEmbd}, heads ${config.nHead}/${config.nHeadKv} KV, ${config.nLayer} layers, FFN ${config.nFf}, context ${config.nCtx}, batch ${config.nBatch})`;
  }
  const census = takeCensus(lines);
  const toStdout = v.json === '-';
  (toStdout ? process.stderr : process.stdout).write(formatCensus(census, title) + '\n');
  if (v.export !== undefined) writeFileSync(v.export as string, formatGraphText(exported));
  if (v.json !== undefined) {
    const text = JSON.stringify({ kind: 'census', config, ...census }, null, 2) + '\n';
    if (toStdout) process.stdout.write(text);
    else writeFileSync(v.json as string, text);
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
  const steps = positive(v.steps as string | undefined, 'steps') ?? 20;
  if (steps > MAX_GRAPH_RUN_STEPS) throw new UsageError(`--steps ${steps} is over the cap of ${MAX_GRAPH_RUN_STEPS}`);
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
    else writeFileSync(v.json as string, text);
  }
  return result.check && !result.check.ok ? 1 : 0;
}

/** Shapes `lane --census` times when --top is not given. */
export const DEFAULT_CENSUS_TOP = 10;

/** `lane --census`: the census's shapes through the lane, and the retire checklist per pair. */
export async function cmdLaneCensus(argv: string[]): Promise<number> {
  let v: Record<string, string | boolean | string[] | undefined>;
  try {
    v = parseArgs({
      args: argv,
      options: {
        census: { type: 'boolean' }, preset: { type: 'string' }, model: { type: 'string' }, batch: { type: 'string' }, context: { type: 'string' }, top: { type: 'string' },
        'run-graph': { type: 'boolean' }, repeat: { type: 'string' }, tolerance: { type: 'string' }, seed: { type: 'string' }, prefer: { type: 'string', multiple: true }, runtime: { type: 'string' }, json: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    throw new UsageError(`lane --census: ${(e as Error).message}`);
  }
  if (v.preset !== undefined && v.model !== undefined) throw new UsageError('give one of --preset, --model');
  const top = positive(v.top as string | undefined, 'top') ?? DEFAULT_CENSUS_TOP;
  const repeat = positive(v.repeat as string | undefined, 'repeat');
  const seed = v.seed === undefined ? undefined : Number(v.seed);
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0)) throw new UsageError(`--seed must be an integer ≥ 0, got '${v.seed}'`);
  const tolerance = v.tolerance === undefined ? undefined : Number(v.tolerance);
  if (tolerance !== undefined && !(tolerance >= 0 && tolerance < 1)) throw new UsageError(`--tolerance must be a number in [0, 1), got '${v.tolerance}'`);
  const prefer = ((v.prefer as string[] | undefined) ?? []).map((o) => opByName(o).name);
  checkOutputPath('--json', v.json as string | undefined);
  const config = await configFromArgs(v as Record<string, string | boolean | undefined>, positive(v.batch as string | undefined, 'batch'), positive(v.context as string | undefined, 'context'));
  const graph = buildTrainingGraph(config);
  const { shapes, unfit } = censusShapes(graph);
  const picked = shapes.slice(0, top);
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
    `lane --census: ${config.name}: ${shapes.length} distinct shapes in declared layouts (the first ${picked.length} by bytes timed), ${unfit.length} with no declared layout`,
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
    else writeFileSync(v.json as string, text);
  }
  return lane.green && (!run?.check || run.check.ok) ? 0 : 1;
}
