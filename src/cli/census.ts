// `npm run lab -- census`: the training step's census for a preset or a GGUF file's header
// (only the header is read, by ranged reads of the file), or for a graph in ggml's
// test-export-graph-ops text format (--import); --export writes that format. No device needed.
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { UsageError } from '../core/errors';
import { formatCensus } from '../core/census/census';
import { censusOf, type CensusWithLines } from '../core/census/census-request';
import { formatGraphText } from '../core/census/ggml-text';
import type { ByteSource } from '../core/census/gguf';
import { GRAPH_TEXT_CAPS, MODEL_CAPS } from '../core/input/caps';
import { checkCountOptions } from '../core/input/counts';
import { checkOutputPath, writeOutput } from './output-paths';
import { readCappedText } from './read-capped';

export const CENSUS_HELP = `  census [--preset tiny|1b|7b | --model FILE.gguf | --import FILE] [--batch N] [--context N]
         [--export FILE] [--json FILE|-]
                              the training step's graph as ggml builds it (forward, backward,
                              AdamW) and its census: per op nodes, bytes read and written, up
                              to six shapes, whether the lab has it; --model reads only the
                              GGUF header; --export/--import ggml's test-export-graph-ops text
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
  checkCountOptions(v); // a --steps (graph runs) past RUN_CAPS is refused here like every count
  const sources = ['preset', 'model', 'import'].filter((k) => v[k] !== undefined);
  if (sources.length > 1) throw new UsageError(`give one of --preset, --model, --import (got ${sources.map((s) => `--${s}`).join(', ')})`);
  const nBatch = positive(v.batch as string | undefined, 'batch', MODEL_CAPS.nBatch);
  const nCtx = positive(v.context as string | undefined, 'context', MODEL_CAPS.nCtx);
  // Output files are checked before the work (a full disk is named when the write fails).
  checkOutputPath('--export', v.export as string | undefined);
  checkOutputPath('--json', v.json as string | undefined);
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
