// How a lane verdict reads at a glance: faster green, parity and within-tolerance neutral,
// undecided a warning (the noise hid the tolerance: nothing was decided), regressions and broken
// lanes red, a declared fallback grey (expected, not measured).
import type { ShapeVerdict } from '../../../core/stats/verdict';
import type { LanePair } from '../../../core/results';
import type { Tone } from '../../charts/palette';

export function verdictTone(v: ShapeVerdict): Tone {
  switch (v) {
    case 'faster':
      return 'good';
    case 'parity':
    case 'within-tolerance':
      return 'neutral';
    case 'undecided':
      return 'warn';
    case 'declared-fallback':
      return 'grey';
    case 'slower':
    case 'too-slow':
    case 'wrong':
    case 'undeclared-fallback':
    case 'device-rejection':
      return 'bad';
  }
}

export function pairTone(v: LanePair['verdict']): Tone {
  return v === 'green' ? 'good' : v === 'work-items' ? 'neutral' : 'bad';
}
