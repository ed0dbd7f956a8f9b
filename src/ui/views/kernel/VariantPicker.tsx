// Which kernel: the registry's pick ('auto'), the hand-written one ('native'), or a schedule
// typed as JSON. The pick and any parse error show as the form changes.
import { For, Match, Show, Switch } from 'solid-js';
import { JsonTextArea } from '../../components/JsonTextArea';
import { KnobTable } from '../../components/KnobTable';
import type { KernelForm, VariantKind } from './kernel-form';
import { UserKernelEditor } from './UserKernelEditor';
import { errorOf } from '../../errors';

const VARIANTS: readonly { kind: VariantKind; title: string; doc: string }[] = [
  { kind: 'auto', title: 'auto', doc: "the registry's pick (schedulesFor), or native when the contract rejects the shape" },
  { kind: 'native', title: 'native', doc: 'the hand-written WGSL kernel' },
  { kind: 'schedule', title: 'schedule', doc: 'a generated kernel from the schedule below' },
  { kind: 'user', title: 'your kernel', doc: 'your own WGSL with a manifest (docs/kernel-manifest.md)' },
];

export function VariantPicker(props: { form: KernelForm }) {
  const f = props.form;
  const scheduleError = () => errorOf(f.parsedSchedule());
  const pickedKey = () => {
    const p = f.pick();
    return p && 'key' in p ? p.key : null;
  };
  const fallback = () => {
    const p = f.pick();
    return p && 'fallback' in p ? p.fallback : null;
  };
  return (
    <>
      <div class="field">
        <span class="label">variant</span>
        <div class="radios" role="radiogroup" aria-label="variant">
          <For each={VARIANTS}>
            {(v) => (
              <label title={v.doc}>
                <input type="radio" name="variant" value={v.kind} data-testid={`variant-${v.kind}`} checked={f.variant() === v.kind} onChange={() => f.setVariant(v.kind)} />
                {v.title}
              </label>
            )}
          </For>
        </div>
        <span class="hint" data-testid="auto-pick">
          <Switch fallback="auto: the shape above is not valid yet">
            <Match when={pickedKey()}>
              {(key) => (
                <>
                  auto picks <code>{key()}</code>
                </>
              )}
            </Match>
            <Match when={fallback()}>
              {(fb) => (
                <>
                  auto falls back to native: <code>{fb().code}</code> — {fb().reason}
                </>
              )}
            </Match>
          </Switch>
        </span>
      </div>
      <Show when={f.variant() === 'user'}>
        <UserKernelEditor state={f.user} />
      </Show>
      <Show when={f.variant() === 'schedule'}>
        <div class="field field-column">
          <div class="schedule-head">
            <label for="schedule-json">schedule ({f.op().family})</label>
            <button type="button" class="small" onClick={() => f.resetSchedule()} title="Replace the text with the registry's pick for this shape">
              reset to auto pick
            </button>
          </div>
          <JsonTextArea
            id="schedule-json"
            testId="schedule-json"
            errorTestId="schedule-error"
            text={f.scheduleText()}
            onText={(t) => f.setScheduleText(t)}
            error={scheduleError()}
            minRows={5}
            maxRows={16}
          />
          <KnobTable family={f.op().family} />
        </div>
      </Show>
    </>
  );
}
