// `npm run lab -- <command>`: the lab headless. Exit 0 on success, 1 when a gate fails, 2 on
// usage errors (unknown op, malformed shape or schedule, missing adapter).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { USAGE_ERROR_NAMES, UsageError } from '../core/errors';
import { OPS } from '../core/ops/registry';
import { parseDims } from '../core/ops/types';
import { level1Json } from '../core/report/json';
import { formatAdapter, formatLevel1 } from '../core/report/text';
import type { VariantRequest } from '../gpu/level1';
import type { LabApi } from '../worker/api';

const HELP = `kernel-lab — decides, with evidence, when a generated WebGPU kernel may replace a native one

usage: npm run lab -- <command> [options]

commands:
  device                      adapter info, limits and features
  time --op OP --shape SHAPE  Level 1: check one kernel against the oracle, then time it alone
       [--layout NAME] [--native | --schedule JSON] [--seed N] [--min-runs N]

options for every command:
  --runtime node|browser      node: Dawn (the 'webgpu' package); browser: headless Chromium
                              through Playwright running the built page's worker (default node)
  --json FILE|-               write the result as JSON (- for stdout; the text then goes to stderr)

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

async function openRuntime(runtime: string, deviceMatch?: string): Promise<LabApi & { close(): Promise<void> }> {
  if (runtime === 'node') return (await import('./runtime-node')).openNodeEngine(deviceMatch);
  if (runtime === 'browser') return (await import('./runtime-browser')).openBrowserEngine(deviceMatch);
  throw new UsageError(`--runtime must be node or browser, got '${runtime}'`);
}

const COMMON = {
  runtime: { type: 'string', default: 'node' },
  json: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parse<T extends Record<string, { type: 'string' | 'boolean'; default?: string | boolean; short?: string }>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options: { ...COMMON, ...options }, allowPositionals: false, strict: true }).values as Record<string, string | boolean | undefined>;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function intOption(values: Record<string, unknown>, name: string): number | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got '${v}'`);
  return n;
}

async function cmdDevice(argv: string[]): Promise<number> {
  const v = parse(argv, {});
  const out = output(v.json as string | undefined);
  const lab = await openRuntime(v.runtime as string);
  try {
    const adapter = await lab.adapter();
    out.text(formatAdapter(adapter));
    out.json({ kind: 'device', adapter });
    return 0;
  } finally {
    await lab.close();
  }
}

async function cmdTime(argv: string[]): Promise<number> {
  const v = parse(argv, {
    op: { type: 'string' },
    shape: { type: 'string' },
    layout: { type: 'string' },
    native: { type: 'boolean' },
    schedule: { type: 'string' },
    seed: { type: 'string' },
    'min-runs': { type: 'string' },
  });
  if (!v.op) throw new UsageError('time needs --op (one of ' + OPS.map((o) => o.name).join(', ') + ')');
  if (!v.shape) throw new UsageError('time needs --shape, e.g. --shape 4096x4096');
  if (v.native && v.schedule) throw new UsageError('give --native or --schedule, not both');
  const op = OPS.find((o) => o.name === String(v.op).toUpperCase());
  if (!op) throw new UsageError(`unknown op '${v.op}' (ops: ${OPS.map((o) => o.name).join(', ')})`);
  const dims = parseDims(v.shape as string);
  op.makeCase(dims, (v.layout as string | undefined) ?? op.layouts[0].name); // usage errors before any device work
  const variant: VariantRequest = v.native ? { kind: 'native' } : v.schedule ? { kind: 'schedule', schedule: v.schedule } : { kind: 'auto' };
  const out = output(v.json as string | undefined);
  const lab = await openRuntime(v.runtime as string);
  try {
    const result = await lab.time({
      op: op.name,
      dims,
      layout: v.layout as string | undefined,
      variant,
      seed: intOption(v, 'seed'),
      timing: { minRuns: intOption(v, 'min-runs') },
    });
    out.text(formatLevel1(result));
    out.json(level1Json(result));
    return result.correct ? 0 : 1;
  } finally {
    await lab.close();
  }
}

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  device: cmdDevice,
  time: cmdTime,
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
    if (!usage && process.env.KERNEL_LAB_DEBUG) process.stderr.write(`${err.stack}\n`);
    return usage ? 2 : 1;
  }
}
