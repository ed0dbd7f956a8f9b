// Opening the adapter once for the whole page: the header, every view and the no-WebGPU message
// read this one state.
import { createSignal, type Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../core/adapter';
import { restoreCalibration } from './calibration-state';
import { errorInfo, type ErrorInfo } from './errors';
import { lab, workerFailure } from './lab-client';

export type AdapterState =
  | { readonly status: 'opening' }
  | { readonly status: 'ready'; readonly adapter: AdapterDescriptor }
  /** No WebGPU, or no adapter (AdapterError); reason null when the page itself lacks navigator.gpu. */
  | { readonly status: 'unavailable'; readonly reason: ErrorInfo | null }
  /** Anything else: the worker died or threw something unexpected. */
  | { readonly status: 'failed'; readonly error: ErrorInfo };

export function createAdapterState(): Accessor<AdapterState> {
  const [state, setState] = createSignal<AdapterState>({ status: 'opening' });
  // The page checks first: a browser without WebGPU has none in its workers either.
  if (!navigator.gpu) {
    setState({ status: 'unavailable', reason: null });
    return state;
  }
  const failed = workerFailure.then((e) => Promise.reject(e));
  Promise.race([lab.adapter(), failed]).then(
    (adapter) => {
      setState({ status: 'ready', adapter });
      // Metrics get this adapter's stored measured peaks from the first run on.
      void restoreCalibration(adapter);
    },
    (e) => {
      const info = errorInfo(e);
      setState(info.name === 'AdapterError' ? { status: 'unavailable', reason: info } : { status: 'failed', error: info });
    },
  );
  return state;
}
