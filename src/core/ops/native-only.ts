// An op that has no generated path declares it, with the reason (OpDef.noGeneratedPath): its
// registry entry has no rules, Level 1 refuses a schedule with the reason, the lane skips it.
// `fits`/`generate` say the same if a caller reaches them anyway (never a crash or a wrong kernel).
import type { KernelSpec } from '../kernel';
import type { Family, Schedule } from '../schedule/schedule';
import { OpCaseError, type OpCase } from './case';

export function noGeneratedPath(op: string, family: Family, why: string) {
  return {
    noGeneratedPath: why,
    family,
    fits: (_s: Schedule, _c: OpCase): string[] => [`${op} has no generated kernel: ${why}`],
    generate: (_s: Schedule, c: OpCase): KernelSpec => {
      throw new OpCaseError(`${op} ${c.label} has no generated kernel: ${why}`);
    },
  };
}
