// The Census view's graph run for the page session (it survives tab switches): the training step
// run node by node in the worker through the typed LabApi (graphRun), as `census --run` does.
import type { GraphRunRequest, GraphRunResult } from '../../../core/census/graph-report';
import { lab } from '../../lab-client';
import { createRunAction } from '../../run-action';
import { sessionScoped } from '../../session-scoped';

export const censusRun = sessionScoped(() => createRunAction<GraphRunRequest, GraphRunResult>((req, onProgress, runId) => lab.graphRun(req, onProgress, runId)));

/** Steps the page runs when the field is left as it is (the learning check). */
export const DEFAULT_PAGE_STEPS = 20;
