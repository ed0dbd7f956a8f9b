// The census: a preset (the default) or a GGUF file's header (only the header is read, by
// slices of the file), the training step's graph built in the worker (LabApi.census: a large
// model's graph or a long header never freezes the tab), bytes per op as bars and the table.
// A bad file shows its named error (a cap it passes, a field it lacks); the view stays usable.
import { createEffect, createMemo, createSignal, For, on, Show } from 'solid-js';
import { fmtBytes } from '../../core/report/format';
import type { CensusReport, CensusRequest } from '../../core/census/census-request';
import { PRESETS } from '../../core/census/model-config';
import { censusBars } from '../charts/census-bars';
import { UPlot } from '../charts/UPlot';
import { ErrorBox } from '../components/ErrorBox';
import { errorInfo, type ErrorInfo } from '../errors';
import { lab } from '../lab-client';
import type { ViewProps } from './view-props';

export function CensusView(props: ViewProps) {
  const adapter = () => ({ vendor: props.adapter.vendor, architecture: props.adapter.architecture });
  const [request, setRequest] = createSignal<CensusRequest>({ kind: 'preset', preset: 'tiny', adapter: adapter() });
  const [report, setReport] = createSignal<(CensusReport & { c: NonNullable<CensusReport['config']> }) | null>(null);
  const [error, setError] = createSignal<ErrorInfo | null>(null);
  const [busy, setBusy] = createSignal(false);
  // Each request asks the worker; a reply to an older request (a second file picked meanwhile) is dropped.
  let asked = 0;
  createEffect(
    on(request, (req) => {
      const mine = ++asked;
      setBusy(true);
      lab.census(req).then(
        (r) => {
          if (mine !== asked) return;
          // A file that fails keeps the last census on screen (its error says why).
          if (r.config) setReport({ ...r, c: r.config });
          setBusy(false);
        },
        (e) => {
          if (mine !== asked) return;
          setError(errorInfo(e));
          setBusy(false);
        },
      );
    }),
  );
  const census = () => {
    const r = report()!;
    return { c: r.c, result: r.census, ms: r.buildMs };
  };
  const chart = createMemo(() => (report() ? censusBars(report()!.census.rows) : null));
  const pickFile = (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setRequest({ kind: 'gguf', file, name: file.name, adapter: adapter() });
  };
  return (
    <div class="census-view" data-testid="census-view">
      <section class="panel">
        <h2>Model</h2>
        <label>
          preset{' '}
          <select data-testid="census-preset" onChange={(e) => (setError(null), setRequest({ kind: 'preset', preset: e.currentTarget.value, adapter: adapter() }))}>
            <For each={Object.keys(PRESETS)}>{(name) => <option value={name}>{name}</option>}</For>
          </select>
        </label>{' '}
        <label>
          or a GGUF file (only its header is read){' '}
          <input type="file" accept=".gguf" data-testid="census-file" onChange={(e) => pickFile(e.currentTarget.files?.[0])} />
        </label>
        <Show when={error()}>{(e) => <ErrorBox title="This file cannot be read" error={e()} testid="census-error" />}</Show>
        <Show when={busy()}>
          <p class="muted" data-testid="census-busy">building the training step's graph (in the worker)…</p>
        </Show>
        <Show when={report()}>
        <p data-testid="census-summary">
          {census().c.name}: vocab {census().c.nVocab}, embedding {census().c.nEmbd}, {census().c.nHead} heads ({census().c.nHeadKv} KV), {census().c.nLayer} layers, FFN{' '}
          {census().c.nFf}, context {census().c.nCtx}, batch {census().c.nBatch} — {census().result.totalNodes} nodes ({census().result.rows.reduce((s, r) => s + r.nodes, 0)} compute,{' '}
          {census().result.views.reduce((s, v) => s + v.nodes, 0)} views, {census().result.parameterNodes} parameters), built in {census().ms.toFixed(0)} ms
        </p>
        </Show>
      </section>
      <Show when={report() && chart()}>
      <section class="panel">
        <h2>Bytes per op</h2>
        <UPlot options={chart()!.options} data={chart()!.data} heightPx={320} testid="census-chart" label="bytes read and written per op" />
        <table class="data" data-testid="census-table">
          <thead>
            <tr>
              <th>op</th>
              <th class="num">nodes</th>
              <th class="num">read</th>
              <th class="num">written</th>
              <th>lab</th>
              <th>shapes (up to 6)</th>
            </tr>
          </thead>
          <tbody>
            <For each={census().result.rows}>
              {(r) => (
                <tr data-op={r.op}>
                  <td class="mono">{r.op}</td>
                  <td class="num">{r.nodes}</td>
                  <td class="num">{fmtBytes(r.bytesRead)}</td>
                  <td class="num">{fmtBytes(r.bytesWritten)}</td>
                  <td>{r.lab}</td>
                  <td class="mono">{r.shapes.join(' ')}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
        <p class="muted" data-testid="census-views">
          views (no bytes moved): {census().result.views.map((v) => `${v.op} ${v.nodes}`).join(', ')}
        </p>
      </section>
      </Show>
    </div>
  );
}
