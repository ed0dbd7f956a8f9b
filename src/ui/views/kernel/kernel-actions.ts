// The Kernel view's two calls to the worker — Run (time) and Show WGSL (preview) — with their
// running flag, progress, result and error as signals. Every run, failed or not, is stored.
import { createEffect, createSignal, on, type Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../../../core/adapter';
import { level1Json, type Level1Json } from '../../../core/report/json';
import type { Level1Request, Level1Result } from '../../../gpu/level1';
import type { CodegenPreview, Progress } from '../../../worker/api';
import { errorInfo, type ErrorInfo } from '../../errors';
import { lab, progressProxy } from '../../lab-client';
import { saveRun, type SaveOutcome } from '../../run-store';
import { level1Kernels } from '../../measured-kernels';
import { addMeasured } from '../../session-results';
import { compileErrorLines } from './WgslBlock';

export function createKernelActions(request: () => { ok: Level1Request } | { error: string }, adapter: Accessor<AdapterDescriptor>, onResult?: (r: Level1Result, req: Level1Request) => void) {
  const [running, setRunning] = createSignal(false);
  const [startedAtMs, setStartedAtMs] = createSignal(0);
  const [progress, setProgress] = createSignal<Progress | null>(null);
  const [result, setResult] = createSignal<Level1Result | null>(null);
  /** The result as the CLI's --json writes it: what is shown, stored and shared. */
  const [resultJson, setResultJson] = createSignal<Level1Json | null>(null);
  const [saved, setSaved] = createSignal<SaveOutcome | null>(null);
  const [error, setError] = createSignal<ErrorInfo | null>(null);
  const [showWgsl, setShowWgsl] = createSignal(false);
  const [preview, setPreview] = createSignal<CodegenPreview | null>(null);
  const [previewError, setPreviewError] = createSignal<ErrorInfo | null>(null);
  const [markedLines, setMarkedLines] = createSignal<number[]>([]);

  const run = async () => {
    const req = request();
    if (!('ok' in req) || running()) return;
    setRunning(true);
    setStartedAtMs(performance.now());
    setProgress(null);
    // The panel shows the last run only: an error never sits beside an older result.
    setResult(null);
    setResultJson(null);
    setError(null);
    setSaved(null);
    setMarkedLines([]);
    try {
      const r = await lab.time(req.ok, progressProxy(setProgress));
      const json = level1Json(r);
      setResult(r);
      setResultJson(json);
      void saveRun('level1', json).then(setSaved);
      // Timed kernels join the session's roofline (Device tab).
      addMeasured(level1Kernels(r));
      onResult?.(r, req.ok);
    } catch (e) {
      const info = errorInfo(e);
      setError(info);
      // A failed run is kept too: what was asked, and why it failed.
      void saveRun('level1', info, { adapter: adapter(), request: req.ok }).then(setSaved);
      // A compile error names its lines: show the WGSL with them marked.
      if (info.name === 'WgslCompileError') {
        setMarkedLines(compileErrorLines(info.message));
        setShowWgsl(true);
      }
    } finally {
      setRunning(false);
    }
  };

  // While the WGSL is shown it follows the form; a stale answer never overwrites a newer one.
  let previewToken = 0;
  createEffect(
    on([showWgsl, request], ([show, req]) => {
      const token = ++previewToken;
      if (!show || !('ok' in req)) {
        setPreview(null);
        setPreviewError(null);
        return;
      }
      const { timing: _t, skipTiming: _s, seed: _seed, ...codegenOnly } = req.ok;
      lab.preview(codegenOnly).then(
        (p) => {
          if (token !== previewToken) return;
          setPreview(p);
          setPreviewError(null);
        },
        (e) => {
          if (token !== previewToken) return;
          setPreview(null);
          setPreviewError(errorInfo(e));
        },
      );
    }),
  );

  return { running, startedAtMs, progress, result, resultJson, saved, error, showWgsl, setShowWgsl, preview, previewError, markedLines, run };
}
