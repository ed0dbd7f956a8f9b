// Which shape: an entry of the op's matrix, or a custom shape in the op's syntax, and the
// layout (views, aliasing, broadcasts). A shape the op rejects shows why, inline.
import { For, Show } from 'solid-js';
import { formatParam, paramRange } from '../../../core/ops/types';
import { entryLabel, type KernelForm } from './kernel-form';
import { InlineError } from '../../components/InlineError';
import { errorOf } from '../../errors';

const CUSTOM = 'custom';

export function ShapePicker(props: { form: KernelForm }) {
  const f = props.form;
  let input: HTMLInputElement | undefined;
  const selectValue = () => {
    const i = f.matrixIndex();
    return f.customShape() || i === null ? CUSTOM : String(i);
  };
  const layoutDoc = () => f.op().layouts.find((l) => l.name === f.layout())?.doc ?? '';
  const shapeError = () => errorOf(f.caseOrError());
  return (
    <>
      <div class="field">
        <label for="shape-select">shape</label>
        <select
          id="shape-select"
          data-testid="shape-select"
          onChange={(e) => {
            const v = e.currentTarget.value;
            if (v === CUSTOM) {
              f.setCustomShape(true);
              input?.focus();
              input?.select();
            } else f.selectEntry(Number(v));
          }}
        >
          {/* `selected` per option, not the select's value: the options change with the op. */}
          <For each={f.op().matrix}>
            {(e, i) => (
              <option value={String(i())} selected={selectValue() === String(i())}>
                {entryLabel(f.op(), e)}
              </option>
            )}
          </For>
          <option value={CUSTOM} selected={selectValue() === CUSTOM}>
            custom…
          </option>
        </select>
        <input
          ref={input}
          class="mono shape-input"
          data-testid="shape-input"
          aria-label="custom shape"
          aria-invalid={shapeError() !== null}
          spellcheck={false}
          value={f.dimsText()}
          placeholder={f.op().shapeSyntax}
          onInput={(e) => {
            f.setCustomShape(true);
            f.setDimsText(e.currentTarget.value);
          }}
        />
        <span class="hint mono">{f.op().shapeSyntax}</span>
      </div>
      <div class="field">
        <label for="layout-select">layout</label>
        <select id="layout-select" data-testid="layout-select" onChange={(e) => f.setLayout(e.currentTarget.value)}>
          <For each={f.op().layouts}>
            {(l) => (
              <option value={l.name} title={l.doc} selected={l.name === f.layout()}>
                {l.name}
              </option>
            )}
          </For>
        </select>
        <span class="hint">{layoutDoc()}</span>
      </div>
      {/* One field per declared param; empty means the default. A bad value is the shape error below (Run disabled). */}
      <For each={f.op().params}>
        {(p) => (
          <div class="field">
            <label for={`param-${p.name}`}>{p.name}</label>
            {/* An enum (MUL_MAT's type0: f32, f16 and every weight format) is a select of its names. */}
            <Show
              when={p.type === 'enum'}
              fallback={
                <input
                  id={`param-${p.name}`}
                  data-testid={`param-${p.name}`}
                  class="mono"
                  value={f.paramTexts()[p.name] ?? ''}
                  placeholder={formatParam(p.default)}
                  title={`${p.doc} (${paramRange(p)})`}
                  onInput={(e) => {
                    f.setCustomShape(true);
                    f.setParamText(p.name, e.currentTarget.value);
                  }}
                />
              }
            >
              <select
                id={`param-${p.name}`}
                data-testid={`param-${p.name}`}
                class="mono"
                title={p.doc}
                onChange={(e) => {
                  f.setCustomShape(true);
                  f.setParamText(p.name, e.currentTarget.value);
                }}
              >
                <For each={p.values ?? []}>
                  {(v) => (
                    <option value={String(v.value)} selected={(f.paramTexts()[p.name] || String(p.default)) === String(v.value)}>
                      {v.name}
                    </option>
                  )}
                </For>
              </select>
            </Show>
            <span class="hint">{p.type === 'enum' && (p.values?.length ?? 0) > 8 ? p.doc : `${p.doc}; ${paramRange(p)}`}</span>
          </div>
        )}
      </For>
      <InlineError message={shapeError()} testid="shape-error" />
    </>
  );
}
