// ggml's test-export-graph-ops text format, which test-backend-ops --test-file reads
// (make_test_cases_from_file in tests/test-backend-ops.cpp): one line per op,
//   op type ne0 ne1 ne2 ne3 n_params params… n_src {type ne0..3 nb0..3}… name
// with op and type as ggml's enum numbers, params as int32 words (a float as its bits), and
// '-' for an empty name. Export writes the graph's computing nodes (no NONE, no views).
import { LabError } from '../errors';
import { GRAPH_TEXT_CAPS } from '../input/caps';
import type { CensusNode } from './census';
import { GGML_OP_NAMES, GGML_TYPES, ggmlTypeId, opDesc } from './ggml-names';
import { VIEW_OPS, type TrainingGraph } from './graph';

export class GraphTextError extends LabError {
  override name = 'GraphTextError';
}

export interface GraphLine extends CensusNode {
  readonly params: readonly number[];
  readonly srcs: readonly { readonly typeId: number; readonly ne: readonly number[]; readonly nb: readonly number[] }[];
  readonly name: string;
}

/** op_params words that hold a float, per op (the rest are int32). */
const FLOAT_WORDS: Readonly<Record<string, readonly number[]>> = {
  RMS_NORM: [0],
  RMS_NORM_BACK: [0],
  SOFT_MAX: [0, 1],
  SOFT_MAX_BACK: [0, 1],
  SCALE: [0, 1],
  ROPE: [5, 6, 7, 8, 9, 10],
  ROPE_BACK: [5, 6, 7, 8, 9, 10],
};
export const MAX_GRAPH_LINES = GRAPH_TEXT_CAPS.lines;
const MAX_PARAMS = 16; // GGML_MAX_OP_PARAMS / 4
const MAX_SRC = 10; // GGML_MAX_SRC

const f32 = new DataView(new ArrayBuffer(4));
const floatToWord = (v: number) => (f32.setFloat32(0, v, true), f32.getInt32(0, true));
const wordToFloat = (w: number) => (f32.setInt32(0, w, true), f32.getFloat32(0, true));

/** The graph's computing nodes as lines (what export writes). */
export function graphLines(g: TrainingGraph): GraphLine[] {
  return allLines(g).filter((n) => n.op !== 'NONE' && !VIEW_OPS.has(n.op));
}

/** Every node of the graph, parameters and views included (what the census counts). */
export function allLines(g: TrainingGraph): GraphLine[] {
  return g.nodes.map((n) => ({
      op: n.op,
      desc: n.desc,
      typeId: ggmlTypeId(n.type),
      ne: n.ne,
      params: n.params.map((p, i) => (FLOAT_WORDS[n.op]?.includes(i) ? Math.fround(p) : p)),
      srcs: n.srcs.map((s) => ({ typeId: ggmlTypeId(s.type), ne: s.ne, nb: s.nb })),
      name: n.name,
    }));
}

export function formatGraphText(lines: readonly GraphLine[]): string {
  return lines
    .map((l) => {
      const op = GGML_OP_NAMES.indexOf(l.op);
      if (op < 0) throw new GraphTextError(`op ${l.op} has no ggml number`);
      const floats = FLOAT_WORDS[l.op] ?? [];
      const words = l.params.map((p, i) => (floats.includes(i) ? floatToWord(p) : p | 0));
      const srcs = l.srcs.flatMap((s) => [s.typeId, ...s.ne, ...s.nb]);
      const name = l.name.trim() ? l.name.replace(/\s+/g, '_') : '-';
      return [op, l.typeId, ...l.ne, words.length, ...words, l.srcs.length, ...srcs, name].join(' ');
    })
    .join('\n') + '\n';
}

/** Parses the format; a bad line is refused by its number and the field. */
export function parseGraphText(text: string): GraphLine[] {
  const out: GraphLine[] = [];
  // Lines counted before the text is split (64 MiB of newlines once split into 67M strings,
  // 949 MB, then imported 0 ops): blank lines count against the cap too.
  let breaks = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    if (++breaks >= MAX_GRAPH_LINES) throw new GraphTextError(`more than ${MAX_GRAPH_LINES} lines (blank ones included), the cap: refused before parsing`);
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (!raw) continue;
    if (out.length >= MAX_GRAPH_LINES) throw new GraphTextError(`more than ${MAX_GRAPH_LINES} lines: refused at line ${i + 1}`);
    // A real line has at most 115 fields and a 64-byte name; a longer one is not split into tokens.
    if (raw.length > GRAPH_TEXT_CAPS.lineChars) throw new GraphTextError(`line ${i + 1}: ${raw.length} characters, above the cap of ${GRAPH_TEXT_CAPS.lineChars} per line`);
    const tok = raw.split(/\s+/);
    let k = 0;
    const int = (field: string, min = -(2 ** 31), max = Number.MAX_SAFE_INTEGER): number => {
      const t = tok[k++];
      if (t === undefined) throw new GraphTextError(`line ${i + 1}: ${field} is missing`);
      if (!/^-?\d+$/.test(t)) throw new GraphTextError(`line ${i + 1}: ${field} is '${t}', not an integer`);
      const v = Number(t);
      if (v < min || v > max) throw new GraphTextError(`line ${i + 1}: ${field} is ${v}, outside ${min}..${max}`);
      return v;
    };
    const type = (field: string) => {
      const v = int(field, 0);
      if (!GGML_TYPES[v]) throw new GraphTextError(`line ${i + 1}: ${field} ${v} is not a ggml type the census knows`);
      return v;
    };
    const opId = int('op', 0, GGML_OP_NAMES.length - 1);
    const op = GGML_OP_NAMES[opId];
    const typeId = type('type');
    // Each dimension and their product capped (2^53−1 per dimension once gave 2.5e58 MiB).
    const shape = (field: string) => {
      const ne = [0, 1, 2, 3].map((d) => int(`${field}ne${d}`, 1, GRAPH_TEXT_CAPS.dim));
      const elements = ne.reduce((a, b) => a * b, 1);
      if (elements > GRAPH_TEXT_CAPS.elements) throw new GraphTextError(`line ${i + 1}: ${field}shape ${ne.join('x')} is ${elements} elements, above the cap of 2^40 per tensor`);
      return ne;
    };
    const ne = shape('');
    const nParams = int('n_params', 0, MAX_PARAMS);
    const floats = FLOAT_WORDS[op] ?? [];
    const params = Array.from({ length: nParams }, (_, p) => {
      const w = int(`param ${p}`, -(2 ** 31), 2 ** 31 - 1);
      return floats.includes(p) ? wordToFloat(w) : w;
    });
    const nSrc = int('n_src', 0, MAX_SRC);
    const srcs = Array.from({ length: nSrc }, (_, s) => ({
      typeId: type(`src${s} type`),
      ne: shape(`src${s} `),
      nb: [0, 1, 2, 3].map((d) => int(`src${s} nb${d}`, 0)),
    }));
    const name = tok[k++];
    if (name === undefined) throw new GraphTextError(`line ${i + 1}: name is missing`);
    if (k !== tok.length) throw new GraphTextError(`line ${i + 1}: ${tok.length - k} fields after the name`);
    out.push({ op, desc: opDesc(op, params), typeId, ne, params, srcs, name: name === '-' ? '' : name });
  }
  if (!out.length) throw new GraphTextError(text.trim() ? 'no op lines' : 'the text is empty: no op lines to take a census of');
  return out;
}

/**
 * True when no two lines are the same op on the same shapes and params (names aside): how
 * llama.cpp's test-export-graph-ops writes its file (a std::set of ops, ordered by op, compared
 * without the name), so each line stands for every node like it and counts are per distinct line.
 * The lab's own export writes every node (a model's layers repeat their lines).
 */
export function isDeduplicated(lines: readonly GraphLine[]): boolean {
  if (lines.length < 2) return false;
  const seen = new Set<string>();
  for (const l of lines) {
    const key = `${l.op} ${l.typeId} ${l.ne.join(' ')} ${l.params.join(' ')} ${l.srcs.map((s) => `${s.typeId} ${s.ne.join(' ')} ${s.nb.join(' ')}`).join(' ')}`;
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

export const DEDUPLICATED_NOTE = 'every line is a distinct op (as llama.cpp\'s test-export-graph-ops writes them, de-duplicated): node counts and bytes are per distinct line, not per node of the graph';
