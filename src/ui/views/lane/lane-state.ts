// The Lane view's state for the whole page session: its options, the run in flight and its last
// result survive switching tabs. A finished run's kernels join the session's roofline; every
// run, failed or not, is stored.
import type { Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../../../core/adapter';
import { laneJson } from '../../../core/report/json';
import type { LaneRequest, LaneResult } from '../../../gpu/lane';
import { lab } from '../../lab-client';
import { laneKernels } from '../../measured-kernels';
import { sessionScoped } from '../../session-scoped';
import { addMeasured } from '../../session-results';
import { createStoredRun } from '../../stored-run';
import { createLaneForm } from './lane-form';

export const laneState = sessionScoped((adapter: Accessor<AdapterDescriptor>) => ({
  form: createLaneForm(),
  action: createStoredRun({
    kind: 'lane',
    call: (req: LaneRequest, onProgress, runId) => lab.lane(req, onProgress, runId),
    toJson: (r: LaneResult) => laneJson(r),
    adapter,
    onResult: (r) => addMeasured(laneKernels(r)),
  }),
}));
