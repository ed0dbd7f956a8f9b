// One Level 1 result: correctness first (a wrong kernel's time is never read), then the timing
// summary with its resolution and method, its metrics, then what ran and where. It renders the
// result JSON (level1Json), so a fresh run, a stored run and a shared link look the same.
import { NOISY_SPREAD } from '../../../core/stats/timing';
import { createSignal, For, Show } from 'solid-js';
import { adapterName } from '../../../core/adapter';
import { fmtBytes, fmtExp, fmtNs, fmtRatio, fmtUs } from '../../../core/report/format';
import type { Level1Json } from '../../../core/report/json';
import { metricColumns } from '../../metrics/metric-columns';
import { MetricCells, MetricHeaders, MetricsToggle } from '../../metrics/MetricCells';
import { isSoftwareAdapter } from '../../software-adapter';

function Row(props: { label: string; value: string; testid?: string; num?: boolean; bad?: boolean }) {
  return (
    <tr>
      <th>{props.label}</th>
      <td class={props.num ? 'num' : 'mono'} classList={{ bad: props.bad }} data-testid={props.testid}>
        {props.value}
      </td>
    </tr>
  );
}

export function ResultPanel(props: { result: Level1Json; shared?: boolean }) {
  const r = () => props.result;
  const c = () => r().correctness;
  const t = () => r().timing;
  const software = () => isSoftwareAdapter(r().adapter);
  const [detail, setDetail] = createSignal(false);
  return (
    <section class="panel result" data-testid="result">
      <h2>
        {r().op} {r().label ?? r().shape} · {r().variant}
        <Show when={r().userKernel}>{(k) => <code class="key">{k().id}</code>}</Show>
        <Show when={r().scheduleKey}>{(k) => <code class="key">{k()}</code>}</Show>
      </h2>
      <Show when={r().userKernel}>
        {(k) => (
          <p class="note" data-testid="result-user-kernel">
            your kernel <code>{k().id}</code> · manifest sha256 <code>{k().manifestSha256}</code>
            <For each={k().wgsl}>
              {(w) => (
                <>
                  {' '}
                  · {w.file} <code>{w.sha256}</code>
                </>
              )}
            </For>
          </p>
        )}
      </Show>
      <Show when={r().fallback}>
        {(fb) => (
          <p class="note" data-testid="result-fallback">
            auto fell back to native: <code>{fb().code}</code> — {fb().reason}
          </p>
        )}
      </Show>
      <Show when={r().watchdog}>
        {(w) => (
          <p class="note bad" data-testid="result-verdict">
            too-slow: {w().note}
          </p>
        )}
      </Show>
      <div class="result-grid">
        <div>
          <h3>Correctness</h3>
          <table class="kv">
            <tbody>
              <Row label="correct" value={c().worstRatio === null && r().watchdog ? 'not decided (the check did not finish)' : r().correct ? 'yes' : 'NO'} testid="result-correct" bad={!r().correct} />
              <Row label="max |err|" value={fmtExp(r().maxErr)} num />
              <Row label="bound (worst element)" value={fmtExp(r().bound)} num />
              <Row label="worst err / bound" value={fmtRatio(c().worstRatio, 3)} num bad={(c().worstRatio ?? 0) > 1} />
              <Row label="elements" value={c().elements.toLocaleString('en-US')} num />
              <Show when={!r().correct}>
                <Row label="out of bound" value={String(c().outOfBound)} num bad />
                <Row label="NaN / Inf" value={String(c().nonFinite)} num bad={c().nonFinite > 0} />
                <Row label="guard bytes changed" value={String(c().guardViolations)} num bad={c().guardViolations > 0} />
              </Show>
            </tbody>
          </table>
          <Show when={c().failures.length}>
            <ul class="failures" data-testid="result-failures">
              <For each={c().failures}>{(f) => <li class="mono">{f}</li>}</For>
            </ul>
          </Show>
        </div>
        <div>
          <h3>Timing</h3>
          <Show
            when={t()}
            fallback={
              <p class="note" classList={{ bad: !r().correct }} data-testid="result-untimed">
                {r().watchdog ? 'timing not read: the watchdog ended the kernel' : r().correct ? 'not timed (check only)' : 'timing not read: a wrong kernel is never timed'}
              </p>
            }
          >
            {(tm) => (
              <>
                <table class="data timing">
                  <thead>
                    <tr>
                      <th class="num">min µs</th>
                      <th class="num">p20 µs</th>
                      <th class="num">median µs</th>
                      <th class="num">p80 µs</th>
                      <th class="num">max µs</th>
                      <th class="num">runs</th>
                    </tr>
                  </thead>
                  <tbody>
                    <tr>
                      <td class="num" data-testid="result-min">{fmtUs(tm().minNs, 2)}</td>
                      <td class="num" data-testid="result-p20">{tm().p20Ns !== undefined ? fmtUs(tm().p20Ns!, 2) : '—'}</td>
                      <td class="num strong" data-testid="result-median">{fmtUs(tm().medianNs, 2)}</td>
                      <td class="num" data-testid="result-p80">{tm().p80Ns !== undefined ? fmtUs(tm().p80Ns!, 2) : '—'}</td>
                      <td class="num" data-testid="result-max">{fmtUs(tm().maxNs, 2)}</td>
                      <td class="num">{tm().runs.toLocaleString('en-US')}</td>
                    </tr>
                  </tbody>
                </table>
                <table class="kv">
                  <tbody>
                    <Row label="resolution" value={fmtNs(tm().resolutionNs)} testid="result-resolution" />
                    <Row label="method" value={tm().method} testid="result-method" />
                    <Row label="timed span" value={`${fmtNs(tm().spanNs)}${tm().spanShort ? ' (short of 100× resolution: run cap reached)' : ''}`} bad={tm().spanShort} />
                  </tbody>
                </table>
                <Show when={tm().noisy}>
                  <p class="note warn" data-testid="result-noisy">
                    noisy: (p80 − p20) / median is over {100 * NOISY_SPREAD}% — this median is not one reproducible number; run again or on an idle machine
                  </p>
                </Show>
                <p class="note">{tm().note}</p>
                <Show when={software()}>
                  <p class="note warn">software adapter: these are CPU timings of the WGSL, not GPU numbers</p>
                </Show>
              </>
            )}
          </Show>
        </div>
        <div>
          <h3>Run</h3>
          <table class="kv">
            <tbody>
              <Row label="adapter" value={adapterName(r().adapter)} />
              <Row label="dispatch" value={r().dispatch.join(' × ')} testid="result-dispatch" />
              <Row label="bytes read" value={fmtBytes(r().readBytes)} num />
              <Row label="bytes written" value={fmtBytes(r().writeBytes)} num />
              <Row label="flops" value={r().flops === null ? '— (memory-only)' : r().flops!.toLocaleString('en-US')} num />
              <Row label="started" value={r().startedAt} />
            </tbody>
          </table>
        </div>
      </div>
      <Show when={r().metrics}>
        {(m) => (
          <div class="result-metrics">
            <div class="table-head">
              <h3>Metrics</h3>
              <MetricsToggle detail={detail()} onChange={setDetail} testid="result-metrics-details" />
            </div>
            <div class="table-scroll">
              <table class="data" data-testid="result-metrics">
                <thead>
                  <tr>
                    <MetricHeaders columns={metricColumns(detail())} />
                  </tr>
                </thead>
                <tbody>
                  <tr>
                    <MetricCells columns={metricColumns(detail())} metrics={m()} />
                  </tr>
                </tbody>
              </table>
            </div>
            <Show when={m().peakSource === null}>
              <p class="note" data-testid="no-peaks">
                {props.shared
                  ? 'no peaks were known for the adapter this ran on: %-of-peak and the bottleneck are blank'
                  : 'no peaks for this adapter: %-of-peak and the bottleneck stay blank until you calibrate (Device tab)'}
              </p>
            </Show>
          </div>
        )}
      </Show>
    </section>
  );
}
