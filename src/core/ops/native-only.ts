// The generated path of an op that stays native-only for a stated reason: no family expresses
// it yet. Its registry rule never fits, so `auto` and the lane run the native kernel, and a
// schedule asked for by hand is refused with the reason (never a crash or a wrong kernel).
import type { KernelSpec } from '../kernel';
import type { Family, Schedule } from '../schedule/schedule';
import { OpCaseError, type OpCase } from './types';

export function nativeOnlyPath(op: string, family: Family, why: string) {
  return {
    family,
    fits: (_s: Schedule, _c: OpCase): string[] => [`${op} has no generated kernel: ${why}`],
    generate: (_s: Schedule, c: OpCase): KernelSpec => {
      throw new OpCaseError(`${op} ${c.label} has no generated kernel: ${why}`);
    },
  };
}
