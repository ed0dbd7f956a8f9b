// What every command shares: option parsing, the output sinks, the runtime opener. No module state:
// the timer and verbosity a command was given travel in its `Cli` value.
import { parseArgs } from 'node:util';
import { UsageError } from '../../core/errors';
import { parseParamAssignments } from '../../core/ops/types';
import type { AdapterDescriptor } from '../../core/adapter';
import { formatAdapter } from '../../core/report/text';
import type { LabApi } from '../../worker/api';
import { checkOutputPath, writeOutput } from '../output-paths';
import { checkCountOptions, countDeclaration, countOption, type CountDeclaration } from '../../core/input/counts';

export type Out = { text: (s: string) => void; json: (value: unknown) => void };

/** Text to stdout (stderr when the JSON goes to stdout), JSON to `--json FILE|-` when given. */
export function output(jsonTarget: string | undefined): Out {
  const toStdout = jsonTarget === '-';
  return {
    text: (s) => (toStdout ? process.stderr : process.stdout).write(s.endsWith('\n') ? s : s + '\n'),
    json: (value) => {
      if (!jsonTarget) return;
      const text = JSON.stringify(value, null, 2) + '\n';
      if (toStdout) process.stdout.write(text);
      else writeOutput('--json', jsonTarget, text);
    },
  };
}

export type Lab = LabApi & { close(): Promise<void> };

/** One command's settings from its parsed options: the timer, the detail level and the runtime. */
export interface Cli {
  /** GPU timestamps (default) or the wall clock. */
  timestamps: boolean;
  /** -v / -vv: how much the CLI says besides the result (0, 1 or 2). */
  verbosity: number;
  /** Says a line on stderr when the detail level is at least `level`. */
  detail(level: number, line: string): void;
  /** Opens the runtime the options name (`--runtime`), on the adapter matching `deviceMatch`. */
  open(deviceMatch?: string): Promise<Lab>;
}

/** The -v flags of an argument list (0, 1 or 2), read without parsing (for errors before parsing ends). */
export function verbosityOf(argv: readonly string[]): number {
  let n = 0;
  for (const a of argv) {
    if (a === '--') break;
    if (a === '--verbose') n++;
    else if (/^-v+$/.test(a)) n += a.length - 1;
  }
  return Math.min(2, n);
}

export const COMMON = {
  runtime: { type: 'string', default: 'node' },
  timer: { type: 'string', default: 'gpu' },
  json: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  verbose: { type: 'boolean', short: 'v', multiple: true },
} as const;

type OptionSpec = Record<string, { type: 'string' | 'boolean'; default?: string | boolean; short?: string; multiple?: boolean } & CountDeclaration>;

/** A count option's declaration (`repeat: countOpt('repeat', { auto: true })`): parse() checks it against its cap. */
export const countOpt = countDeclaration;

/** A command's options plus the common ones; every malformed option is a usage error (exit 2). */
export function parse<T extends OptionSpec>(argv: string[], options: T): Record<string, string | boolean | undefined> {
  try {
    // parseArgs reads its own keys of each option and passes over the count declarations.
    const values = parseArgs({ args: argv, options: { ...COMMON, ...options }, allowPositionals: false, strict: true }).values as Record<string, string | boolean | undefined>;
    if (values.timer !== 'gpu' && values.timer !== 'wallclock') throw new UsageError(`--timer must be gpu or wallclock, got '${values.timer}'`);
    // Output files are checked before any device work (a usage error, exit 2).
    checkOutputPath('--json', values.json as string | undefined);
    checkOutputPath('--markdown', values.markdown as string | undefined);
    checkCountOptions(values, options); // --repeat 1e9 and the like, refused before anything else
    return values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** The settings of parsed options (see `parse`). */
export function cliOf(values: Record<string, unknown>): Cli {
  const timestamps = values.timer !== 'wallclock';
  const verbosity = Math.min(2, ((values.verbose as unknown as boolean[] | undefined) ?? []).length);
  const runtime = (values.runtime as string | undefined) ?? 'node';
  const detail = (level: number, line: string) => {
    if (verbosity >= level) process.stderr.write(`${line}\n`);
  };
  return {
    timestamps,
    verbosity,
    detail,
    async open(deviceMatch) {
      const lab = await openEngine(runtime, timestamps, deviceMatch);
      if (verbosity >= 1) {
        try {
          detail(1, `adapter: ${formatAdapter(await lab.adapter()).split('\n')[0]} (runtime ${runtime})`);
        } catch (e) {
          await lab.close();
          throw e;
        }
      }
      return lab;
    },
  };
}

/** Opens the command's runtime, runs `body` with it and its adapter, and closes it whatever happens. */
export async function withLab<T>(cli: Cli, body: (lab: Lab, adapter: AdapterDescriptor) => Promise<T>): Promise<T> {
  const lab = await cli.open();
  try {
    return await body(lab, await lab.adapter());
  } finally {
    await lab.close();
  }
}

async function openEngine(runtime: string, timestamps: boolean, deviceMatch?: string): Promise<Lab> {
  if (runtime === 'node') return (await import('../runtime-node')).openNodeEngine(deviceMatch, timestamps);
  if (runtime === 'browser') return (await import('../runtime-browser')).openBrowserEngine(deviceMatch, timestamps);
  throw new UsageError(`--runtime must be node or browser, got '${runtime}'`);
}

/** A count option, capped (RUN_CAPS): '1e9' or a count past its cap is a usage error naming it. */
export const intOption = countOption;

/** Repeated `--param k=v` (each may also be `k=v,k2=v2`) → params, or undefined when none. */
export function paramOptions(v: Record<string, unknown>): Record<string, number> | undefined {
  const given = (v.param as string[] | undefined) ?? [];
  if (!given.length) return undefined;
  const out = new Map<string, number>(); // not `k in {}`: '__proto__' is in every object
  for (const text of given) {
    for (const [k, val] of Object.entries(parseParamAssignments(text))) {
      if (out.has(k)) throw new UsageError(`--param ${k} is given twice`);
      out.set(k, val);
    }
  }
  return Object.fromEntries(out);
}
