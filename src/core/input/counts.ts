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

/** Every count option a command was given, checked at once (before a device opens or a file is read). */
export function checkCountOptions(values: Readonly<Record<string, unknown>>): void {
  for (const what of Object.keys(RUN_CAPS)) {
    // `--repeat auto` is the lane's own mode (its passes are capped by --repeat-max).
    if (what === 'repeat' && values.repeat === 'auto') continue;
    countOption(values, what.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
  }
}
