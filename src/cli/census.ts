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

export const CENSUS_HELP = `  census [--preset tiny|1b|7b | --model FILE.gguf | --import FILE] [--batch N] [--context N]
         [--export FILE] [--json FILE|-]
                              the training step's graph as ggml builds it (forward, backward,
                              AdamW) and its census: per op nodes, bytes read and written, up
                              to six shapes, whether the lab has it; --model reads only the
                              GGUF header; --export/--import ggml's test-export-graph-ops text
`;

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

export async function cmdCensus(argv: string[]): Promise<number> {
  let v: Record<string, string | boolean | undefined>;
  try {
    v = parseArgs({
      args: argv,
      options: { preset: { type: 'string' }, model: { type: 'string' }, import: { type: 'string' }, batch: { type: 'string' }, context: { type: 'string' }, export: { type: 'string' }, json: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
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
