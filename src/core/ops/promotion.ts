// Promotion state per (op, adapter class). The registry holds a state for each class it has
// evidence on ('nvidia/hopper', 'apple/*', 'google/swiftshader', 'default'); one lookup picks
// the state for the adapter in hand, and one rule says what `auto` runs for each state.
import type { AdapterDescriptor } from '../adapter';

export type PromotionState = 'native-only' | 'observe' | 'prefer' | 'retired';

/** A state and the evidence behind it. */
export interface StateEvidence {
  readonly state: PromotionState;
  readonly evidence: string;
}

/** 'vendor/architecture' (either part may be '*'), or 'default'. */
export type AdapterClass = string;

/** The adapter fields the lookup reads. */
export type AdapterIdentity = Pick<AdapterDescriptor, 'vendor' | 'architecture'>;

export interface ClassState extends StateEvidence {
  /** Which class of the registry matched ('default' when none did). */
  readonly adapterClass: AdapterClass;
}

/** SwiftShader reports vendor 'google' and architecture 'swiftshader'; lower-case both sides. */
function classMatches(cls: AdapterClass, a: AdapterIdentity): boolean {
  const [vendor, arch] = cls.toLowerCase().split('/');
  if (arch === undefined) return false;
  const v = a.vendor.toLowerCase();
  const ar = a.architecture.toLowerCase();
  return (vendor === '*' || vendor === v) && (arch === '*' || arch === ar);
}

/** How specific a class is: an exact architecture beats a vendor wildcard beats '*\/*'. */
function specificity(cls: AdapterClass): number {
  const [vendor, arch] = cls.split('/');
  return (vendor === '*' ? 0 : 2) + (arch === '*' ? 0 : 1);
}

/**
 * The state for this adapter: the most specific matching class, else 'default'. Throws when
 * the entry has no 'default' (every entry must say what an unknown adapter does).
 */
export function stateFor(entry: { readonly op: string; readonly states: Readonly<Record<AdapterClass, StateEvidence>> }, adapter: AdapterIdentity): ClassState {
  const matches = Object.keys(entry.states)
    .filter((cls) => cls !== 'default' && classMatches(cls, adapter))
    .sort((x, y) => specificity(y) - specificity(x) || x.localeCompare(y));
  const cls = matches[0] ?? 'default';
  const picked = entry.states[cls];
  if (!picked) throw new Error(`registry entry ${entry.op} has no 'default' state`);
  return { adapterClass: cls, ...picked };
}

/**
 * What `auto` runs for a state: 'native' with the reason, or 'generated' (where the contract
 * and a shape rule take the case). `retired` means the native kernel is deleted (DESIGN.md's
 * registry row), so there the generated kernel is all there is.
 */
export function variantForState(state: PromotionState): { variant: 'native' | 'generated'; reason: string | null } {
  switch (state) {
    case 'native-only':
      return { variant: 'native', reason: 'the registry keeps the native kernel for this op on this adapter class' };
    case 'retired':
    case 'observe':
    case 'prefer':
      return { variant: 'generated', reason: null };
  }
}
