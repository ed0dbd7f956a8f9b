// The one typed API between the page (or a headless driver) and the engine in the worker.
// Everything crossing it is structured-cloneable plain data; progress comes back through a
// callback (comlink proxies it across the worker boundary). The types are core's
// (src/core/lab-api.ts), so the GPU layer that implements them never imports the worker.
export type { CodegenPreview, LabApi } from '../core/lab-api';
export type { Progress, ProgressFn } from '../core/progress';
