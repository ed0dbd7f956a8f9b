// One census, from a preset, a GGUF file's header or ggml's graph text, with every cap checked
// on the way: what the CLI's `census` and the page's Census view (through LabApi.census, in the
// worker, so a large model never freezes the tab) both run. Byte counts are refused once they
// pass 2^53, where a sum of them would no longer be exact.
import { LabError } from '../errors';
import type { AdapterIdentity } from '../ops/promotion';
import { takeCensus, type Census } from './census';
import { allLines, DEDUPLICATED_NOTE, graphLines, isDeduplicated, parseGraphText, type GraphLine } from './ggml-text';
import { blobSource, readGgufHeader, type ByteSource } from './gguf';
import { buildTrainingGraph } from './graph';
import { configFromGguf, PRESETS, presetByName, withRun, type ModelConfig } from './model-config';

/** A census whose byte counts pass 2^53 (exact integers end there). */
export class CensusSizeError extends LabError {
  override name = 'CensusSizeError';
}

export type CensusRequest = { readonly nBatch?: number; readonly nCtx?: number; readonly adapter?: AdapterIdentity } & (
  | { readonly kind: 'preset'; readonly preset: string }
  /** A File or Blob (the page's picker: it crosses to the worker as a handle, not its bytes). */
  | { readonly kind: 'gguf'; readonly file: Blob; readonly name?: string }
  | { readonly kind: 'text'; readonly text: string; readonly name: string }
);

export interface CensusReport {
  readonly title: string;
  /** The model, or null for an imported graph. */
  readonly config: ModelConfig | null;
  readonly census: Census;
  /** Said beside the table (a de-duplicated import), or null. */
  readonly note: string | null;
  readonly buildMs: number;
}

/** The report plus the lines (what the CLI's --export writes). */
export interface CensusWithLines extends CensusReport {
  readonly exported: readonly GraphLine[];
}

/** A GGUF header's model: the file from a ByteSource (Node's file handle) or a Blob. */
async function ggufConfig(src: ByteSource, run: { nCtx?: number; nBatch?: number; name?: string }): Promise<ModelConfig> {
  const header = await readGgufHeader(src);
  return configFromGguf(header, { nCtx: run.nCtx ?? PRESETS.tiny.nCtx, nBatch: run.nBatch ?? 1, name: run.name });
}

export function configTitle(c: ModelConfig): string {
  return `${c.name} (vocab ${c.nVocab}, embd ${c.nEmbd}, heads ${c.nHead}/${c.nHeadKv} KV, ${c.nLayer} layers, FFN ${c.nFf}, context ${c.nCtx}, batch ${c.nBatch})`;
}

/** Refuses a census whose counts are no longer exact integers. */
export function assertExactCounts(c: Census, what: string): void {
  let total = 0;
  for (const r of c.rows) {
    total += r.bytesRead + r.bytesWritten;
    if (!Number.isSafeInteger(r.bytesRead) || !Number.isSafeInteger(r.bytesWritten) || !Number.isSafeInteger(total)) {
      throw new CensusSizeError(`${what}: the bytes its ${r.op} nodes move (or the total) pass 2^53, where counts stop being exact: refused`);
    }
  }
}

/**
 * The model a preset or GGUF request names, every cap checked (model-config.ts), without building
 * its graph: what the graph run and `lane --census` start from.
 */
export async function modelConfigOf(req: Exclude<CensusRequest, { kind: 'text' }>, source?: ByteSource): Promise<ModelConfig> {
  const run = { nBatch: req.nBatch, nCtx: req.nCtx };
  return req.kind === 'preset' ? withRun(presetByName(req.preset), run) : ggufConfig(source ?? blobSource(req.file), { ...run, name: req.name });
}

/**
 * The census of a request. `source` replaces the request's Blob with a ByteSource (the CLI's
 * file handle); in the worker the Blob is read by slices.
 */
export async function censusOf(req: CensusRequest, source?: ByteSource): Promise<CensusWithLines> {
  const t0 = performance.now();
  if (req.kind === 'text') {
    const lines = parseGraphText(req.text);
    const census = takeCensus(lines, req.adapter);
    assertExactCounts(census, req.name);
    return { title: `${req.name} (${lines.length} ops imported)`, config: null, census, note: isDeduplicated(lines) ? DEDUPLICATED_NOTE : null, buildMs: performance.now() - t0, exported: lines };
  }
  const config = await modelConfigOf(req, source);
  const graph = buildTrainingGraph(config);
  const census = takeCensus(allLines(graph), req.adapter);
  assertExactCounts(census, config.name);
  return { title: configTitle(config), config, census, note: null, buildMs: performance.now() - t0, exported: graphLines(graph) };
}
