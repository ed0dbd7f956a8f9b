// The Sweep view's state for the whole page session: options, the run in flight and its last
// result survive switching tabs. A finished sweep's timed cells join the session's roofline;
// every run, failed or not, is stored.
import type { Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../../../core/adapter';
import { sweepJson } from '../../../core/report/json';
import type { SweepRequest, SweepResult } from '../../../core/results';
import { lab } from '../../lab-client';
import { sweepKernels } from '../../measured-kernels';
import { sessionScoped } from '../../session-scoped';
import { addMeasured } from '../../session-results';
import { createStoredRun } from '../../stored-run';
import { createSweepForm } from './sweep-form';

export const sweepState = sessionScoped((adapter: Accessor<AdapterDescriptor>) => ({
  form: createSweepForm(adapter),
  action: createStoredRun({
    kind: 'sweep',
    call: (req: SweepRequest, onProgress, runId) => lab.sweep(req, onProgress, runId),
    toJson: (r: SweepResult) => sweepJson(r),
    adapter,
    onResult: (r) => addMeasured(sweepKernels(r)),
  }),
}));
