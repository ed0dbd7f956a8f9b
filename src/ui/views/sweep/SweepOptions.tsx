// The sweep's options: op, reps, shapes (the matrix or a list) and the space to search, with
// how many candidates that makes on this adapter.
import { Show } from 'solid-js';
import { JsonTextArea } from '../../components/JsonTextArea';
import { KnobTable } from '../../components/KnobTable';
import { OPS } from '../../../core/ops/registry';
import { matrixLabels, type SweepForm } from './sweep-form';
import { InlineError } from '../../components/InlineError';
import { errorOf } from '../../errors';
import { Select } from '../../components/Select';

export function SweepOptions(props: { form: SweepForm }) {
  const f = props.form;
  const shapesError = () => errorOf(f.shapes());
  const spaceError = () => errorOf(f.space());
  const shapeCount = () => {
    const s = f.shapes();
    return 'ok' in s && s.ok.length ? s.ok.length : f.op().matrix.length;
  };
  return (
    <>
      <div class="field">
        <label for="sweep-op">op</label>
        <Select id="sweep-op" testid="sweep-op" value={f.op().name} options={OPS.map((op) => op.name)} onChange={(v) => f.selectOp(v)} />
        <span class="hint">
          family <code>{f.op().family}</code>
        </span>
      </div>
      <div class="field">
        <label for="sweep-reps">reps</label>
        <input id="sweep-reps" class="mono num-input" data-testid="sweep-reps" inputmode="numeric" value={f.repsText()} onInput={(e) => f.setRepsText(e.currentTarget.value)} />
        <span class="hint">timed rounds per shape, round-robin over the candidates and the reference; a gain must clear both spreads</span>
      </div>
      <div class="field">
        <label for="sweep-shapes">shapes</label>
        <input
          id="sweep-shapes"
          class="mono wide-input"
          data-testid="sweep-shapes"
          spellcheck={false}
          placeholder={`the op's sweep shapes: ${matrixLabels(f.op()).join(', ')}`}
          aria-invalid={shapesError() !== null}
          value={f.shapesText()}
          onInput={(e) => f.setShapesText(e.currentTarget.value)}
        />
        <span class="hint mono">DIMS[:LAYOUT], … ({f.op().shapeSyntax}); empty: the matrix</span>
      </div>
      <InlineError message={shapesError()} testid="sweep-shapes-error" />
      <div class="field field-column">
        <div class="schedule-head">
          <label for="sweep-space">space ({f.op().family}): knob → values to try</label>
          <button type="button" class="small" onClick={() => f.resetSpace()} title="The family's whole space">
            reset to the whole space
          </button>
        </div>
        <JsonTextArea
          id="sweep-space"
          testId="sweep-space"
          errorTestId="sweep-space-error"
          text={f.spaceJson()}
          onText={(t) => f.setSpaceJson(t)}
          error={spaceError()}
          minRows={4}
          maxRows={12}
        />
        <Show when={f.candidateCount()}>
          {(n) => (
            <span class="hint" data-testid="sweep-count">
              {n().total} candidates, {n().valid} valid on this adapter's limits, over {shapeCount()} shape{shapeCount() === 1 ? '' : 's'}
            </span>
          )}
        </Show>
        <KnobTable family={f.op().family} />
      </div>
      <div class="field">
        <label for="sweep-seed">seed</label>
        <input id="sweep-seed" class="mono num-input" data-testid="sweep-seed" inputmode="numeric" value={f.seedText()} onInput={(e) => f.setSeedText(e.currentTarget.value)} />
        <span class="hint">input data seed</span>
      </div>
    </>
  );
}
