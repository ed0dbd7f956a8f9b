// The Lane view's options, as signals, and the LaneRequest they mean (or why there is none):
// the same choices as `npm run lab -- lane` (--op, --shape, --repeat, --tolerance, --prefer,
// --control, --seed, --undeclare). Pure core code checks everything before the worker runs.
import { parseCount } from '../../../core/input/counts';
import { parseCaseSpec } from '../../../core/ops/shape-specs';
import { createMemo, createSignal } from 'solid-js';
import type { AdapterIdentity } from '../../../core/ops/promotion';
import { OPS, registryEntry, registryStateFor } from '../../../core/ops/registry';
import { DEFAULT_TOLERANCE } from '../../../core/stats/verdict';
import type { LaneControl, LaneRequest } from '../../../core/results';
import { errorInfo } from '../../errors';
import type { UserKernelRecord } from '../../../storage/db';

export const DEFAULT_REPEAT = 5;
export const CONTROLS: readonly { value: LaneControl; doc: string }[] = [
  { value: 'aa', doc: 'A/A: the generated side is the native kernel itself (expect parity)' },
  { value: 'slow', doc: 'slow: the native kernel doing 3× the work (expect slower)' },
  { value: 'stall', doc: 'stall: the native kernel doing 200× the work (expect too-slow: the watchdog)' },
  { value: 'wrong', doc: 'wrong: a kernel that skips half its output (expect wrong, never timed)' },
];

/** Ops the lane runs by default: every op with a generated kernel to compare (on this adapter's class, when given). */
export function defaultLaneOps(adapter?: AdapterIdentity): string[] {
  return OPS.filter((o) => {
    const state = adapter ? registryStateFor(o.name, adapter).state : registryEntry(o.name).state;
    return state !== 'native-only' && state !== 'retired';
  }).map((o) => o.name);
}

export type LaneShapeSpec = NonNullable<LaneRequest['shapes']>[number];

/**
 * "ADD:256x16, RMS_NORM:64x8:eps=1e-5" → lane cases, like the CLI's --shape OP:DIMS[:LAYOUT][:k=v,…]
 * (commas, spaces or newlines between them; a comma before `name=` continues the params).
 * Throws naming the first bad entry.
 */
export function parseLaneShapes(text: string): LaneShapeSpec[] {
  return text.split(/\s+|,(?![A-Za-z_]\w*=)/).filter(Boolean).map(parseCaseSpec);
}

/** repeat and seed as the CLI reads them: digits, 1 to the cap (RUN_CAPS), never fewer than typed. */
function positiveInt(text: string, what: 'repeat' | 'seed'): number {
  return parseCount(text, what, what);
}

export function createLaneForm() {
  /** User kernels kept for this adapter (the Kernel view keeps each one that ran), and which are ticked. */
  const [savedKernels, setSavedKernels] = createSignal<readonly UserKernelRecord[]>([]);
  const [kernelKeys, setKernelKeys] = createSignal<readonly string[]>([]);
  const [ops, setOps] = createSignal<readonly string[]>(defaultLaneOps());
  const [prefer, setPrefer] = createSignal<readonly string[]>([]);
  const [repeatText, setRepeatText] = createSignal(String(DEFAULT_REPEAT));
  const [toleranceText, setToleranceText] = createSignal(String(DEFAULT_TOLERANCE));
  const [shapesText, setShapesText] = createSignal('');
  const [control, setControl] = createSignal<LaneControl | ''>('');
  const [seedText, setSeedText] = createSignal('1');
  const [undeclare, setUndeclare] = createSignal<readonly string[]>([]);

  const toggle = (list: readonly string[], item: string, on: boolean) => (on ? [...new Set([...list, item])] : list.filter((x) => x !== item));

  const shapes = createMemo((): { ok: LaneShapeSpec[] } | { error: string } => {
    try {
      return { ok: parseLaneShapes(shapesText()) };
    } catch (e) {
      return { error: errorInfo(e).message };
    }
  });

  /** The request Run sends, or the reason there is none. */
  const request = createMemo((): { ok: LaneRequest } | { error: string } => {
    try {
      const s = shapes();
      if ('error' in s) return { error: `shapes: ${s.error}` };
      // A shape list names its own ops (as --shape does); otherwise the ticked ops' matrices.
      if (!s.ok.length && !ops().length) return { error: 'tick at least one op, or list shapes' };
      const tolerance = Number(toleranceText());
      if (toleranceText().trim() === '' || !(tolerance >= 0 && tolerance < 1)) return { error: `tolerance must be a number in [0, 1), got '${toleranceText()}'` };
      const kernels = savedKernels()
        .filter((k) => kernelKeys().includes(k.key))
        .map((k) => ({ manifest: k.manifest, files: k.files }));
      // Order as the registry lists them, so results read the same run after run.
      const inOrder = (names: readonly string[]) => OPS.map((o) => o.name).filter((n) => names.includes(n));
      return {
        ok: {
          ops: s.ok.length ? undefined : inOrder(ops()),
          shapes: s.ok.length ? s.ok : undefined,
          repeat: positiveInt(repeatText(), 'repeat'),
          tolerance,
          prefer: inOrder(prefer()),
          control: control() || undefined,
          seed: positiveInt(seedText(), 'seed'),
          undeclare: [...undeclare()],
          kernels: kernels.length ? kernels : undefined,
        },
      };
    } catch (e) {
      return { error: errorInfo(e).message };
    }
  });

  return {
    ops,
    setOpIncluded: (op: string, on: boolean) => setOps(toggle(ops(), op, on)),
    prefer,
    setPreferred: (op: string, on: boolean) => setPrefer(toggle(prefer(), op, on)),
    repeatText,
    setRepeatText,
    toleranceText,
    setToleranceText,
    shapesText,
    setShapesText,
    shapes,
    control,
    setControl,
    seedText,
    setSeedText,
    undeclare,
    setUndeclared: (code: string, on: boolean) => setUndeclare(toggle(undeclare(), code, on)),
    savedKernels,
    setSavedKernels,
    kernelKeys,
    setKernelIncluded: (key: string, on: boolean) => setKernelKeys(toggle(kernelKeys(), key, on)),
    request,
  };
}

export type LaneForm = ReturnType<typeof createLaneForm>;
