// The formats run's options: the op, its shape, the formats (a representative set chosen first,
// every one selectable, grouped by family) and native-only; what the plan says about them shows
// before any run (a format whose block does not divide K will be a row with that reason).
import { For, Show } from 'solid-js';
import { FORMATS_OPS } from '../../../core/report/formats';
import { WEIGHT_FORMATS, type WeightKind } from '../../../core/quant/weights';
import { FORMATS_OP_NAMES, formatChoices, type FormatsForm } from './formats-form';
import { okOf } from '../../errors';
import { Select } from '../../components/Select';

const GROUPS: readonly { readonly title: string; readonly kind: WeightKind | 'plain' }[] = [
  { title: 'plain', kind: 'plain' },
  { title: 'ggml blocks', kind: 'ggml' },
  { title: 'ggml K-quants', kind: 'ggml-k' },
  { title: 'Track-1', kind: 'track1' },
];

const OP_DOC: Readonly<Record<string, string>> = {
  gemv: 'MUL_MAT, N = 1…8: MxNxK',
  gemm: 'MUL_MAT, N > 8: MxNxK',
  dequant: 'DEQUANT to f32: KxROWS',
  get_rows: 'GET_ROWS from a quantized table: KxTABLEROWSxNIDX',
};

export function FormatsOptions(props: { form: FormatsForm }) {
  const f = props.form;
  const kindOf = (name: string) => WEIGHT_FORMATS.find((w) => w.name === name)?.kind ?? 'plain';
  const docOf = (name: string) => WEIGHT_FORMATS.find((w) => w.name === name)?.doc ?? `${name} weights: the unquantized reference`;
  const plan = () => okOf(f.request())?.plan ?? null;
  const refusedHere = () => plan()?.cases.filter((c) => c.problem) ?? [];
  return (
    <>
      <div class="field">
        <label for="formats-op">op</label>
        <Select id="formats-op" testid="formats-op" value={f.op()} options={FORMATS_OP_NAMES} onChange={(v) => f.selectOp(v)} />
        <span class="hint">
          {OP_DOC[f.op()]} (the CLI's default: <code>{FORMATS_OPS[f.op()].defaultShape}</code>)
        </span>
      </div>
      <div class="field">
        <label for="formats-shape">shape</label>
        <input id="formats-shape" class="mono wide-input" data-testid="formats-shape" spellcheck={false} value={f.shapeText()} onInput={(e) => f.setShapeText(e.currentTarget.value)} />
      </div>
      <div class="field field-column">
        <div class="format-group">
          <strong data-testid="formats-count">
            formats ({f.selected().length} of {formatChoices(f.op()).length})
          </strong>
          <button type="button" class="small" data-testid="formats-representative" onClick={() => f.selectRepresentative()}>
            representative
          </button>
          <button type="button" class="small" data-testid="formats-all" onClick={() => f.selectAll()}>
            all
          </button>
          <button type="button" class="small" data-testid="formats-none" onClick={() => f.selectNone()}>
            none
          </button>
        </div>
        <For each={GROUPS}>
          {(g) => (
            <Show when={formatChoices(f.op()).some((n) => kindOf(n) === g.kind)}>
              <div class="format-group">
                <span class="muted">{g.title}:</span>
                <For each={formatChoices(f.op()).filter((n) => kindOf(n) === g.kind)}>
                  {(name) => (
                    <label class="format-choice" title={docOf(name)}>
                      <input type="checkbox" data-testid={`format-${name}`} checked={f.selected().includes(name)} onChange={(e) => f.toggle(name, e.currentTarget.checked)} />
                      <span class="mono">{name}</span>
                    </label>
                  )}
                </For>
              </div>
            </Show>
          )}
        </For>
      </div>
      <div class="field">
        <label for="formats-native">native only</label>
        <input id="formats-native" type="checkbox" data-testid="formats-native" checked={f.native()} onChange={(e) => f.setNative(e.currentTarget.checked)} />
        <span class="hint">time the hand-written kernel instead of the registry's pick</span>
      </div>
      <Show when={refusedHere().length}>
        <p class="note" data-testid="formats-plan-note">
          Will be rows with their reason, not run: {refusedHere().map((c) => `${c.name} (${c.problem})`).join('; ')}
        </p>
      </Show>
    </>
  );
}
