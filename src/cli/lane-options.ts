// The lane's options about controls and passes: --repeat auto (with its target and cap),
// --allow-undecided and the sensitivity run's --factors. Parsed here, checked before any GPU work.
import { UsageError } from '../core/errors';
import { countDeclaration, countOption } from '../core/input/counts';
import { PLANTED_MAX } from '../core/lane/judgement';
import { DEFAULT_REPEAT_AUTO, MIN_AUTO_PASSES } from '../core/stats/repeat-auto';
import type { RepeatAuto } from '../core/results';

export const LANE_CONTROL_OPTIONS = {
  /** A pass count, or 'auto': passes until the median's interval is narrow enough (parseRepeatOption). */
  repeat: countDeclaration('repeat', { auto: true }),
  'allow-undecided': { type: 'boolean' },
  factors: { type: 'string' },
  'repeat-target': { type: 'string' },
  'repeat-max': { type: 'string' },
} as const;

/** The most planted factors one sensitivity run takes. */
export const MAX_SENSITIVITY_FACTORS = 8;
/** The most passes --repeat auto may add up to. */
export const MAX_AUTO_PASSES = 1000;

/** `--repeat N` or `--repeat auto` (with --repeat-target W, --repeat-max N). */
export function parseRepeatOption(v: Record<string, unknown>): { repeat?: number; repeatAuto?: RepeatAuto } {
  const text = v.repeat as string | undefined;
  const auto = text === 'auto';
  if (!auto && (v['repeat-target'] !== undefined || v['repeat-max'] !== undefined)) throw new UsageError('--repeat-target and --repeat-max go with --repeat auto');
  if (!auto) return text === undefined ? {} : { repeat: countOption(v, 'repeat') };
  const targetWidth = v['repeat-target'] === undefined ? DEFAULT_REPEAT_AUTO.targetWidth : Number(v['repeat-target']);
  if (!(targetWidth > 0 && targetWidth < 1)) throw new UsageError(`--repeat-target must be a relative width in (0, 1) (e.g. 0.02: the median's 95% interval within 2% of it), got '${v['repeat-target']}'`);
  const maxPasses = v['repeat-max'] === undefined ? DEFAULT_REPEAT_AUTO.maxPasses : Number(v['repeat-max']);
  if (!Number.isInteger(maxPasses) || maxPasses < MIN_AUTO_PASSES || maxPasses > MAX_AUTO_PASSES) throw new UsageError(`--repeat-max must be an integer in [${MIN_AUTO_PASSES}, ${MAX_AUTO_PASSES}] (fewer than ${MIN_AUTO_PASSES} passes give no 95% interval of the median), got '${v['repeat-max']}'`);
  return { repeatAuto: { targetWidth, maxPasses } };
}

/** `--factors 1.02,1.05`: the planted factors of a sensitivity run, each in (1, PLANTED_MAX]. */
export function parseFactors(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',');
  if (parts.length > MAX_SENSITIVITY_FACTORS) throw new UsageError(`--factors takes at most ${MAX_SENSITIVITY_FACTORS} factors, got ${parts.length}`);
  const factors = parts.map((p) => {
    const f = Number(p.trim());
    if (!/^\s*\d+(\.\d+)?\s*$/.test(p) || !(f > 1 && f <= PLANTED_MAX)) throw new UsageError(`--factors must be planted slowdowns F in (1, ${PLANTED_MAX}], comma-separated (e.g. 1.02,1.05), got '${p}'`);
    return f;
  });
  return [...new Set(factors)].sort((a, b) => a - b);
}
