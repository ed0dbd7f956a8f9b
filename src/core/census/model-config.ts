// A llama-family model's hyperparameters (what the training-step graph is built from): the
// built-in presets, or a GGUF header's llama.* keys. Hyperparameters that cannot make a model
// are refused by the field's name.
import { LabError } from '../errors';
import { MODEL_CAPS } from '../input/caps';
import type { GgufHeader } from './gguf';

export class ModelConfigError extends LabError {
  override name = 'ModelConfigError';
}

export interface ModelConfig {
  readonly name: string;
  readonly architecture: 'llama';
  readonly nVocab: number;
  readonly nEmbd: number;
  readonly nHead: number;
  readonly nHeadKv: number;
  readonly nLayer: number;
  readonly nFf: number;
  /** Tokens per sequence in the training step. */
  readonly nCtx: number;
  /** Sequences per step. */
  readonly nBatch: number;
  /** true: the output projection is token_embd (no output.weight tensor). */
  readonly tiedOutput: boolean;
  readonly rmsEps: number;
  readonly ropeFreqBase: number;
  /** Rotated dimensions per head (llama: the whole head). */
  readonly nRot: number;
}

/** Architectures whose graph the builder knows. */
export const KNOWN_ARCHITECTURES = ['llama'] as const;

type Shape = Pick<ModelConfig, 'nVocab' | 'nEmbd' | 'nHead' | 'nHeadKv' | 'nLayer' | 'nFf' | 'nCtx' | 'nBatch' | 'tiedOutput'>;

const DEFAULTS = { architecture: 'llama', rmsEps: 1e-5, ropeFreqBase: 10000 } as const;

export const PRESETS: Readonly<Record<string, ModelConfig>> = Object.freeze({
  tiny: makeConfig('tiny', { nVocab: 512, nEmbd: 64, nHead: 8, nHeadKv: 4, nLayer: 5, nFf: 172, nCtx: 128, nBatch: 1, tiedOutput: false }),
  '1b': makeConfig('1b', { nVocab: 32000, nEmbd: 2048, nHead: 32, nHeadKv: 8, nLayer: 16, nFf: 8192, nCtx: 512, nBatch: 1, tiedOutput: false }),
  // Llama-2-7B's shape (no GQA).
  '7b': makeConfig('7b', { nVocab: 32000, nEmbd: 4096, nHead: 32, nHeadKv: 32, nLayer: 32, nFf: 11008, nCtx: 512, nBatch: 1, tiedOutput: false }),
  // small enough for a whole training step on SwiftShader (a CPU) in a test: the graph run's test preset
  micro: makeConfig('micro', { nVocab: 64, nEmbd: 32, nHead: 4, nHeadKv: 2, nLayer: 1, nFf: 48, nCtx: 16, nBatch: 1, tiedOutput: false }),
});

export function presetByName(name: string): ModelConfig {
  // Own names only: PRESETS['__proto__'] is Object.prototype, not a preset.
  const p = Object.hasOwn(PRESETS, name) ? PRESETS[name] : undefined;
  if (!p) throw new ModelConfigError(`unknown preset '${name}' (presets: ${Object.keys(PRESETS).join(', ')})`);
  return p;
}

/** Checks every field; returns the frozen config. */
export function makeConfig(name: string, s: Shape & Partial<Pick<ModelConfig, 'rmsEps' | 'ropeFreqBase' | 'nRot'>>): ModelConfig {
  const positive: Exclude<keyof Shape, 'tiedOutput'>[] = ['nVocab', 'nEmbd', 'nHead', 'nHeadKv', 'nLayer', 'nFf', 'nCtx', 'nBatch'];
  for (const k of positive) {
    const v = s[k] as number;
    if (!Number.isSafeInteger(v) || v < 1) throw new ModelConfigError(`${name}: ${k} must be a positive integer, got ${v}`);
    if (v > MODEL_CAPS[k]) throw new ModelConfigError(`${name}: ${k} is ${v}, above the cap of ${MODEL_CAPS[k]} (docs/input-limits.md)`);
  }
  if (s.nEmbd % s.nHead !== 0) throw new ModelConfigError(`${name}: nHead ${s.nHead} does not divide nEmbd ${s.nEmbd}`);
  if (s.nHead % s.nHeadKv !== 0) throw new ModelConfigError(`${name}: nHeadKv ${s.nHeadKv} does not divide nHead ${s.nHead}`);
  const big = largestTensor(s);
  if (big.elements > MODEL_CAPS.tensorElements) throw new ModelConfigError(`${name}: ${big.what} would hold ${big.elements} elements, above the cap of 2^40 per tensor (docs/input-limits.md)`);
  const headDim = s.nEmbd / s.nHead;
  const nRot = s.nRot ?? headDim;
  if (!Number.isInteger(nRot) || nRot < 2 || nRot > headDim || nRot % 2) throw new ModelConfigError(`${name}: nRot ${nRot} must be even and in 2..${headDim} (the head size)`);
  const rmsEps = s.rmsEps ?? DEFAULTS.rmsEps;
  if (!(rmsEps > 0 && rmsEps < 1)) throw new ModelConfigError(`${name}: rmsEps must be in (0, 1), got ${rmsEps}`);
  const ropeFreqBase = s.ropeFreqBase ?? DEFAULTS.ropeFreqBase;
  if (!(ropeFreqBase > 0 && Number.isFinite(ropeFreqBase))) throw new ModelConfigError(`${name}: ropeFreqBase must be positive, got ${ropeFreqBase}`);
  return Object.freeze({ name, ...DEFAULTS, ...s, nRot, rmsEps, ropeFreqBase });
}

/**
 * The training step's largest tensor, from the hyperparameters alone (before any graph is
 * built): the logits, the attention scores, the FFN activations or a weight.
 */
export function largestTensor(s: Shape): { what: string; elements: number } {
  const tokens = s.nCtx * s.nBatch;
  const candidates = [
    { what: `the logits (vocab ${s.nVocab} × context ${s.nCtx} × batch ${s.nBatch})`, elements: s.nVocab * tokens },
    { what: `the attention scores (context ${s.nCtx}² × heads ${s.nHead} × batch ${s.nBatch})`, elements: s.nCtx * s.nCtx * s.nHead * s.nBatch },
    { what: `the FFN activations (FFN ${s.nFf} × context ${s.nCtx} × batch ${s.nBatch})`, elements: s.nFf * tokens },
    { what: `the token embeddings (vocab ${s.nVocab} × embedding ${s.nEmbd})`, elements: s.nVocab * s.nEmbd },
    { what: `an FFN weight (FFN ${s.nFf} × embedding ${s.nEmbd})`, elements: s.nFf * s.nEmbd },
  ];
  return candidates.reduce((a, b) => (b.elements > a.elements ? b : a));
}

/** The same model at another batch or context (the CLI's --batch, --context). */
export function withRun(c: ModelConfig, run: { nBatch?: number; nCtx?: number }): ModelConfig {
  return makeConfig(c.name, { ...c, ...(run.nBatch !== undefined ? { nBatch: run.nBatch } : {}), ...(run.nCtx !== undefined ? { nCtx: run.nCtx } : {}) });
}

/** A config from a GGUF header's general.architecture and <arch>.* keys; nCtx/nBatch from the run. */
export function configFromGguf(h: GgufHeader, run: { nCtx: number; nBatch: number; name?: string }): ModelConfig {
  const arch = h.metadata.get('general.architecture');
  if (typeof arch !== 'string') throw new ModelConfigError('general.architecture is missing or not a string');
  if (!(KNOWN_ARCHITECTURES as readonly string[]).includes(arch)) throw new ModelConfigError(`general.architecture '${arch}' is not one the graph builder knows (${KNOWN_ARCHITECTURES.join(', ')})`);
  const num = (key: string, fallback?: number, cap?: keyof typeof MODEL_CAPS): number => {
    const v = h.metadata.get(`${arch}.${key}`);
    if (v === undefined) {
      if (fallback !== undefined) return fallback;
      throw new ModelConfigError(`${arch}.${key} is missing`);
    }
    if (typeof v !== 'number' && typeof v !== 'bigint') throw new ModelConfigError(`${arch}.${key} is not a number (${typeof v})`);
    // Named by the file's key (block_count 1000000 once built a graph for 233 s, then ran out of memory).
    if (cap && v > MODEL_CAPS[cap]) throw new ModelConfigError(`${arch}.${key} is ${v}, above the cap of ${MODEL_CAPS[cap]} (${cap}; docs/input-limits.md)`);
    return Number(v);
  };
  const nHead = num('attention.head_count', undefined, 'nHead');
  const tokens = h.metadata.get('tokenizer.ggml.tokens');
  const embd = h.tensors.find((t) => t.name === 'token_embd.weight');
  const nVocab = h.metadata.has(`${arch}.vocab_size`) ? num('vocab_size', undefined, 'nVocab') : Array.isArray(tokens) ? tokens.length : embd ? embd.ne[1] : 0;
  if (!nVocab && !h.metadata.has(`${arch}.vocab_size`)) throw new ModelConfigError(`${arch}.vocab_size is missing (and no tokenizer.ggml.tokens or token_embd.weight gives it)`);
  const nEmbd = num('embedding_length', undefined, 'nEmbd');
  return makeConfig(run.name ?? String(h.metadata.get('general.name') ?? arch), {
    nVocab,
    nEmbd,
    nHead,
    nHeadKv: num('attention.head_count_kv', nHead, 'nHeadKv'),
    nLayer: num('block_count', undefined, 'nLayer'),
    nFf: num('feed_forward_length', undefined, 'nFf'),
    nCtx: run.nCtx,
    nBatch: run.nBatch,
    tiedOutput: h.tensors.length > 0 && !h.tensors.some((t) => t.name === 'output.weight'),
    rmsEps: num('attention.layer_norm_rms_epsilon', DEFAULTS.rmsEps),
    ropeFreqBase: num('rope.freq_base', DEFAULTS.ropeFreqBase),
    nRot: num('rope.dimension_count', nEmbd / (nHead || 1)),
  });
}
