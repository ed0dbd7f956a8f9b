// `lab report RUN.json… [FOLDER…] [LINK…]`: many runs, many adapters, one table. Inputs are read
// one at a time (each capped), validated, reduced to their cells and dropped, so memory stays
// bounded by the report, not by the files. A bad input is refused by name and the rest still
// report; the exit code says something was refused.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../core/errors';
import { buildCrossAdapterReport, MAX_REPORT_INPUTS, type CrossAdapterReport } from '../core/report/cross-adapter';
import { crossReportHtml, crossReportMarkdown, crossReportText, registryEdits } from '../core/report/cross-adapter-render';
import { encodeCrossReportLink } from '../core/report/cross-adapter-share';
import { decodeShare, SHARE_HASH_PREFIX } from '../core/report/share';
import { validateResult } from '../core/report/validate';
import type { ResultJson } from '../core/report/json';
import { checkOutputPath, writeOutput } from './output-paths';
import { readCappedText } from './read-capped';
import { shareBase, SHARE_OPTIONS } from './share-output';

/** One result file's cap (a full lane over every op with user columns stays well under it). */
export const MAX_REPORT_FILE_BYTES = 16 * 1024 * 1024;
/** How deep a folder argument is walked for *.json files. */
export const MAX_REPORT_FOLDER_DEPTH = 4;

export const REPORT_HELP = `report RUN.json|FOLDER|LINK… [--markdown F] [--html F] [--json F] [--registry] [--allow-stale]
       merges lane, Level 1, sweep, formats and calibration results of many adapters into one table
       (a column per adapter; ratios never cross adapters); --registry prints the registry
       edits the evidence supports per adapter class (never written); exit 2 when an input
       was refused (named in the report)`;

interface Input {
  readonly source: string;
  readonly read: () => Promise<unknown>;
}

/** Files named, folders walked (sorted, *.json, bounded depth and count), links as given. */
export function listInputs(args: readonly string[]): { inputs: Input[]; refused: { source: string; note: string }[] } {
  const inputs: Input[] = [];
  const refused: { source: string; note: string }[] = [];
  const push = (i: Input) => {
    if (inputs.length >= MAX_REPORT_INPUTS) throw new UsageError(`report takes at most ${MAX_REPORT_INPUTS} results; the arguments name more (split the report or pass fewer folders)`);
    inputs.push(i);
  };
  const fileInput = (path: string): Input => ({ source: path, read: async () => JSON.parse(readCappedText(path, MAX_REPORT_FILE_BYTES, 'report')) });
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (e) {
      refused.push({ source: dir, note: `cannot read the folder: ${(e as Error).message}` });
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const st = lstatSync(path);
      if (st.isDirectory()) {
        if (depth < MAX_REPORT_FOLDER_DEPTH) walk(path, depth + 1);
        else refused.push({ source: path, note: `deeper than ${MAX_REPORT_FOLDER_DEPTH} folders: not read` });
      } else if (st.isFile() && name.endsWith('.json')) push(fileInput(path));
    }
  };
  for (const arg of args) {
    const hash = arg.indexOf(SHARE_HASH_PREFIX);
    if (hash >= 0) {
      push({ source: arg.length > 60 ? `${arg.slice(0, 57)}…` : arg, read: async () => ({ link: arg.slice(hash + SHARE_HASH_PREFIX.length) }) });
      continue;
    }
    let st;
    try {
      st = lstatSync(arg);
    } catch {
      refused.push({ source: arg, note: 'no such file, folder or share link' });
      continue;
    }
    if (st.isDirectory()) walk(arg, 1);
    else if (st.isFile()) push(fileInput(arg));
    else refused.push({ source: arg, note: 'not a regular file or folder (a FIFO, device or socket is not read)' });
  }
  return { inputs, refused };
}

/** A --json file holds one result, or `time --op all`'s table of Level 1 results. */
function resultsOf(value: unknown): unknown[] {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, 'kind') && (value as { kind: unknown }).kind === 'level1-table') {
    const list = (value as { results?: unknown }).results;
    if (Array.isArray(list)) return list;
  }
  return [value];
}

/** Reads every input (one at a time), keeping only validated results and the refusals. */
export async function readReportInputs(args: readonly string[]): Promise<{ results: { source: string; result: ResultJson }[]; refused: { source: string; note: string }[] }> {
  const { inputs, refused } = listInputs(args);
  const results: { source: string; result: ResultJson }[] = [];
  for (const input of inputs) {
    let value: unknown;
    try {
      value = await input.read();
      if (value && typeof value === 'object' && 'link' in value) value = await decodeShare((value as { link: string }).link);
    } catch (e) {
      refused.push({ source: input.source, note: (e as Error).message });
      continue;
    }
    const list = resultsOf(value);
    list.forEach((item, i) => {
      const source = list.length > 1 ? `${input.source}[${i}]` : input.source;
      try {
        const kind = item && typeof item === 'object' ? (item as { kind?: unknown }).kind : undefined;
        if (kind === 'report') throw new Error('a kernel-lab report, not a result: pass the result files it was made from');
        results.push({ source, result: validateResult(item) });
      } catch (e) {
        refused.push({ source, note: (e as Error).message });
      }
    });
  }
  return { results, refused };
}

export async function cmdReport(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { json: { type: 'string' }, html: { type: 'string' }, registry: { type: 'boolean' }, 'allow-stale': { type: 'boolean' }, ...SHARE_OPTIONS },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  for (const flag of ['json', 'markdown', 'html'] as const) checkOutputPath(`--${flag}`, values[flag]);
  if (!positionals.length) throw new UsageError('report needs result files, folders or share links (e.g. npm run lab -- report results/)');
  const { results, refused } = await readReportInputs(positionals);
  if (!results.length) {
    for (const r of refused) process.stderr.write(`refused: ${r.source}: ${r.note}\n`);
    throw new UsageError(`no usable result among ${positionals.length} argument(s)`);
  }
  const built = buildCrossAdapterReport(results, { allowStale: values['allow-stale'] === true });
  const report: CrossAdapterReport = { ...built, refused: [...refused, ...built.refused] };
  const toStdout = values.json === '-';
  const say = (s: string) => (toStdout ? process.stderr : process.stdout).write(`${s}\n`);
  say(crossReportText(report));
  if (values.registry) say(`\nRegistry edits the evidence supports (src/core/ops/registry.ts vocabulary; review, never written):\n${registryEdits(report.evidence)}`);
  const link = await encodeCrossReportLink(report).then(
    (payload) => `${shareBase(values['share-base'] as string | undefined).split('#')[0]}${payload}`,
    () => null,
  );
  if (link) say(`\nshare: ${link}`);
  if (values.json) {
    const text = `${JSON.stringify(report, null, 2)}\n`;
    if (toStdout) process.stdout.write(text);
    else writeOutput('--json', values.json, text);
  }
  if (values.markdown) writeOutput('--markdown', values.markdown, crossReportMarkdown(report, link ?? undefined));
  if (values.html) writeOutput('--html', values.html, crossReportHtml(report));
  return report.refused.length ? 2 : 0;
}
