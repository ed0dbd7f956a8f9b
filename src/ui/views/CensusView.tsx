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
import { ADAMW_WRITTEN_NOTE } from '../../core/census/census';
import { buildTrainingGraph } from '../../core/census/graph';
import type { ModelConfig } from '../../core/census/model-config';
import { censusShapes, graphSupport, shapeSpec } from '../../core/census/census-shapes';
import { labOpName } from '../../core/census/census';
import { formatGraphRun, lossFell } from '../../core/census/graph-report';
import { retireChecklist } from '../../core/ops/promotion';
import { hrefFor } from '../router';
import { laneState } from './lane/lane-state';
import { censusRun, DEFAULT_PAGE_STEPS } from './census/census-run';
import { lossCurve } from '../charts/loss-curve';
import { RunProgress, CancelledNote } from '../components/RunProgress';

/** Census shapes "Time these shapes" hands to the Lane view (the CLI's lane --census --top default). */
const LANE_TOP = 10;

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
  // The model the worker's census was built for (null until the first census arrives).
  const config = (): ModelConfig | null => report()?.c ?? null;
  // The lane's shapes build every node's case (seconds for the 7B preset): only when asked for,
  // once per model, so choosing a preset stays as fast as the census itself.
  const [showShapes, setShowShapes] = createSignal(false);
  let shapesCache: { c: ModelConfig; v: ReturnType<typeof censusShapes> } | null = null;
  const laneShapes = () => {
    const c = config()!;
    if (shapesCache?.c !== c) shapesCache = { c, v: censusShapes(buildTrainingGraph(c)) };
    return shapesCache.v;
  };
  const timeTheseShapes = () => {
    const lane = laneState(() => props.adapter);
    lane.form.setShapesText(laneShapes().shapes.slice(0, LANE_TOP).map(shapeSpec).join('\n'));
    location.hash = hrefFor('lane');
  };
  const run = censusRun();
  const [stepsText, setStepsText] = createSignal(String(DEFAULT_PAGE_STEPS));
  const startRun = () => {
    const steps = Number(stepsText());
    if (!Number.isInteger(steps) || steps < 1) return;
    void run.run({ config: config()!, steps, seed: 1, variant: 'auto', check: true });
  };
  const retire = createMemo(() => {
    const r = run.result();
    if (!r) return [];
    const support = graphSupport(buildTrainingGraph(r.config), props.adapter);
    return [...support.entries()].map(([op, s]) => {
      const byOp = r.perOp.filter((o) => labOpName(o.op) === op);
      const items = retireChecklist(s, { nodes: byOp.reduce((a, o) => a + o.nodes, 0), generated: byOp.reduce((a, o) => a + o.generated, 0), fallbacks: byOp.flatMap((o) => o.fallbacks), checked: r.check?.ok ?? null }, true);
      return { op, items };
    });
  });
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
        <Show when={census().result.rows.some((r) => r.op === 'OPT_STEP_ADAMW')}>
          <p class="muted" data-testid="census-adamw-note">
            {ADAMW_WRITTEN_NOTE}
          </p>
        </Show>
      </section>
      </Show>
      <Show when={report()}>
      <section class="panel" data-testid="census-lane-shapes">
        <h2>Shapes for the lane</h2>
        <button type="button" data-testid="census-time-shapes" onClick={timeTheseShapes}>
          Time these shapes (the {LANE_TOP} first by bytes) in the Lane view
        </button>{' '}
        <button type="button" data-testid="census-list-shapes" disabled={showShapes()} onClick={() => setShowShapes(true)}>
          List them
        </button>
        <Show when={showShapes()}>
        <p class="muted" data-testid="census-shapes-summary">
          {laneShapes().shapes.length} distinct (op, dims, layout, params) in the layouts the real graph sends, ranked by bytes; {laneShapes().unfit.length} that no declared
          layout fits (listed below, not timed).
        </p>
        <table class="data">
          <thead>
            <tr>
              <th>shape</th>
              <th class="num">nodes</th>
              <th class="num">bytes</th>
            </tr>
          </thead>
          <tbody>
            <For each={laneShapes().shapes.slice(0, LANE_TOP)}>
              {(sh) => (
                <tr>
                  <td class="mono">{shapeSpec(sh)}</td>
                  <td class="num">{sh.nodes}</td>
                  <td class="num">{fmtBytes(sh.bytes)}</td>
                </tr>
              )}
            </For>
            <For each={laneShapes().unfit.slice(0, LANE_TOP)}>
              {(u) => (
                <tr class="muted">
                  <td class="mono" title={u.why}>
                    {u.op} {u.dims.join('x')} — no declared layout fits
                  </td>
                  <td class="num">{u.nodes}</td>
                  <td class="num">{fmtBytes(u.bytes)}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
        </Show>
      </section>
      <section class="panel" data-testid="census-run-panel">
        <h2>Run the training step on this GPU</h2>
        <p class="muted">
          Node by node with the registry's kernels (forward, backward, AdamW) on buffers allocated once, from seeded weights and tokens; step 1 is checked against a CPU f64
          evaluation of the same graph. The micro preset is the small one for software adapters.
        </p>
        <label>
          steps <input type="number" min="1" max="10000" value={stepsText()} data-testid="census-run-steps" onInput={(e) => setStepsText(e.currentTarget.value)} />
        </label>{' '}
        <button type="button" data-testid="census-run" disabled={run.running()} onClick={startRun}>
          Run {census().c.name}
        </button>
        <Show when={run.running()}>
          <RunProgress progress={run.progress()} startedAtMs={run.startedAtMs()} onCancel={() => void run.cancel()} cancelling={run.cancelling()} />
        </Show>
        <CancelledNote when={run.cancelled()} />
        <Show when={run.error()}>{(e) => <ErrorBox title="The graph run failed" error={e()} testid="census-run-error" />}</Show>
        <Show when={run.result()}>
          {(r) => (
            <div data-testid="census-run-result">
              <p data-testid="census-run-losses">
                loss per step: {r().losses.map((l) => l.toFixed(4)).join(' ')} — {lossFell(r().losses) ? 'falls' : 'does not fall'}
              </p>
              <UPlot options={lossCurve(r().losses).options} data={lossCurve(r().losses).data} heightPx={220} testid="census-loss-chart" label="loss per step" />
              <Show when={r().check}>
                {(k) => (
                  <p data-testid="census-run-check" classList={{ bad: !k().ok }}>
                    step 1 against the CPU f64 evaluation: loss {k().gpuLoss.toFixed(6)} vs {k().cpuLoss.toFixed(6)} ({k().lossOk ? 'ok' : 'FAILED'}); parameters{' '}
                    {k().paramsOk ? 'ok' : 'FAILED'} ({k().params.reduce((a, p) => a + p.elements, 0)} elements, weight, m and v)
                  </p>
                )}
              </Show>
              <table class="data" data-testid="census-run-table">
                <thead>
                  <tr>
                    <th>op</th>
                    <th class="num">nodes</th>
                    <th class="num">generated</th>
                    <th class="num">native</th>
                    <th>fallback</th>
                    <th>state</th>
                    <th class="num">µs per step</th>
                  </tr>
                </thead>
                <tbody>
                  <For each={[...r().perOp].sort((a, b) => (b.stepNs ?? 0) - (a.stepNs ?? 0))}>
                    {(o) => (
                      <tr data-op={o.op}>
                        <td class="mono">{o.op}</td>
                        <td class="num">{o.nodes}</td>
                        <td class="num">{o.generated}</td>
                        <td class="num">{o.native}</td>
                        <td>{o.fallbacks.map((f) => `${f.count}× ${f.code}`).join(', ') || '0'}</td>
                        <td>{o.state}</td>
                        <td class="num">{o.stepNs === null ? '—' : (o.stepNs / 1000).toFixed(1)}</td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
              <p class="muted">{r().perNodeOverheadNs === null ? 'no timestamp-query: per-op times are not measured' : `each node is its own timestamped pass; an empty pass measures ${(r().perNodeOverheadNs! / 1000).toFixed(1)} µs, included in every node's time`}</p>
              <h3>Retire checklist per op (the promotion items come from the lane)</h3>
              <ul class="checklist" data-testid="census-retire">
                <For each={retire()}>
                  {(x) => (
                    <li data-op={x.op}>
                      <span class="mono">{x.op}</span>
                      <ul>
                        <For each={x.items}>{(i) => <li classList={{ bad: i.pass === false }}>{`[${i.pass === null ? '-' : i.pass ? 'x' : ' '}] ${i.title}: ${i.evidence}`}</li>}</For>
                      </ul>
                    </li>
                  )}
                </For>
              </ul>
              <details>
                <summary>as the CLI prints it</summary>
                <pre class="mono">{formatGraphRun(r())}</pre>
              </details>
            </div>
          )}
        </Show>
      </section>
      </Show>
    </div>
  );
}
