// The Lane view's state for the whole page session: its options, the run in flight and its last
// result survive switching tabs. A finished run's kernels join the session's roofline; every
// run, failed or not, is stored.
import { createEffect, type Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../../../core/adapter';
import { laneJson } from '../../../core/report/json';
import type { LaneRequest, LaneResult } from '../../../core/results';
import { lab } from '../../lab-client';
import { laneKernels } from '../../measured-kernels';
import { sessionScoped } from '../../session-scoped';
import { addMeasured } from '../../session-results';
import { createStoredRun } from '../../stored-run';
import { createLaneForm, type LaneForm } from './lane-form';
import { listUserKernels } from '../../../storage/user-kernels';
import { labDb, storeVersion } from '../../run-store';

/**
 * The lane offers the user kernels kept for this adapter, reloaded whenever the store changes
 * (the Kernel view keeps each one that ran). Best effort: without IndexedDB none is offered.
 */
function withSavedKernels(form: LaneForm, adapter: Accessor<AdapterDescriptor>): LaneForm {
  createEffect(() => {
    storeVersion();
    void labDb()
      .then((db) => listUserKernels(db, adapter()))
      .then(form.setSavedKernels, () => undefined);
  });
  return form;
}

export const laneState = sessionScoped((adapter: Accessor<AdapterDescriptor>) => ({
  form: withSavedKernels(createLaneForm(), adapter),
  action: createStoredRun({
    kind: 'lane',
    call: (req: LaneRequest, onProgress, runId) => lab.lane(req, onProgress, runId),
    toJson: (r: LaneResult) => laneJson(r),
    adapter,
    onResult: (r) => addMeasured(laneKernels(r)),
  }),
}));
