// The caps on everything the lab reads from outside: share links, imported files, schedules
// and the CLI's file arguments. One table, so docs/input-limits.md and the validators agree.
// Each cap is well above what the lab itself writes (the largest default sweep: 972 candidates
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
/** Files one History import takes at once (a CI matrix's artifacts); each file is capped alone. */
export const MAX_IMPORT_FILES = 1000;

/** A schedule (the page's editor, --schedule, a proposal's rule). */
export const SCHEDULE_BOUNDS: JsonBounds = { maxDepth: 2, maxValues: 512, maxStringChars: 64 };
/** Characters of a schedule's JSON text. */
export const MAX_SCHEDULE_CHARS = 4096;

/** Characters of a name: op, shape, layout, schedule key, rejection code. */
export const MAX_NAME_CHARS = 256;
/** Characters of a sentence: a reason, a note, an evidence line, a failure. */
export const MAX_TEXT_CHARS = 2000;

/** The lane: pairs, shapes per pair, shapes over all pairs, speedups per shape and in all. */
export const LANE_CAPS = { pairs: 128, shapesPerPair: 256, shapes: 2048, speedupsPerShape: 1000, speedups: 20_000, checklist: 16 } as const;
/**
 * The sweep: its table is candidates × shapes cells (each several columns), so the table is
 * capped, not only each list (1000 shapes × 300 candidates would be 300 000 cells). 8192 keeps
 * the largest default sweep (OUT_PROD: 972 candidates × 8 shapes = 7776; an op's `sweeps` leaves
 * shapes out where its whole matrix would be over, and runSweep refuses a larger table up front); the heaviest
 * table it admits draws in about 4 s on the 2-core SwiftShader test machine (docs/input-limits.md).
 */
export const SWEEP_CAPS = { shapes: 64, candidates: 4096, cells: 8192, proposal: 256, conditions: 16, spaceValues: 64 } as const;
/** A formats run: rows (every format the lab knows is 39, each at most twice: --mmvq adds a row). */
export const FORMATS_CAPS = { rows: 256 } as const;
/** Level 1: correctness failures listed. */
export const LEVEL1_CAPS = { failures: 1000 } as const;

/** Bytes the CLI reads from a --wgsl file. */
export const MAX_WGSL_FILE_BYTES = 1024 * 1024;
/** Bytes the CLI reads from a --proposal file (a sweep's --json). */
export const MAX_JSON_FILE_BYTES = 32 * 1024 * 1024;

/**
 * Counts a run is asked for (the CLI's --repeat, --min-runs, --replay, --steps, --seed and the
 * page's ?repeat=). Each is a whole number from 1 to its cap; above it the run is refused by
 * name, never run with fewer. repeat: a lane result holds at most LANE_CAPS.speedupsPerShape
 * speedups per shape, one per pass, so more passes would write a result the lab refuses to open.
 * minRuns: the timing loop's own ceiling (src/gpu/measure.ts, maxRuns 16384). replay: the
 * sensitivity report's default is 10 replays of the whole lane. steps: training steps of a graph run.
 * reps: a sweep's timed rounds per candidate. seed: the inputs' u32 seed. port: `serve --port`.
 */
export const RUN_CAPS = { repeat: LANE_CAPS.speedupsPerShape, minRuns: 16384, replay: 100, steps: 1000, reps: 1000, seed: 2 ** 32 - 1, port: 65535, watchdogMs: 600_000 } as const;
export type RunCount = keyof typeof RUN_CAPS;

/**
 * A model's hyperparameters (a preset, a GGUF header, --batch, --context), checked before the
 * training step's graph is built. Each is several times the largest real model's (Llama 3.1
 * 405B: 126 layers, embedding 16384, FFN 53248, vocabulary 128256; Gemma: 262144 tokens), and
 * low enough that the graph builds in about a second (1024 layers took 3.3 s on the shared
 * 2-core machine, 256 about 0.8 s). tensorElements bounds the largest tensor the step holds
 * (logits, attention scores, FFN activations, weights), so byte counts stay exact (below 2^53).
 */
export const MODEL_CAPS = {
  nLayer: 256,
  nEmbd: 1 << 17,
  nFf: 1 << 20,
  nVocab: 1 << 22,
  nHead: 1 << 12,
  nHeadKv: 1 << 12,
  nCtx: 1 << 20,
  nBatch: 1 << 12,
  tensorElements: 2 ** 40,
} as const;

/** A GGUF tensor's dimensions (each ne) and elements (their product). */
export const GGUF_TENSOR_CAPS = { dim: 2 ** 32, elements: 2 ** 40 } as const;

/** ggml text import: each tensor's dimensions and elements, as for a GGUF tensor. */
export const GRAPH_TEXT_CAPS = { dim: 2 ** 32, elements: 2 ** 40, lines: 1_000_000, lineChars: 8192, bytes: 64 * 1024 * 1024 } as const;

/**
 * Bytes of a request's line and headers that the lab's own servers read (`npm start`, vite
 * preview/dev): a run query holds a schedule of up to MAX_SCHEDULE_CHARS, up to three times that
 * once percent-encoded, and Node's default of 16 KiB answered a 14 KB query with a bare 431.
 */
export const MAX_REQUEST_HEADER_BYTES = 64 * 1024;

/**
 * A kernel manifest (docs/kernel-manifest.md): its text (inline WGSL included), and how many of
 * each thing it lists. The lab's own examples list 1–2 kernels, ≤ 20 uniform fields, 4 bindings.
 */
export const MANIFEST_CAPS = Object.freeze({ chars: 2 * 1024 * 1024, kernels: 16, variants: 16, bindings: 32, uniforms: 256, lets: 256, buffers: 16, require: 64, overrides: 64, features: 16, paramValues: 256 });
