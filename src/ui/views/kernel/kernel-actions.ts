// The Kernel view's two calls to the worker — Run (time) and Show WGSL (preview) — with their
// running flag, progress, result and error as signals. Every run, failed or not, is stored;
// a cancelled one is not.
import { createEffect, createSignal, on, type Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../../../core/adapter';
import { level1Json } from '../../../core/report/json';
import type { Level1Result } from '../../../core/results';
import type { Level1Request } from '../../../core/requests';
import type { CodegenPreview } from '../../../worker/api';
import { errorInfo, type ErrorInfo } from '../../errors';
import { lab } from '../../lab-client';
import { sessionScoped } from '../../session-scoped';
import { createStoredRun } from '../../stored-run';
import { parseRunQuery } from '../../../core/report/run-query';
import { createKernelForm } from './kernel-form';
import { level1Kernels } from '../../measured-kernels';
import { addMeasured } from '../../session-results';
import { compileErrorLines } from './WgslBlock';

export function createKernelActions(request: () => { ok: Level1Request } | { error: string }, adapter: Accessor<AdapterDescriptor>, onResult?: (r: Level1Result, req: Level1Request) => void) {
  const [showWgsl, setShowWgsl] = createSignal(false);
  const [preview, setPreview] = createSignal<CodegenPreview | null>(null);
  const [previewError, setPreviewError] = createSignal<ErrorInfo | null>(null);
  const [markedLines, setMarkedLines] = createSignal<number[]>([]);

  // Stored like every long run: the result as the CLI's --json writes it (shown, stored, shared),
  // a failure too; a cancelled run stores nothing.
  const action = createStoredRun({
    kind: 'level1',
    call: (req: Level1Request, onProgress, runId) => lab.time(req, onProgress, runId),
    toJson: (r: Level1Result) => level1Json(r),
    adapter,
    // Timed kernels join the session's roofline (Device tab).
    onResult: (r, req) => {
      addMeasured(level1Kernels(r));
      onResult?.(r, req);
    },
    onError: (info) => {
      // A compile error names its lines: show the WGSL with them marked.
      if (info.name === 'WgslCompileError') {
        setMarkedLines(compileErrorLines(info.message));
        setShowWgsl(true);
      }
    },
  });

  const run = async () => {
    const req = request();
    if (!('ok' in req) || action.running()) return;
    setMarkedLines([]);
    await action.run(req.ok);
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

  return {
    running: action.running,
    startedAtMs: action.startedAtMs,
    progress: action.progress,
    result: action.result,
    resultJson: action.json,
    saved: action.saved,
    error: action.error,
    cancelled: action.cancelled,
    cancelling: action.cancelling,
    cancel: action.cancel,
    showWgsl,
    setShowWgsl,
    preview,
    previewError,
    markedLines,
    run,
  };
}

/**
 * The Kernel view's form and runs for the whole page session: both survive switching tabs. A
 * page opened on a run query (?op=…&run=1) starts with that form, and runs it once.
 */
export const kernelState = sessionScoped((adapter: Accessor<AdapterDescriptor>) => {
  const form = createKernelForm(adapter);
  // A user kernel that ran is kept for this adapter, beside its result.
  const actions = createKernelActions(form.request, adapter, (r, req) => {
    if (r.userKernel && req.variant.kind === 'user') void form.user.remember(r.userKernel, r.op, { manifest: req.variant.manifest, files: req.variant.files });
  });
  let queryError: string | null = null;
  try {
    const q = parseRunQuery(location.search);
    if (q) {
      form.applyQuery(q);
      if (q.run) queueMicrotask(() => void actions.run());
    }
  } catch (e) {
    queryError = errorInfo(e).message;
  }
  return { form, actions, queryError };
});
