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

/** The retire rule's items, beside the promotion checklist's five (DESIGN.md, the seed's "Retiring a native kernel"). */
export type RetireItemId = 'supports-on-contract' | 'graph-no-fallback' | 'cpu-oracle-stays';

export interface RetireItem {
  readonly id: RetireItemId;
  readonly title: string;
  /** null: not measured in this run (e.g. no graph run). */
  readonly pass: boolean | null;
  readonly evidence: string;
}

export const RETIRE_TITLES: Readonly<Record<RetireItemId, string>> = {
  'supports-on-contract': "supports rests on the contract (every graph node of the op is taken by the generated path or refused by a declared contract rejection; no 'no schedule')",
  'graph-no-fallback': 'the training graph ran with no fallback for the op (every node generated)',
  'cpu-oracle-stays': 'the CPU oracle stays (the independent reference once the native kernel is gone)',
};

/** How the graph's nodes of one op resolved on this adapter (pure: resolveKernel on the census's cases). */
export interface GraphSupport {
  readonly nodes: number;
  readonly generated: number;
  /** Native by a contract rejection the registry declares, by code. */
  readonly declared: Readonly<Record<string, number>>;
  /** Native for any other reason (no schedule, an undeclared rejection), by code. */
  readonly other: Readonly<Record<string, number>>;
}

/** A graph run's count for the op: nodes and generated dispatches (null: no run). */
export interface GraphRunCount {
  readonly nodes: number;
  readonly generated: number;
  readonly fallbacks: readonly { readonly code: string; readonly count: number }[];
  /** The run's step-1 check against the CPU evaluation passed. */
  readonly checked: boolean | null;
}

const counts = (r: Readonly<Record<string, number>>) => Object.entries(r).map(([k, v]) => `${k}×${v}`).join(', ');

export function retireChecklist(support: GraphSupport, run: GraphRunCount | null, hasOracle: boolean): RetireItem[] {
  const otherN = Object.values(support.other).reduce((a, b) => a + b, 0);
  return [
    {
      id: 'supports-on-contract',
      title: RETIRE_TITLES['supports-on-contract'],
      pass: support.nodes > 0 && otherN === 0,
      evidence: `${support.generated}/${support.nodes} graph nodes generated${Object.keys(support.declared).length ? `, declared rejections ${counts(support.declared)}` : ''}${otherN ? `, not by the contract: ${counts(support.other)}` : ''}`,
    },
    run
      ? {
          id: 'graph-no-fallback',
          title: RETIRE_TITLES['graph-no-fallback'],
          pass: run.nodes > 0 && run.generated === run.nodes,
          evidence: `graph run: ${run.generated}/${run.nodes} nodes generated${run.fallbacks.length ? `, fallbacks ${run.fallbacks.map((f) => `${f.code}×${f.count}`).join(', ')}` : ''}`,
        }
      : { id: 'graph-no-fallback', title: RETIRE_TITLES['graph-no-fallback'], pass: null, evidence: 'no graph run in this session (census --run, or lane --census --run-graph)' },
    {
      id: 'cpu-oracle-stays',
      title: RETIRE_TITLES['cpu-oracle-stays'],
      pass: hasOracle && (run?.checked ?? true),
      evidence: hasOracle ? `the op's f64 oracle is declared${run?.checked === true ? ' and checked the graph run’s step 1' : run?.checked === false ? '; the graph run’s step-1 check FAILED' : ''}; retiring deletes only kernels/<op>/` : 'no oracle',
    },
  ];
}

/**
 * `retired` may be proposed (never written: a reviewed registry edit) only when the promotion
 * checklist and every retire item hold, and only from prefer (the generated kernel already the one
 * auto runs).
 */
export function retireProposal(state: PromotionState, promotion: readonly { pass: boolean }[], retire: readonly RetireItem[]): { propose: boolean; why: string } {
  if (state !== 'prefer') return { propose: false, why: `the pair is ${state}: retiring follows prefer` };
  const failed = [...promotion.filter((i) => !i.pass).map(() => 'a promotion item'), ...retire.filter((i) => i.pass !== true).map((i) => `${i.id}${i.pass === null ? ' (not measured)' : ''}`)];
  return failed.length ? { propose: false, why: `not every item holds: ${failed.join(', ')}` } : { propose: true, why: 'every promotion and retire item holds: propose retired (a reviewed registry edit)' };
}
