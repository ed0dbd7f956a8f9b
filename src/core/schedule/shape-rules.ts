// Shape rules: the vocabulary schedulesFor speaks and the sweep proposes in. A rule is a list
// of conditions on an op's named features (ne0, rows, M, N, K…); all must hold.

export interface Condition {
  readonly feature: string;
  /** feature ≥ min */
  readonly min?: number;
  /** feature ≤ max */
  readonly max?: number;
  /** feature % multipleOf == 0 */
  readonly multipleOf?: number;
}

export type Features = Readonly<Record<string, number>>;

export function conditionHolds(c: Condition, features: Features): boolean {
  const v = features[c.feature];
  if (v === undefined) return false;
  if (c.min !== undefined && v < c.min) return false;
  if (c.max !== undefined && v > c.max) return false;
  if (c.multipleOf !== undefined && v % c.multipleOf !== 0) return false;
  return true;
}

export function allHold(when: readonly Condition[], features: Features): boolean {
  return when.every((c) => conditionHolds(c, features));
}

/** "ne0 ≥ 1024, ne0 % 4 == 0" — how rules print in tables and proposals. */
export function describeConditions(when: readonly Condition[]): string {
  if (!when.length) return 'always';
  return when
    .map((c) => {
      const parts: string[] = [];
      if (c.min !== undefined && c.max !== undefined) parts.push(`${c.min} ≤ ${c.feature} ≤ ${c.max}`);
      else if (c.min !== undefined) parts.push(`${c.feature} ≥ ${c.min}`);
      else if (c.max !== undefined) parts.push(`${c.feature} ≤ ${c.max}`);
      if (c.multipleOf !== undefined) parts.push(`${c.feature} % ${c.multipleOf} == 0`);
      return parts.join(', ');
    })
    .join(', ');
}
