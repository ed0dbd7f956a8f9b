// The census: a preset (the default) or a GGUF file's header (only the header is read, by
// slices of the file), the training step's graph built in the page, bytes per op as bars and
// the table. A bad file shows its named error; the view stays usable.
import { createMemo, createSignal, For, Show } from 'solid-js';
import { fmtBytes } from '../../core/report/format';
import { takeCensus } from '../../core/census/census';
import { allLines } from '../../core/census/ggml-text';
import { blobSource, readGgufHeader } from '../../core/census/gguf';
import { buildTrainingGraph } from '../../core/census/graph';
import { configFromGguf, PRESETS, type ModelConfig } from '../../core/census/model-config';
import { censusBars } from '../charts/census-bars';
import { UPlot } from '../charts/UPlot';
import { ErrorBox } from '../components/ErrorBox';
import { errorInfo, type ErrorInfo } from '../errors';
import type { ViewProps } from './view-props';

export function CensusView(props: ViewProps) {
  const [config, setConfig] = createSignal<ModelConfig>(PRESETS.tiny);
  const [error, setError] = createSignal<ErrorInfo | null>(null);
  const census = createMemo(() => {
    const c = config();
    const t0 = performance.now();
    const result = takeCensus(allLines(buildTrainingGraph(c)), props.adapter);
    return { c, result, ms: performance.now() - t0 };
  });
  const chart = createMemo(() => censusBars(census().result.rows));
  const pickFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    try {
      const header = await readGgufHeader(blobSource(file));
      setConfig(configFromGguf(header, { nCtx: PRESETS.tiny.nCtx, nBatch: 1, name: file.name }));
    } catch (e) {
      setError(errorInfo(e));
    }
  };
  return (
    <div class="census-view" data-testid="census-view">
      <section class="panel">
        <h2>Model</h2>
        <label>
          preset{' '}
          <select data-testid="census-preset" onChange={(e) => (setError(null), setConfig(PRESETS[e.currentTarget.value]))}>
            <For each={Object.keys(PRESETS)}>{(name) => <option value={name}>{name}</option>}</For>
          </select>
        </label>{' '}
        <label>
          or a GGUF file (only its header is read){' '}
          <input type="file" accept=".gguf" data-testid="census-file" onChange={(e) => void pickFile(e.currentTarget.files?.[0])} />
        </label>
        <Show when={error()}>{(e) => <ErrorBox title="This file cannot be read" error={e()} testid="census-error" />}</Show>
        <p data-testid="census-summary">
          {census().c.name}: vocab {census().c.nVocab}, embedding {census().c.nEmbd}, {census().c.nHead} heads ({census().c.nHeadKv} KV), {census().c.nLayer} layers, FFN{' '}
          {census().c.nFf}, context {census().c.nCtx}, batch {census().c.nBatch} — {census().result.totalNodes} nodes ({census().result.rows.reduce((s, r) => s + r.nodes, 0)} compute,{' '}
          {census().result.views.reduce((s, v) => s + v.nodes, 0)} views, {census().result.parameterNodes} parameters), built in {census().ms.toFixed(0)} ms
        </p>
      </section>
      <section class="panel">
        <h2>Bytes per op</h2>
        <UPlot options={chart().options} data={chart().data} heightPx={320} testid="census-chart" label="bytes read and written per op" />
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
    </div>
  );
}
