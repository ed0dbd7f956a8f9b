// A schedule or a space restriction from outside (the page's editor, --schedule, --space, a
// proposal file) checked for shape before any knob is read: text within its length cap and
// not empty, a flat JSON object within the bounds (no knob nested thousands deep, which once
// overflowed the stack), a family that is one of the table's own names, and only own keys the
// family declares ('constructor' and '__proto__' are not knobs). Returns a null-prototype copy
// of the own properties, so nothing inherited is ever read from it.
import { describeBounded, isOwnKey, jsonBoundsProblem } from './bounded-json';
import { MAX_SCHEDULE_CHARS, SCHEDULE_BOUNDS } from './caps';

export type InputCheck = { readonly value: Record<string, unknown> } | { readonly error: string };

type Spaces = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

function parsed(input: unknown, what: string, example: string): InputCheck {
  let value = input;
  if (typeof value === 'string') {
    if (!value.trim()) return { error: `${what} is empty: give a JSON object such as ${example}` };
    if (value.length > MAX_SCHEDULE_CHARS) return { error: `${what} is ${value.length} characters, over the ${MAX_SCHEDULE_CHARS}-character cap` };
    try {
      value = JSON.parse(value);
    } catch (e) {
      return { error: `${what} is not valid JSON: ${(e as Error).message}` };
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: `a ${what} is a JSON object such as ${example}, not ${describeBounded(value)}` };
  const bounds = jsonBoundsProblem(value, SCHEDULE_BOUNDS, what);
  if (bounds) return { error: bounds };
  return { value: Object.assign(Object.create(null) as Record<string, unknown>, value) };
}

/** A schedule's own data, or what is wrong with it; knob values are checked by the caller. */
export function checkScheduleInput(input: unknown, spaces: Spaces): InputCheck {
  const r = parsed(input, 'schedule', '{"family":"elementwise",…}');
  if ('error' in r) return r;
  const family = r.value.family;
  if (!isOwnKey(spaces, family)) return { error: `schedule family ${describeBounded(family)} is not one of ${Object.keys(spaces).join(', ')}` };
  for (const key of Object.keys(r.value)) {
    if (key !== 'family' && !isOwnKey(spaces[family], key)) return { error: `unknown knob '${String(key).slice(0, 64)}' for family ${family} (knobs: ${Object.keys(spaces[family]).join(', ')})` };
  }
  return r;
}

/** A space restriction's own data (knob → values), or what is wrong with it. */
export function checkSpaceInput(input: unknown, space: Readonly<Record<string, unknown>>, family: string): InputCheck {
  const r = parsed(input, 'space', '{"workgroupSize": [64, 256]}');
  if ('error' in r) return r;
  for (const key of Object.keys(r.value)) {
    if (!isOwnKey(space, key)) return { error: `unknown knob '${String(key).slice(0, 64)}' for family ${family} (knobs: ${Object.keys(space).join(', ')})` };
  }
  return r;
}
