// The caps on everything the lab reads from outside: share links, imported files, schedules
// and the CLI's file arguments. One table, so docs/input-limits.md and the validators agree.
// Each cap is well above what the lab itself writes (the largest real sweep: 648 candidates
// × 8 shapes) and low enough that decoding and rendering an accepted input stays bounded.
import type { JsonBounds } from './bounded-json';

/** One result (a link's JSON, one imported run's result). */
export const RESULT_BOUNDS: JsonBounds = { maxDepth: 12, maxValues: 250_000, maxStringChars: 4096 };

/** An import file: an export of many runs. */
export const IMPORT_BOUNDS: JsonBounds = { maxDepth: 16, maxValues: 2_000_000, maxStringChars: 16 * 1024 };
/** Bytes of an import file, checked before it is read. */
export const MAX_IMPORT_FILE_BYTES = 32 * 1024 * 1024;
/** Runs in one import file. */
export const MAX_IMPORT_RUNS = 5000;

/** A schedule (the page's editor, --schedule, a proposal's rule). */
export const SCHEDULE_BOUNDS: JsonBounds = { maxDepth: 2, maxValues: 512, maxStringChars: 64 };
/** Characters of a schedule's JSON text. */
export const MAX_SCHEDULE_CHARS = 4096;

/** Characters of a name: op, shape, layout, schedule key, rejection code. */
export const MAX_NAME_CHARS = 256;
/** Characters of a sentence: a reason, a note, an evidence line, a failure. */
export const MAX_TEXT_CHARS = 2000;

/** The lane: pairs, shapes per pair, shapes over all pairs, speedups per shape and in all. */
export const LANE_CAPS = { pairs: 32, shapesPerPair: 256, shapes: 1024, speedupsPerShape: 1000, speedups: 20_000, checklist: 16 } as const;
/**
 * The sweep: its table is candidates × shapes cells (each several columns), so the table is
 * capped, not only each list (1000 shapes × 300 candidates would be 300 000 cells). 8192 keeps
 * the largest real sweep (MUL_MAT: 648 candidates × 8 shapes = 5184) with room; the heaviest
 * table it admits draws in about 4 s on the 2-core SwiftShader test machine (docs/input-limits.md).
 */
export const SWEEP_CAPS = { shapes: 64, candidates: 4096, cells: 8192, proposal: 256, conditions: 16, spaceValues: 64 } as const;
/** Level 1: correctness failures listed. */
export const LEVEL1_CAPS = { failures: 1000 } as const;

/** Bytes the CLI reads from a --wgsl file. */
export const MAX_WGSL_FILE_BYTES = 1024 * 1024;
/** Bytes the CLI reads from a --proposal file (a sweep's --json). */
export const MAX_JSON_FILE_BYTES = 32 * 1024 * 1024;

/**
 * A kernel manifest (docs/kernel-manifest.md): its text (inline WGSL included), and how many of
 * each thing it lists. The lab's own examples list 1–2 kernels, ≤ 20 uniform fields, 4 bindings.
 */
export const MANIFEST_CAPS = Object.freeze({ chars: 2 * 1024 * 1024, kernels: 16, variants: 16, bindings: 32, uniforms: 256, lets: 256, buffers: 16, require: 64, overrides: 64, features: 16, paramValues: 256 });
