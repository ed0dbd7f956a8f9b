// A cross-adapter report on the page: filters (op, adapter, verdict), a heat map of verdicts
// (op × adapter: each cell the op's cases on that adapter, coloured by the worst), the table of
// cases with each adapter's own numbers side by side, the evidence per adapter class, notes.
import { createMemo, createSignal, For, Show } from 'solid-js';
import type { CrossAdapterReport, ReportCell } from '../../../core/report/cross-adapter';
import { cellColour, cellText, columnTitle } from '../../../core/report/cross-adapter-render';
import { Select, type SelectOption } from '../../components/Select';

const ALL = '';

/** Verdict counts of one op's cells on one adapter: "3 faster · 1 slower". */
function tally(cells: readonly (ReportCell | undefined)[]): { text: string; cell: ReportCell | undefined } {
  const counts = new Map<string, number>();
  const entries = cells.flatMap((c) => c?.entries ?? []);
  for (const e of entries) counts.set(e.verdict, (counts.get(e.verdict) ?? 0) + 1);
  return {
    text: [...counts].map(([v, n]) => `${n} ${v}`).join(' · '),
    cell: entries.length ? { entries, disagreement: null } : undefined,
  };
}

export function CrossReportPanel(props: { report: CrossAdapterReport }) {
  const [op, setOp] = createSignal(ALL);
  const [column, setColumn] = createSignal(ALL);
  const [verdict, setVerdict] = createSignal(ALL);
  const ops = createMemo(() => [...new Set(props.report.rows.map((r) => r.op))]);
  const verdicts = createMemo(() => [...new Set(props.report.rows.flatMap((r) => Object.values(r.cells).flatMap((c) => c.entries.map((e) => e.verdict))))].sort());
  const columns = createMemo(() => props.report.columns.filter((c) => column() === ALL || c.id === column()));
  const rows = createMemo(() =>
    props.report.rows.filter(
      (r) =>
        (op() === ALL || r.op === op()) &&
        (verdict() === ALL || columns().some((c) => r.cells[c.id]?.entries.some((e) => e.verdict === verdict()))),
    ),
  );
  /** The three filters: each a select of its values after "every …" (ALL). */
  const filters: readonly { name: string; all: string; value: () => string; set: (v: string) => void; options: () => readonly SelectOption[] }[] = [
    { name: 'op', all: 'every op', value: op, set: setOp, options: ops },
    { name: 'adapter', all: 'every adapter', value: column, set: setColumn, options: () => props.report.columns.map((c) => ({ value: c.id, label: columnTitle(c) })) },
    { name: 'verdict', all: 'any verdict', value: verdict, set: setVerdict, options: verdicts },
  ];
  const heatOps = createMemo(() => ops().filter((o) => op() === ALL || o === op()));

  return (
    <div class="cross-report" data-testid="cross-report">
      <p class="note">
        {props.report.rows.length} cases over {props.report.columns.length} adapters. Each cell is one adapter's own run: a speedup never crosses adapters.
      </p>
      <div class="form">
        <For each={filters}>
          {(x) => (
            <div class="field">
              <label for={`report-${x.name}`}>{x.name}</label>
              <Select id={`report-${x.name}`} testid={`report-filter-${x.name}`} value={x.value()} options={[{ value: ALL, label: x.all }, ...x.options()]} onChange={x.set} />
            </div>
          )}
        </For>
      </div>

      <h3>Verdicts: op × adapter</h3>
      <table class="report-heatmap" data-testid="report-heatmap">
        <thead>
          <tr>
            <th>op</th>
            <For each={columns()}>{(c) => <th title={`${c.adapterClass} · ${c.sources.length} run(s)`}>{columnTitle(c)}</th>}</For>
          </tr>
        </thead>
        <tbody>
          <For each={heatOps()}>
            {(o) => (
              <tr>
                <td>{o}</td>
                <For each={columns()}>
                  {(c) => {
                    const t = tally(props.report.rows.filter((r) => r.op === o).map((r) => r.cells[c.id]));
                    return (
                      <td style={{ background: cellColour(t.cell) }} data-testid="heat-cell">
                        {t.text || '—'}
                      </td>
                    );
                  }}
                </For>
              </tr>
            )}
          </For>
        </tbody>
      </table>

      <h3>Cases</h3>
      <table class="report-table" data-testid="report-table">
        <thead>
          <tr>
            <th>op</th>
            <th>case</th>
            <For each={columns()}>{(c) => <th>{columnTitle(c)}</th>}</For>
          </tr>
        </thead>
        <tbody>
          <For each={rows()}>
            {(r) => (
              <tr data-testid="report-row">
                <td>{r.op}</td>
                <td>{r.caseLabel}</td>
                <For each={columns()}>{(c) => <td style={{ background: cellColour(r.cells[c.id]) }}>{cellText(r.cells[c.id])}</td>}</For>
              </tr>
            )}
          </For>
        </tbody>
      </table>

      <Show when={props.report.evidence.length}>
        <h3>Promotion state the evidence supports (never written)</h3>
        <table data-testid="report-evidence">
          <thead>
            <tr>
              <th>op</th>
              <th>adapter class</th>
              <th>state</th>
              <th>evidence</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.report.evidence.filter((e) => op() === ALL || e.op === op())}>
              {(e) => (
                <tr>
                  <td>{e.op}</td>
                  <td>{e.adapterClass}</td>
                  <td>
                    <b>{e.state}</b>
                  </td>
                  <td>{e.evidence}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </Show>
      <Show when={props.report.notes.length + props.report.refused.length}>
        <h3>Notes</h3>
        <ul data-testid="report-notes">
          <For each={[...props.report.notes, ...props.report.refused.map((r) => ({ ...r, note: `not used: ${r.note}` }))]}>
            {(n) => (
              <li>
                {n.source}: {n.note}
              </li>
            )}
          </For>
        </ul>
      </Show>
    </div>
  );
}
