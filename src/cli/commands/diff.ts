// `diff A.json B.json`: a lane run against its baseline, shape by shape.
import { parseArgs } from 'node:util';
import { MAX_JSON_FILE_BYTES } from '../../core/input/caps';
import { UsageError } from '../../core/errors';
import { diffLanes, formatDiff } from '../../core/report/diff';
import type { LaneJson } from '../../core/report/json';
import { validateResult } from '../../core/report/validate';
import { checkOutputPath } from '../output-paths';
import { readCappedText } from '../read-capped';
import { output } from './args';

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
export async function cmdDiff(argv: string[]): Promise<number> {
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
  const d = diffLanes(a as LaneJson, b as LaneJson, threshold);
  const out = output(values.json);
  out.text(formatDiff(d));
  out.json({ kind: 'diff', ...d });
  if (!d.comparable) return 2;
  return d.regressions ? 1 : 0;
}
