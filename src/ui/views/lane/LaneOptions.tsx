// The lane's options: which pairs (and which to gate as prefer), passes, tolerance, an optional
// shape list replacing the matrices, and in "advanced" the statistics controls.
import { For, Show } from 'solid-js';
import { OPS, registryEntry } from '../../../core/ops/registry';
import type { LaneControl } from '../../../core/results';
import { CONTROLS, type LaneForm } from './lane-form';
import { InlineError } from '../../components/InlineError';
import { errorOf } from '../../errors';

export function LaneOptions(props: { form: LaneForm }) {
  const f = props.form;
  const shapesListed = () => {
    const s = f.shapes();
    return 'ok' in s && s.ok.length > 0;
  };
  const shapesError = () => errorOf(f.shapes());
  const declaredCodes = () => OPS.flatMap((o) => registryEntry(o.name).declaredRejections.map((code) => ({ op: o.name, code })));
  return (
    <>
      <table class="data ops-table" data-testid="lane-ops">
        <thead>
          <tr>
            <th>op</th>
            <th>registry state</th>
            <th title="Run this pair over its shape matrix">run</th>
            <th title="Gate this pair for this run only: its slower, wrong or too-slow shapes fail the lane (--prefer)">treat as prefer</th>
            <th>declared rejections</th>
          </tr>
        </thead>
        <tbody>
          <For each={OPS}>
            {(op) => {
              const entry = registryEntry(op.name);
              return (
                <tr>
                  <td class="mono">{op.name}</td>
                  <td class="mono">{entry.state}</td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`run ${op.name}`}
                      data-testid={`lane-op-${op.name}`}
                      checked={f.ops().includes(op.name)}
                      disabled={shapesListed()}
                      title={shapesListed() ? 'the shape list below names the ops' : undefined}
                      onChange={(e) => f.setOpIncluded(op.name, e.currentTarget.checked)}
                    />
                  </td>
                  <td>
                    <input type="checkbox" aria-label={`treat ${op.name} as prefer`} data-testid={`lane-prefer-${op.name}`} checked={f.prefer().includes(op.name)} onChange={(e) => f.setPreferred(op.name, e.currentTarget.checked)} />
                  </td>
                  <td class="mono muted">{entry.declaredRejections.join(', ') || '—'}</td>
                </tr>
              );
            }}
          </For>
        </tbody>
      </table>
      <div class="field">
        <span class="label">yours</span>
        <Show when={f.savedKernels().length} fallback={<span class="hint">your kernels show here once they ran in the Kernel view ("your kernel") on this adapter</span>}>
          <For each={f.savedKernels()}>
            {(k) => (
              <label class="toggle">
                <input type="checkbox" data-testid={`lane-kernel-${k.kernelId}`} checked={f.kernelKeys().includes(k.key)} onChange={(e) => f.setKernelIncluded(k.key, e.currentTarget.checked)} />
                <span class="mono">
                  {k.kernelId} ({k.op})
                </span>
              </label>
            )}
          </For>
          <span class="hint">timed as further columns beside native and generated on their op's shapes (--kernel)</span>
        </Show>
      </div>
      <div class="field">
        <label for="lane-repeat">repeat</label>
        <input id="lane-repeat" class="mono num-input" data-testid="lane-repeat" inputmode="numeric" value={f.repeatText()} onInput={(e) => f.setRepeatText(e.currentTarget.value)} />
        <span class="hint">timed passes per shape, alternating native and generated; the verdict uses the median of their speedups</span>
      </div>
      <div class="field">
        <label for="lane-tolerance">tolerance</label>
        <input id="lane-tolerance" class="mono num-input" data-testid="lane-tolerance" inputmode="decimal" value={f.toleranceText()} onInput={(e) => f.setToleranceText(e.currentTarget.value)} />
        <span class="hint">a median speedup below 1 − tolerance is slower (a regression)</span>
      </div>
      <div class="field field-column">
        <label for="lane-shapes">shapes (optional: replaces the ops' matrices)</label>
        <textarea
          id="lane-shapes"
          class="mono"
          rows={3}
          data-testid="lane-shapes"
          spellcheck={false}
          placeholder="OP:DIMS[:LAYOUT], … e.g. ADD:256x16, MUL_MAT:64x64x64"
          aria-invalid={shapesError() !== null}
          value={f.shapesText()}
          onInput={(e) => f.setShapesText(e.currentTarget.value)}
        />
        <InlineError message={shapesError()} testid="lane-shapes-error" />
        <Show when={shapesListed()}>
          <span class="hint">the listed shapes name the ops that run; the ticks above are set aside</span>
        </Show>
      </div>
      <details class="advanced" data-testid="lane-advanced">
        <summary>advanced: statistics controls, seed, what-if rejections</summary>
        <div class="field">
          <label for="lane-control">control</label>
          <select id="lane-control" data-testid="lane-control" onChange={(e) => f.setControl(e.currentTarget.value as '' | LaneControl)}>
            <option value="" selected={f.control() === ''}>
              none (the registry's generated kernels)
            </option>
            <For each={CONTROLS}>
              {(c) => (
                <option value={c.value} selected={f.control() === c.value}>
                  {c.doc}
                </option>
              )}
            </For>
          </select>
          <span class="hint">plants a known answer in place of every generated kernel, to check the statistics</span>
        </div>
        <div class="field">
          <label for="lane-seed">seed</label>
          <input id="lane-seed" class="mono num-input" data-testid="lane-seed" inputmode="numeric" value={f.seedText()} onInput={(e) => f.setSeedText(e.currentTarget.value)} />
          <span class="hint">input data seed: the same seed gives the same inputs in every runtime</span>
        </div>
        <div class="field">
          <span class="label">undeclare</span>
          <Show when={declaredCodes().length} fallback={<span class="hint">no op declares a rejection</span>}>
            <For each={declaredCodes()}>
              {(d) => (
                <label class="toggle">
                  <input type="checkbox" data-testid={`lane-undeclare-${d.code}`} checked={f.undeclare().includes(d.code)} onChange={(e) => f.setUndeclared(d.code, e.currentTarget.checked)} />
                  <span class="mono">
                    {d.op}: {d.code}
                  </span>
                </label>
              )}
            </For>
            <span class="hint">what-if: treat these rejections as undeclared for this run (their fallbacks then fail the lane)</span>
          </Show>
        </div>
        <p class="note">The adapter is the page's: open it with <code>?device=NAME</code> to require a particular one (the CLI's --device).</p>
      </details>
    </>
  );
}
