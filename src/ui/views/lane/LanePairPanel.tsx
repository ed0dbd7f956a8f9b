// One lane pair: what it is (state, gate or work items, verdict), its counters, the shape table
// with metrics, the speedup chart, and the promotion checklist with its evidence.
import { createMemo, createSignal, For, Show } from 'solid-js';
import { fmtUs } from '../../../core/report/format';
import { speedupText, stateText } from '../../../core/report/lane-text';
import type { LaneJson } from '../../../core/report/json';
import { speedupChart } from '../../charts/speedup-chart';
import { UPlot } from '../../charts/UPlot';
import { metricColumns } from '../../metrics/metric-columns';
import { MetricCells, MetricHeaders, MetricsToggle } from '../../metrics/MetricCells';
import { verdictText } from '../../../core/stats/verdict';
import { pairTone, verdictTone } from './verdict-tone';

type LanePairJson = LaneJson['pairs'][number];
type LaneShapeJson = LanePairJson['shapes'][number];

/** Each fallback code once, with its count, whether the registry declares it, and its reason. */
function fallbackList(p: LanePairJson): { code: string; count: number; declared: boolean; reason: string }[] {
  return Object.entries(p.counters.nativeFallbacks).map(([code, count]) => {
    const shape = p.shapes.find((s) => s.fallback?.code === code);
    return { code, count, declared: shape?.fallback?.declared ?? false, reason: shape?.fallback?.reason ?? '' };
  });
}

function noteText(s: LaneShapeJson): string {
  if (s.fallback) return `${s.fallback.code} (${s.fallback.declared ? 'declared' : 'UNDECLARED'}): ${s.fallback.reason}`;
  return s.note ?? '';
}

export function LanePairPanel(props: { pair: LanePairJson; tolerance: number }) {
  const p = () => props.pair;
  const [detail, setDetail] = createSignal(false);
  const columns = () => metricColumns(detail());
  const chart = createMemo(() => speedupChart(p().shapes, props.tolerance));
  const timedShapes = () => p().shapes.filter((s) => s.speedupMedian !== null).length;
  const userRows = () => p().shapes.flatMap((s) => (s.users ?? []).map((u) => ({ s, u })));
  return (
    <section class="panel lane-pair" data-testid="lane-pair" data-op={p().op}>
      <h2>
        {p().op}
        <span class="muted">{stateText(p())}</span>
        <span class="muted">{p().gating ? 'gate: its verdicts fail the lane' : 'work items: reported, never failing'}</span>
        <span class={`verdict-badge tone-${pairTone(p().verdict)}`} data-testid="lane-pair-verdict">
          {p().verdict}
        </span>
      </h2>
      <p class="counters mono" data-testid="lane-counters">
        generated dispatches <span classList={{ bad: p().counters.generatedDispatches === 0 }}>{p().counters.generatedDispatches.toLocaleString('en-US')}</span>
        {' · '}native fallbacks{' '}
        <Show when={fallbackList(p()).length} fallback="none">
          <For each={fallbackList(p())}>
            {(fb, i) => (
              <span classList={{ bad: !fb.declared }} title={fb.reason}>
                {i() > 0 ? ', ' : ''}
                {fb.code}×{fb.count} ({fb.declared ? 'declared' : 'UNDECLARED'}: {fb.reason})
              </span>
            )}
          </For>
        </Show>
        {' · '}device rejections <span classList={{ bad: p().counters.deviceRejections > 0 }}>{p().counters.deviceRejections}</span>
      </p>
      <div class="table-head">
        <MetricsToggle detail={detail()} onChange={setDetail} testid="lane-metrics-details" />
      </div>
      <div class="table-scroll">
        <table class="data lane-table" data-testid="lane-table">
          <thead>
            <Show
              when={detail()}
              fallback={
                <tr>
                  <th>shape</th>
                  <th class="num">native µs</th>
                  <th class="num">generated µs</th>
                  <th class="num">speedup median [min–max]</th>
                  <th>verdict</th>
                  <MetricHeaders columns={columns()} prefix="generated" />
                  <th>note</th>
                </tr>
              }
            >
              <tr>
                <th rowSpan={2}>shape</th>
                <th rowSpan={2} class="num">
                  native µs
                </th>
                <th rowSpan={2} class="num">
                  generated µs
                </th>
                <th rowSpan={2} class="num">
                  speedup median [min–max]
                </th>
                <th rowSpan={2}>verdict</th>
                <th colSpan={columns().length} class="group">
                  native
                </th>
                <th colSpan={columns().length} class="group">
                  generated
                </th>
                <th rowSpan={2}>note</th>
              </tr>
              <tr>
                <MetricHeaders columns={columns()} />
                <MetricHeaders columns={columns()} />
              </tr>
            </Show>
          </thead>
          <tbody>
            <For each={p().shapes}>
              {(s) => (
                <tr data-testid="lane-row" data-verdict={s.verdict} class={`tone-row-${verdictTone(s.verdict)}`}>
                  <td class="mono" title={s.scheduleKey ? `generated: ${s.scheduleKey}` : undefined}>
                    {s.shape}
                  </td>
                  <td class="num">{fmtUs(s.nativeMedianNs, 2)}</td>
                  <td class="num">{fmtUs(s.generatedMedianNs, 2)}</td>
                  <td class="num" data-testid="lane-speedup">
                    {speedupText(s)}
                  </td>
                  <td class={`verdict tone-${verdictTone(s.verdict)}`} data-testid="lane-verdict">
                    {verdictText(s.verdict, s.effectFloor, props.tolerance)}
                  </td>
                  <Show when={detail()}>
                    <MetricCells columns={columns()} metrics={s.nativeMetrics ?? null} />
                  </Show>
                  <MetricCells columns={columns()} metrics={s.generatedMetrics ?? null} />
                  <td class="note-cell">{noteText(s)}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </div>
      <Show when={userRows().length}>
        <h3>Your kernels</h3>
        <p class="note">speedup = native time ÷ your kernel's time, per pass, in the same alternating passes; your kernels never gate the pair</p>
        <div class="table-scroll">
          <table class="data lane-table" data-testid="lane-user-table">
            <thead>
              <tr>
                <th>shape</th>
                <th>kernel</th>
                <th class="num">native µs</th>
                <th class="num">yours µs</th>
                <th class="num">speedup median [min–max]</th>
                <th>verdict</th>
                <th>note</th>
              </tr>
            </thead>
            <tbody>
              <For each={userRows()}>
                {({ s, u }) => (
                  <tr data-testid="lane-user-row" data-verdict={u.verdict} class={`tone-row-${verdictTone(u.verdict)}`}>
                    <td class="mono">{s.shape}</td>
                    <td class="mono" title={`manifest sha256 ${u.kernel.manifestSha256}`}>
                      {u.kernel.id}
                    </td>
                    <td class="num">{fmtUs(s.nativeMedianNs, 2)}</td>
                    <td class="num">{fmtUs(u.medianNs, 2)}</td>
                    <td class="num">{speedupText(u)}</td>
                    <td class={`verdict tone-${verdictTone(u.verdict)}`}>{u.verdict}</td>
                    <td class="note-cell">{u.refusal ? `${u.refusal.code}: ${u.refusal.reason}` : (u.note ?? '')}</td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </div>
      </Show>
      <Show when={timedShapes() > 0} fallback={<p class="note">no shape was timed (fallbacks, wrong or rejected): there is no speedup to chart</p>}>
        <UPlot options={chart().options} data={chart().data} heightPx={240} testid="speedup-chart" label={`speedup per shape for ${p().op}`} />
        <p class="note chart-legend">
          speedup = native time ÷ generated time, per pass: a point at the median, whiskers from min to max; dashed line: parity (1×); shaded: the tolerance band [{(1 - props.tolerance).toFixed(2)}, 1]
        </p>
      </Show>
      <h3>Promotion checklist</h3>
      <ul class="checklist" data-testid="checklist">
        <For each={p().checklist}>
          {(c) => (
            <li classList={{ pass: c.pass, fail: !c.pass }} data-testid="checklist-item" data-check={c.id} data-pass={String(c.pass)}>
              <span class="mark" aria-label={c.pass ? 'pass' : 'fail'}>
                {c.pass ? '✓' : '✗'}
              </span>
              <span class="check-title">{c.title}</span>
              <span class="evidence mono">{c.evidence}</span>
            </li>
          )}
        </For>
      </ul>
    </section>
  );
}
