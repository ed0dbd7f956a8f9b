// Stored runs, per adapter: one (op, shape) over time, every run with its verdict and whether
// this build's code made it (stale otherwise); open, compare two lane runs (native column
// checked first), delete, export to and import from JSON.
import { createMemo, createResource, createSignal, For, Show } from 'solid-js';
import { adapterFingerprint, adapterName } from '../../core/adapter';
import type { LaneJson } from '../../core/report/json';
import { MAX_IMPORT_FILE_BYTES, MAX_IMPORT_FILES } from '../../core/input/caps';
import { opShapeKeys } from '../../storage/history';
import { withDeadline } from '../../storage/open';
import { deleteRuns, exportFile, ImportError, importRuns, isStale } from '../../storage/runs';
import { readStoredRuns } from '../../storage/stored-runs';
import { ErrorBox } from '../components/ErrorBox';
import { downloadJson } from '../download';
import { errorInfo, type ErrorInfo } from '../errors';
import { labDb, storeChanged, storeHealth, storeVersion, writableDb } from '../run-store';
import { ComparePanel } from './history/ComparePanel';
import { DamagedRuns } from './history/DamagedRuns';
import { HistoryCharts } from './history/HistoryCharts';
import { RunDetail } from './history/RunDetail';
import { RunsTable } from './history/RunsTable';
import type { ViewProps } from './view-props';
import { sessionScoped } from '../session-scoped';

type Status = { readonly text: string } | { readonly error: ErrorInfo };

/** Which adapter's runs and which (op, shape) History shows, for the whole page session. */
const historyChoices = sessionScoped(() => {
  const [chosenAdapter, setChosenAdapter] = createSignal<string | null>(null);
  const [chosenKey, setChosenKey] = createSignal<string | null>(null);
  return { chosenAdapter, setChosenAdapter, chosenKey, setChosenKey };
});

/** How long History waits for the stored runs before saying so. */
const READ_DEADLINE_MS = 15_000;

export function HistoryView(props: ViewProps) {
  const here = () => adapterFingerprint(props.adapter);
  // The choices live outside the view: they survive switching tabs.
  const { chosenAdapter, setChosenAdapter, chosenKey, setChosenKey } = historyChoices();
  const adapterKey = () => chosenAdapter() ?? here();
  // One read of every stored run, checked on the way out (damaged ones apart), never waited on without end.
  const [stored] = createResource(storeVersion, async () => withDeadline(labDb().then(readStoredRuns), READ_DEADLINE_MS, 'reading the stored runs'));
  const all = () => stored.latest?.runs ?? [];
  const damaged = () => stored.latest?.damaged ?? [];
  const adapters = createMemo(() => {
    const out = new Map<string, { adapterKey: string; adapter: (typeof props)['adapter']; runs: number }>();
    for (const r of all()) out.set(r.adapterKey, { adapterKey: r.adapterKey, adapter: out.get(r.adapterKey)?.adapter ?? r.adapter, runs: (out.get(r.adapterKey)?.runs ?? 0) + 1 });
    return [...out.values()].sort((a, b) => b.runs - a.runs);
  });
  const runs = createMemo(() => all().filter((r) => r.adapterKey === adapterKey()));
  const list = () => runs();
  const keys = createMemo(() => opShapeKeys(list()));
  const opShape = () => {
    const k = chosenKey();
    return k !== null && keys().includes(k) ? k : (keys()[0] ?? null);
  };
  const [selected, setSelected] = createSignal<number[]>([]);
  const [openId, setOpenId] = createSignal<number | null>(null);
  const [status, setStatus] = createSignal<Status | null>(null);
  const statusText = () => {
    const st = status();
    return st && 'text' in st ? st.text : undefined;
  };
  const statusError = () => {
    const st = status();
    return st && 'error' in st ? st.error : undefined;
  };
  const byId = createMemo(() => new Map(list().map((r) => [r.id!, r])));
  const stale = () => list().filter((r) => isStale(r)).length;

  const toggle = (id: number) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id].slice(-2)));
  const lanePair = () => {
    const picked = selected()
      .map((id) => byId().get(id))
      .filter((r) => r?.result?.kind === 'lane');
    if (picked.length !== 2) return null;
    const [older, newer] = [...picked].sort((a, b) => (a!.savedAt < b!.savedAt ? -1 : 1));
    return { older: { id: older!.id!, savedAt: older!.savedAt, result: older!.result as LaneJson }, newer: { id: newer!.id!, savedAt: newer!.savedAt, result: newer!.result as LaneJson } };
  };
  const compareHint = () => {
    const n = selected().length;
    if (n < 2) return `Select two lane runs to compare (${n} selected).`;
    return lanePair() ? null : 'Only two lane runs compare: Level 1 runs time one kernel alone, so there is no native column to check.';
  };

  const guarded = async (work: () => Promise<string>) => {
    try {
      setStatus({ text: await work() });
    } catch (e) {
      setStatus({ error: errorInfo(e) });
    }
  };
  const remove = (ids: number[]) =>
    guarded(async () => {
      await deleteRuns(await writableDb(`deleting ${ids.length === 1 ? 'a run' : `${ids.length} runs`}`), ids);
      setSelected((s) => s.filter((x) => !ids.includes(x)));
      if (ids.includes(openId() ?? -1)) setOpenId(null);
      storeChanged();
      return `Deleted ${ids.length} run${ids.length === 1 ? '' : 's'}.`;
    });
  const exportRuns = (everyAdapter: boolean) =>
    guarded(async () => {
      const records = everyAdapter ? all() : list();
      downloadJson(`kernel-lab-runs-${everyAdapter ? 'all' : adapterKey().replace(/[^a-z0-9]+/gi, '-').slice(0, 48)}-${new Date().toISOString().slice(0, 10)}.json`, exportFile(records));
      return `Exported ${records.length} run${records.length === 1 ? '' : 's'}.`;
    });
  /** One file's import: its summary line, or an error naming the file. */
  const importOne = async (file: File) => {
      if (file.size > MAX_IMPORT_FILE_BYTES) throw new ImportError(`${file.name} is ${file.size} bytes, over the ${MAX_IMPORT_FILE_BYTES}-byte cap on an import: refused without reading it (split the export)`);
      let value: unknown;
      try {
        value = JSON.parse(await file.text());
      } catch (e) {
        throw new ImportError(`${file.name} is not JSON: ${(e as Error).message}`);
      }
      const s = await importRuns(await writableDb(`the import of ${file.name}`), value);
      return `Imported ${s.added} run${s.added === 1 ? '' : 's'} from ${file.name}${s.duplicates ? ` (${s.duplicates} already stored)` : ''}.`;
  };
  /**
   * Many files at once (a CI matrix's artifacts): each imported on its own, so one bad file
   * refuses only itself; the lines say which file did what.
   */
  const importFiles = (files: readonly File[]) =>
    guarded(async () => {
      if (files.length > MAX_IMPORT_FILES) throw new ImportError(`${files.length} files chosen, over the ${MAX_IMPORT_FILES}-file cap on one import: choose fewer`);
      const lines: string[] = [];
      const failed: string[] = [];
      for (const file of files) {
        try {
          lines.push(await importOne(file));
        } catch (e) {
          // One file alone keeps its own error (a full quota stays a StorageQuotaError).
          if (files.length === 1) throw e;
          failed.push(`${file.name}: ${(e as Error).message}`);
        }
      }
      storeChanged();
      if (failed.length && !lines.length) throw new ImportError(failed.join(' · '));
      return [...lines, ...failed.map((f) => `Not imported: ${f}`)].join(' ');
    });

  const opened = () => {
    const id = openId();
    return id === null ? undefined : byId().get(id);
  };

  return (
    <div class="history-view" data-testid="history-view">
      <section class="panel form">
        <h2>History: every run stored in this browser, per adapter</h2>
        <div class="field">
          <label for="history-adapter">adapter</label>
          <select id="history-adapter" data-testid="history-adapter" value={adapterKey()} onChange={(e) => setChosenAdapter(e.currentTarget.value)}>
            <Show when={!adapters().some((a) => a.adapterKey === here())}>
              <option value={here()}>{adapterName(props.adapter)} · this adapter · 0 runs</option>
            </Show>
            <For each={adapters()}>
              {(a) => (
                <option value={a.adapterKey}>
                  {adapterName(a.adapter)}
                  {a.adapterKey === here() ? ' · this adapter' : ''} · {a.runs} run{a.runs === 1 ? '' : 's'}
                </option>
              )}
            </For>
          </select>
        </div>
        <div class="field">
          <label for="history-op-shape">shape</label>
          <select id="history-op-shape" data-testid="history-op-shape" value={opShape() ?? ''} disabled={!keys().length} onChange={(e) => setChosenKey(e.currentTarget.value)}>
            <For each={keys()}>{(k) => <option value={k}>{k}</option>}</For>
          </select>
          <span class="hint">{keys().length ? `${keys().length} (op, shape) measured here` : 'no (op, shape) measured on this adapter yet'}</span>
        </div>
        <div class="actions">
          <button type="button" data-testid="export-button" disabled={!list().length} onClick={() => void exportRuns(false)}>
            Export JSON
          </button>
          <button type="button" data-testid="export-all-button" onClick={() => void exportRuns(true)}>
            Export all adapters
          </button>
          <label class="file-button">
            Import JSON…
            <input
              type="file"
              accept=".json,application/json"
              multiple
              data-testid="import-file"
              onChange={(e) => {
                const files = [...(e.currentTarget.files ?? [])];
                e.currentTarget.value = '';
                if (files.length) void importFiles(files);
              }}
            />
          </label>
          <button type="button" data-testid="delete-selected" disabled={!selected().length} onClick={() => void remove(selected())}>
            Delete selected
          </button>
          <Show when={statusText()}>
            {(t) => (
              <span class="note" data-testid="history-status">
                {t()}
              </span>
            )}
          </Show>
        </div>
        <Show when={statusError()}>{(e) => <ErrorBox error={e()} testid="history-error" />}</Show>
      </section>

      <Show when={storeHealth()}>{(h) => <ErrorBox title="Stored runs: not as this page expects" error={h()} testid="history-storage" />}</Show>

      <Show when={stored.error}>
        <ErrorBox title="The stored runs could not be read" error={errorInfo(stored.error)} testid="history-error" />
      </Show>

      <Show when={damaged().length}>
        <DamagedRuns runs={damaged()} onDelete={(ids) => void remove(ids)} />
      </Show>

      <Show when={opShape()}>{(k) => <HistoryCharts runs={list()} opShape={k()} />}</Show>

      <Show when={lanePair()}>{(p) => <ComparePanel older={p().older} newer={p().newer} />}</Show>

      <section class="panel">
        <h2>
          Runs <span class="muted">{list().length}</span>
          <Show when={stale()}>
            <span class="note">· {stale()} stale (made by other code than this build: their numbers may no longer hold)</span>
          </Show>
        </h2>
        <Show when={compareHint()}>{(h) => <p class="note">{h()}</p>}</Show>
        <Show when={opened()}>{(r) => <RunDetail run={r()} onClose={() => setOpenId(null)} />}</Show>
        <Show when={list().length} fallback={<p class="note" data-testid="history-empty">{stored.loading ? 'Reading stored runs…' : stored.error ? 'The stored runs could not be read (see above).' : 'No runs stored for this adapter yet: every run on the Kernel, Lane, Sweep and Device tabs is kept here.'}</p>}>
          <RunsTable runs={list()} selected={selected()} openId={openId()} onToggle={toggle} onOpen={(id) => setOpenId(openId() === id ? null : id)} onDelete={(id) => void remove([id])} />
        </Show>
      </section>
    </div>
  );
}
