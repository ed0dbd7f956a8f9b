// The family registry: name → definition. A new family is one file here plus one line below.
import { GEMV, type GemvSchedule } from './gemv';
import { MMVQ, type MmvqSchedule } from './mmvq';
import { SGMATRIX, type SgmatrixSchedule } from './sgmatrix';
import { ELEMENTWISE, type ElementwiseSchedule } from './elementwise';
import { MATMUL, type MatmulSchedule } from './matmul';
import { NORM, type NormSchedule } from './norm';
import type { FamilyDef } from './types';

export type Schedule = ElementwiseSchedule | NormSchedule | MatmulSchedule | GemvSchedule | SgmatrixSchedule | MmvqSchedule;
export type Family = Schedule['family'];

export const FAMILY_DEFS: Readonly<Record<Family, FamilyDef>> = Object.freeze({
  elementwise: ELEMENTWISE as unknown as FamilyDef,
  norm: NORM as unknown as FamilyDef,
  matmul: MATMUL as unknown as FamilyDef,
  gemv: GEMV as unknown as FamilyDef,
  sgmatrix: SGMATRIX as unknown as FamilyDef,
  mmvq: MMVQ as unknown as FamilyDef,
});

export function familyDef(name: Family): FamilyDef {
  return FAMILY_DEFS[name];
}
