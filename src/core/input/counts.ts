// A count a run is asked for (--repeat 5, ?repeat=3): decimal digits only, from 1 to its cap in
// RUN_CAPS. '1e9', '9007199254740993' (past 2^53, where Number() rounds it), '1e308', '0x10' and
// '2.5' are refused by the same error on the CLI (exit 2) and the page, naming the cap: a run is
// never started with fewer than it was asked for.
import { UsageError } from '../errors';
import { RUN_CAPS, type RunCount } from './caps';

/** Where the count came from, for the message: '--repeat' or '?repeat='. */
export function parseCount(text: string, what: RunCount, label: string): number {
  const cap = RUN_CAPS[what];
  const t = text.trim();
  const shown = t.length > 40 ? `${t.slice(0, 40)}…` : t;
  // Digits only: Number() would take '1e3', '0x10', ' 7 ' and round '9007199254740993'.
  if (!/^[0-9]+$/.test(t) || /^0+$/.test(t)) throw new UsageError(`${label} must be a whole number from 1 to ${cap}, got '${shown}'`);
  const n = t.length > 16 ? Infinity : Number(t);
  if (n > cap) throw new UsageError(`${label} is ${shown}, above the cap of ${cap} (docs/input-limits.md)`);
  return n;
}

/** A CLI count option (`--min-runs` → RUN_CAPS.minRuns), or undefined when not given. */
export function countOption(values: Readonly<Record<string, unknown>>, flag: string): number | undefined {
  const v = values[flag];
  if (v === undefined) return undefined;
  const what = flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  if (!Object.hasOwn(RUN_CAPS, what)) throw new UsageError(`--${flag} has no cap in RUN_CAPS`);
  return parseCount(String(v), what as RunCount, `--${flag}`);
}

/** How a command declares a count option: its cap in RUN_CAPS, and whether the word 'auto' is taken too. */
export interface CountDeclaration {
  /** The option's parseArgs type ('string' for a count). */
  readonly type?: string;
  readonly count?: RunCount;
  /** The option also takes 'auto' (the command reads that mode itself: `--repeat auto`). */
  readonly auto?: boolean;
}

/** A string option that is a count (`--repeat 5`), capped by RUN_CAPS[what]; `auto`: 'auto' is taken too. */
export function countDeclaration<const W extends RunCount>(what: W, opts: { auto?: true } = {}) {
  return { type: 'string', count: what, ...(opts.auto ? { auto: true } : {}) } as const;
}

/** Every count option a command declares, checked at once (before a device opens or a file is read). */
export function checkCountOptions(values: Readonly<Record<string, unknown>>, declared: Readonly<Record<string, CountDeclaration>>): void {
  for (const [flag, d] of Object.entries(declared)) {
    const v = values[flag];
    if (!d.count || v === undefined || (d.auto && v === 'auto')) continue;
    parseCount(String(v), d.count, `--${flag}`);
  }
}
