// Structural validation of a result JSON that came from outside this page (a share link, an
// imported file), against the results' one definition (src/core/schema/results.ts): every field
// a view reads is checked, own properties only, with caps on list lengths, string lengths,
// nesting and the cells a view would draw (src/core/input/caps.ts); fields that belong together
// are checked together, so nothing half-built reaches a renderer. An error names the path and
// what was wrong. Extra fields are allowed: a newer lab of the same schema version may add some.
import { LabError } from '../errors';
import { isOwnKey, jsonBoundsProblem, ownValue } from '../input/bounded-json';
import { RESULT_BOUNDS } from '../input/caps';
import { adapter, RESULT_SCHEMAS } from '../schema/results';
import { fail, isPlainObject } from '../schema/schema';
import { RESULT_SCHEMA_VERSION, RUN_KINDS, type ResultJson, type RunKind } from './json';

export class ResultShapeError extends LabError {
  override name = 'ResultShapeError';
}

/** A future schema version: this page cannot read it (the caller says "use a newer lab"). */
export function isFutureSchema(v: unknown): boolean {
  const version = isPlainObject(v) ? ownValue(v, 'schemaVersion') : undefined;
  return typeof version === 'number' && version > RESULT_SCHEMA_VERSION;
}

/** The result, typed, or a ResultShapeError naming the first field that is wrong. */
export function validateResult(v: unknown): ResultJson {
  if (!isPlainObject(v)) throw new ResultShapeError(fail('the result', 'an object', v));
  const kind = ownValue(v, 'kind');
  if (!isOwnKey(RESULT_SCHEMAS, kind)) throw new ResultShapeError(fail('kind', `one of ${RUN_KINDS.join(', ')}`, kind));
  const version = ownValue(v, 'schemaVersion');
  if (!Number.isInteger(version) || (version as number) < 1) throw new ResultShapeError(fail('schemaVersion', 'a positive integer', version));
  if ((version as number) > RESULT_SCHEMA_VERSION) throw new ResultShapeError(`schemaVersion ${version} is newer than this lab reads (${RESULT_SCHEMA_VERSION}): open it with a newer kernel-lab`);
  const bounds = jsonBoundsProblem(v, RESULT_BOUNDS, `${kind} result`);
  if (bounds) throw new ResultShapeError(bounds);
  const error = RESULT_SCHEMAS[kind as RunKind].check(v, '');
  if (error) throw new ResultShapeError(`${kind} result: ${error}`);
  return v as unknown as ResultJson;
}

/** What is wrong with an adapter descriptor (null when it fits): for runs stored without a result. */
export function checkAdapter(v: unknown, path: string): string | null {
  return jsonBoundsProblem(v, RESULT_BOUNDS, path) ?? adapter.check(v, path);
}
