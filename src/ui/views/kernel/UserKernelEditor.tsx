// "Your kernel": paste or drop a manifest and its WGSL (docs/kernel-manifest.md), start from
// one of the lab's examples, or restore one kept for this adapter. What it resolves to for the
// case above — its passes, or the named error or refusal — shows as you type.
import { For, Show } from 'solid-js';
import { EXAMPLE_KERNELS } from '../../../core/manifest/examples';
import { JsonTextArea } from '../../components/JsonTextArea';
import type { UserKernelState } from './user-kernel-state';
import { okOf } from '../../errors';

export function UserKernelEditor(props: { state: UserKernelState }) {
  const s = props.state;
  const plan = () => okOf(s.check())?.ok ?? null;
  const checkError = () => {
    const c = s.check();
    return 'error' in c ? c : null;
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    void s.drop([...(e.dataTransfer?.files ?? [])]);
  };
  return (
    <div class="field field-column user-kernel" data-testid="user-kernel" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <div class="schedule-head">
        <label for="user-manifest">manifest (JSON) — drop a manifest.json and .wgsl files here</label>
        <select data-testid="user-example" aria-label="start from an example" onChange={(e) => e.currentTarget.value && s.loadExample(e.currentTarget.value)}>
          <option value="">start from an example…</option>
          <For each={EXAMPLE_KERNELS}>{(ex) => <option value={ex.dir}>{ex.dir}</option>}</For>
        </select>
        <Show when={s.saved().length}>
          <select data-testid="user-saved" aria-label="restore a kernel kept for this adapter" onChange={(e) => e.currentTarget.value && s.restore(e.currentTarget.value)}>
            <option value="">kept for this adapter…</option>
            <For each={s.saved()}>{(r) => <option value={r.key}>{`${r.kernelId} (${r.op}, ${r.savedAt.slice(0, 16).replace('T', ' ')})`}</option>}</For>
          </select>
        </Show>
        <label class="small file-pick">
          open files…
          <input type="file" multiple accept=".json,.wgsl,text/plain" data-testid="user-files" onChange={(e) => void s.drop([...(e.currentTarget.files ?? [])])} />
        </label>
      </div>
      <JsonTextArea id="user-manifest" testId="user-manifest" errorTestId="user-manifest-error" text={s.manifest()} onText={s.setManifest} error={null} minRows={6} maxRows={24} />
      <For each={s.files()}>
        {(f, i) => (
          <div class="user-wgsl">
            <div class="schedule-head">
              <input type="text" class="mono" aria-label="WGSL file name" data-testid={`user-wgsl-name-${i()}`} value={f.name} onInput={(e) => s.setFile(i(), { ...f, name: e.currentTarget.value })} />
              <button type="button" class="small" onClick={() => s.removeFile(i())}>
                remove
              </button>
            </div>
            <textarea
              class="mono"
              data-testid={`user-wgsl-${i()}`}
              aria-label={`WGSL ${f.name}`}
              rows={Math.min(24, Math.max(6, f.text.split('\n').length))}
              spellcheck={false}
              value={f.text}
              onInput={(e) => s.setFile(i(), { ...f, text: e.currentTarget.value })}
            />
          </div>
        )}
      </For>
      <div>
        <button type="button" class="small" data-testid="user-add-file" onClick={() => s.addFile()}>
          add a WGSL file
        </button>
      </div>
      <p class="hint" data-testid="user-check">
        <Show when={plan()}>
          {(p) => (
            <>
              {p().name} resolves to {p().passes.length} pass{p().passes.length > 1 ? 'es' : ''}: {p().passes.map((x) => `${x.kernelName} ${x.dispatch.join('×')} workgroups of ${x.workgroupSize.join('×')}`).join(', then ')}
              {p().scratch.length ? ` · scratch ${p().scratch.map((b) => `${b.name} ${b.sizeBytes} B`).join(', ')}` : ''}
            </>
          )}
        </Show>
        <Show when={checkError()}>
          {(e) => (
            <span class="inline-error" role="alert" data-testid="user-check-error">
              {e().name}: {e().error}
            </span>
          )}
        </Show>
      </p>
    </div>
  );
}
