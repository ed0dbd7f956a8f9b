// The census's shapes as the lane takes them: every distinct (op, dims, layout, params) of the
// graph's computing nodes, ranked by the bytes its nodes move, with the declared layout the real
// graph sends (each node's source strides matched to the op's layouts); a node whose tensors no
// declared layout has is listed apart, with why. Pure.
import { planFromCase } from '../plan/plan';
import type { GraphSupport } from '../ops/promotion';
import { registryEntry } from '../ops/registry';
import { paramsLabel } from '../ops/types';
import { resolveKernel, type ResolveAdapter } from '../resolve-kernel';
import { planGraph, type PlannedNode } from './graph-cases';
import { tensorBytes, type TrainingGraph } from './graph';

export interface CensusShape {
  readonly op: string;
  readonly dims: readonly number[];
  readonly layout: string;
  /** Params that differ from the op's defaults. */
  readonly params?: Readonly<Record<string, number>>;
  /** Graph nodes with this (op, dims, layout, params). */
  readonly nodes: number;
  /** Bytes those nodes read and write (each source once, the destination once). */
  readonly bytes: number;
}

export interface UnfitShape {
  readonly op: string;
  readonly dims: readonly number[];
  readonly nodes: number;
  readonly bytes: number;
  /** Why no declared layout has the node's tensors (layout by layout). */
  readonly why: string;
}

const nodeBytes = (pn: PlannedNode) => pn.node.srcs.reduce((a, s) => a + tensorBytes(s), 0) + tensorBytes(pn.node);

function nonDefault(pn: PlannedNode): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const p of pn.op.params) if (pn.c.params[p.name] !== undefined && pn.c.params[p.name] !== p.default) out[p.name] = pn.c.params[p.name];
  return Object.keys(out).length ? out : undefined;
}

/** Distinct shapes ranked by bytes (ties: more nodes first, then op name). */
export function censusShapes(graph: TrainingGraph): { shapes: CensusShape[]; unfit: UnfitShape[] } {
  const plan = planGraph(graph);
  const fit = new Map<string, CensusShape & { nodes: number; bytes: number }>();
  const unfit = new Map<string, UnfitShape & { nodes: number; bytes: number }>();
  for (const pn of plan.nodes) {
    // AdamW's hyperparameters are run-time data (src4), not part of its shape
    const params = pn.op.name === 'OPT_STEP_ADAMW' ? undefined : nonDefault(pn);
    const label = `${pn.op.name} ${pn.c.dims.join('x')} ${pn.declaredLayout ?? '-'} ${params ? paramsLabel(pn.op.params, pn.c.params) : ''}`;
    if (pn.declaredLayout) {
      const e = fit.get(label) ?? { op: pn.op.name, dims: [...pn.c.dims], layout: pn.declaredLayout, ...(params ? { params } : {}), nodes: 0, bytes: 0 };
      e.nodes++;
      e.bytes += nodeBytes(pn);
      fit.set(label, e);
    } else {
      const e = unfit.get(label) ?? { op: pn.op.name, dims: [...pn.c.dims], nodes: 0, bytes: 0, why: pn.layoutMismatch ?? '' };
      e.nodes++;
      e.bytes += nodeBytes(pn);
      unfit.set(label, e);
    }
  }
  const rank = <T extends { op: string; nodes: number; bytes: number }>(xs: T[]) => xs.sort((a, b) => b.bytes - a.bytes || b.nodes - a.nodes || a.op.localeCompare(b.op));
  return { shapes: rank([...fit.values()]), unfit: rank([...unfit.values()]) };
}

/** "MUL_MAT:64x128x64:contiguous" (with ":k=v,…" for params): the lane's --shape form. */
export function shapeSpec(s: Pick<CensusShape, 'op' | 'dims' | 'layout' | 'params'>): string {
  const params = s.params ? Object.entries(s.params).map(([k, v]) => `${k}=${v}`).join(',') : '';
  return [s.op, s.dims.join('x'), s.layout, ...(params ? [params] : [])].join(':');
}

/**
 * How each op's graph nodes resolve on an adapter ('auto', as the graph run would dispatch them):
 * generated, native by a declared contract rejection, or native for another reason. Pure codegen.
 */
export function graphSupport(graph: TrainingGraph, adapter: ResolveAdapter): Map<string, GraphSupport> {
  const out = new Map<string, { nodes: number; generated: number; declared: Record<string, number>; other: Record<string, number> }>();
  for (const pn of planGraph(graph).nodes) {
    const name = pn.op.name;
    const e = out.get(name) ?? { nodes: 0, generated: 0, declared: {}, other: {} };
    out.set(name, e);
    e.nodes++;
    const r = resolveKernel(planFromCase(pn.op, pn.c), { kind: 'auto' }, adapter);
    if (r.variant === 'generated') e.generated++;
    else if (r.fallback && registryEntry(name).declaredRejections.includes(r.fallback.code)) e.declared[r.fallback.code] = (e.declared[r.fallback.code] ?? 0) + 1;
    else {
      const code = r.fallback?.code ?? 'native';
      e.other[code] = (e.other[code] ?? 0) + 1;
    }
  }
  return out;
}
