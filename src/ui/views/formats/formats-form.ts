// The Formats view's options, as signals, and the FormatsRequest they mean (or why there is none):
// the same choices as `npm run lab -- formats` (--op, --shape, --format, --native), checked by
// the same plan (planFormatsRequest) before the Run button is enabled.
import { createMemo, createSignal } from 'solid-js';
import { FORMATS_OPS, planFormatsRequest, type FormatsOp, type FormatsPlan, type FormatsRequest } from '../../../core/report/formats';
import { WEIGHT_FORMATS } from '../../../core/quant/weights';
import { errorInfo } from '../../errors';

export const FORMATS_OP_NAMES = Object.keys(FORMATS_OPS) as FormatsOp[];

/**
 * What the view selects before the user chooses: one of each family a browser LLM ships (ggml's
 * 8- and 4-bit blocks, a K-quant, MXFP4/NVFP4, a plain int4), plus the f32/f16 reference where
 * the op takes it. Every format the lab knows stays selectable.
 */
export const REPRESENTATIVE_FORMATS: readonly string[] = ['q8_0', 'q4_0', 'q4_k', 'mxfp4', 'nvfp4', 'int4'];

/** The formats an op offers: f32/f16 where it takes plain weights, then every weight format. */
export function formatChoices(op: FormatsOp): string[] {
  return [...FORMATS_OPS[op].plain.map((id) => (id === 0 ? 'f32' : 'f16')), ...WEIGHT_FORMATS.map((f) => f.name)];
}

/** The representative set an op offers, in its choice order. */
export function representativeFormats(op: FormatsOp): string[] {
  const plain: string[] = FORMATS_OPS[op].plain.map((id) => (id === 0 ? 'f32' : 'f16'));
  return formatChoices(op).filter((f) => plain.includes(f) || REPRESENTATIVE_FORMATS.includes(f));
}

/** SwiftShader and small GPUs: a small default shape per op, so the first run is quick. */
export const PAGE_DEFAULT_SHAPES: Readonly<Record<FormatsOp, string>> = {
  gemv: '1024x1x1024',
  gemm: '256x64x256',
  dequant: '1024x256',
  get_rows: '1024x256x16',
};

export function createFormatsForm() {
  const [op, setOp] = createSignal<FormatsOp>('gemv');
  const [shapeText, setShapeText] = createSignal(PAGE_DEFAULT_SHAPES.gemv);
  const [selected, setSelected] = createSignal<readonly string[]>(representativeFormats('gemv'));
  const [native, setNative] = createSignal(false);

  /** Another op: its default shape; the chosen formats it also offers stay chosen. */
  const selectOp = (name: string) => {
    const next = (FORMATS_OP_NAMES as string[]).includes(name) ? (name as FormatsOp) : 'gemv';
    const offered = formatChoices(next);
    setOp(next);
    setShapeText(PAGE_DEFAULT_SHAPES[next]);
    setSelected((s) => {
      const kept = s.filter((f) => offered.includes(f));
      return kept.length ? kept : representativeFormats(next);
    });
  };
  const toggle = (format: string, on: boolean) => setSelected((s) => (on ? formatChoices(op()).filter((f) => f === format || s.includes(f)) : s.filter((f) => f !== format)));
  const selectAll = () => setSelected(formatChoices(op()));
  const selectRepresentative = () => setSelected(representativeFormats(op()));
  const selectNone = () => setSelected([]);

  const request = createMemo((): { ok: FormatsRequest; plan: FormatsPlan } | { error: string } => {
    if (!selected().length) return { error: 'choose at least one format' };
    const req: FormatsRequest = { op: op(), shape: shapeText().trim(), formats: [...selected()], native: native() };
    try {
      return { ok: req, plan: planFormatsRequest(req) };
    } catch (e) {
      return { error: errorInfo(e).message };
    }
  });

  return { op, selectOp, shapeText, setShapeText, selected, toggle, selectAll, selectRepresentative, selectNone, native, setNative, request };
}

export type FormatsForm = ReturnType<typeof createFormatsForm>;
