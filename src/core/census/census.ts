// The census: per op of a graph, how many nodes, how many bytes they read and write, and up
// to six of their distinct destination shapes, ranked by bytes; beside each op whether the lab
// has it (a generated kernel, native only, or none). It reports work, not time.
import { OPS, REGISTRY } from '../ops/registry';
import { stateFor, type AdapterIdentity } from '../ops/promotion';
import { GGML_TYPES } from './ggml-names';
import { VIEW_OPS } from './graph';

/** What the census needs of a node: the graph builder's nodes and imported lines both have it. */
export interface CensusNode {
  readonly op: string;
  readonly desc: string;
  /** ggml_type number. */
  readonly typeId: number;
  readonly ne: readonly number[];
  readonly srcs: readonly { readonly typeId: number; readonly ne: readonly number[] }[];
}

export type LabHas = 'generated' | 'native-only' | 'none';

export interface CensusRow {
  /** ggml_op_desc (SILU, SWIGLU for UNARY, GLU). */
  readonly op: string;
  readonly nodes: number;
  readonly bytesRead: number;
  readonly bytesWritten: number;
  /** Up to six distinct destination shapes, most frequent first ("64x128"). */
  readonly shapes: readonly string[];
  readonly distinctShapes: number;
  readonly lab: LabHas;
}

export interface Census {
  /** Ops that compute, ranked by bytes read + written. */
  readonly rows: readonly CensusRow[];
  /** VIEW, RESHAPE, PERMUTE, TRANSPOSE: no bytes moved. */
  readonly views: readonly { op: string; nodes: number }[];
  /** op NONE nodes (the trained parameters). */
  readonly parameterNodes: number;
  readonly totalNodes: number;
}

export const MAX_SHAPES_PER_OP = 6;

export function typedBytes(typeId: number, ne: readonly number[]): number {
  const t = GGML_TYPES[typeId];
  if (!t) throw new Error(`ggml type ${typeId} has no size in the census's table`);
  const n = ne.reduce((a, b) => a * b, 1);
  return Math.ceil(n / t.blck) * t.bytes;
}

/**
 * The lab op that computes a census row: its own name, or — for ggml's UNARY/GLU sub-ops, which
 * the census names by ggml_op_desc (SWIGLU) — the lab op whose enum param `op` offers that sub-op
 * (GLU's op=swiglu). Read from the ops' declarations, so a new sub-op needs no edit here.
 */
export function labOpName(desc: string): string {
  if (OPS.some((o) => o.name === desc)) return desc;
  const sub = desc.toLowerCase();
  const owner = OPS.find((o) => o.params.some((p) => p.name === 'op' && p.type === 'enum' && (p.values ?? []).some((v) => v.name === sub)));
  return owner?.name ?? desc;
}

/** Whether the lab has `op`, for this adapter (its class's state) or the default state. */
export function labHas(desc: string, adapter?: AdapterIdentity): LabHas {
  const op = labOpName(desc);
  const entry = REGISTRY.find((e) => e.op === op);
  if (!entry || !OPS.some((o) => o.name === op)) return 'none';
  const state = adapter ? stateFor(entry, adapter).state : entry.state;
  return state === 'native-only' ? 'native-only' : 'generated';
}

const shapeKey = (ne: readonly number[]) => {
  const dims = [...ne];
  while (dims.length > 1 && dims[dims.length - 1] === 1) dims.pop();
  return dims.join('x');
};

export function takeCensus(nodes: readonly CensusNode[], adapter?: AdapterIdentity): Census {
  const rows = new Map<string, { nodes: number; read: number; written: number; shapes: Map<string, number> }>();
  const views = new Map<string, number>();
  let parameterNodes = 0;
  for (const n of nodes) {
    if (n.op === 'NONE') {
      parameterNodes++;
      continue;
    }
    if (VIEW_OPS.has(n.op)) {
      views.set(n.op, (views.get(n.op) ?? 0) + 1);
      continue;
    }
    let r = rows.get(n.desc);
    if (!r) rows.set(n.desc, (r = { nodes: 0, read: 0, written: 0, shapes: new Map() }));
    r.nodes++;
    // each source read once as it is viewed, the destination written once, unless the op
    // declares its own rule (OPT_STEP_ADAMW also rewrites its two moments)
    const srcBytes = n.srcs.map((src) => typedBytes(src.typeId, src.ne));
    const dstBytes = typedBytes(n.typeId, n.ne);
    const rule = OPS.find((o) => o.name === n.op)?.censusBytes;
    const moved = rule ? rule(srcBytes, dstBytes) : { readBytes: srcBytes.reduce((a, b) => a + b, 0), writeBytes: dstBytes };
    r.read += moved.readBytes;
    r.written += moved.writeBytes;
    const k = shapeKey(n.ne);
    r.shapes.set(k, (r.shapes.get(k) ?? 0) + 1);
  }
  const ranked = [...rows.entries()]
    .map(([op, r]): CensusRow => {
      const shapes = [...r.shapes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      return Object.freeze({ op, nodes: r.nodes, bytesRead: r.read, bytesWritten: r.written, shapes: shapes.slice(0, MAX_SHAPES_PER_OP).map(([s]) => s), distinctShapes: shapes.length, lab: labHas(op, adapter) });
    })
    .sort((a, b) => b.bytesRead + b.bytesWritten - (a.bytesRead + a.bytesWritten) || a.op.localeCompare(b.op));
  return Object.freeze({
    rows: Object.freeze(ranked),
    views: [...views.entries()].map(([op, n]) => ({ op, nodes: n })).sort((a, b) => b.nodes - a.nodes || a.op.localeCompare(b.op)),
    parameterNodes,
    totalNodes: nodes.length,
  });
}

/** Where the census's count differs from ggml_nbytes(node), said beside the table. */
export const ADAMW_WRITTEN_NOTE = 'OPT_STEP_ADAMW written: the parameter and its two moments m, v (what the kernel writes, 3× the parameter); ggml_nbytes(node) counts the parameter only';

const mib = (b: number) => (b / 2 ** 20).toFixed(b < 2 ** 20 ? 3 : 1);

/** The census as a text table (the CLI's output). */
export function formatCensus(c: Census, title: string): string {
  const head = ['op', 'nodes', 'read MiB', 'written MiB', 'lab', 'shapes (up to 6)'];
  const body = c.rows.map((r) => [r.op, String(r.nodes), mib(r.bytesRead), mib(r.bytesWritten), r.lab, r.shapes.join(' ') + (r.distinctShapes > r.shapes.length ? ` (+${r.distinctShapes - r.shapes.length})` : '')]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((s, i) => (i === 0 || i >= 4 ? s.padEnd(widths[i]) : s.padStart(widths[i]))).join('  ').trimEnd();
  const computeNodes = c.rows.reduce((s, r) => s + r.nodes, 0);
  const viewNodes = c.views.reduce((s, v) => s + v.nodes, 0);
  return [
    `census: ${title}: ${c.totalNodes} nodes — ${computeNodes} compute, ${viewNodes} views, ${c.parameterNodes} parameters`,
    line(head),
    ...body.map(line),
    `views (no bytes moved): ${c.views.map((v) => `${v.op} ${v.nodes}`).join(', ')}`,
    ...(c.rows.some((r) => r.op === 'OPT_STEP_ADAMW') ? [ADAMW_WRITTEN_NOTE] : []),
  ].join('\n');
}
