// The Formats view's state for the whole page session: options, the run in flight and its last
// result survive switching tabs. Every run, failed or not, is stored (History, per adapter).
import type { Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../../../core/adapter';
import type { FormatsJson } from '../../../core/report/json';
import type { FormatsRequest } from '../../../core/report/formats';
import { lab } from '../../lab-client';
import { sessionScoped } from '../../session-scoped';
import { createStoredRun } from '../../stored-run';
import { createFormatsForm } from './formats-form';

export const formatsState = sessionScoped((adapter: Accessor<AdapterDescriptor>) => ({
  form: createFormatsForm(),
  action: createStoredRun({
    kind: 'formats',
    call: (req: FormatsRequest, onProgress, runId) => lab.formats(req, onProgress, runId),
    // The engine's report is already the CLI's --json shape, stamped.
    toJson: (r: FormatsJson) => r,
    adapter,
  }),
}));
