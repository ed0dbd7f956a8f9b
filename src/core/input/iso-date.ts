// ISO-8601 timestamps as the lab writes them (Date#toISOString, or with an offset), strictly:
// Date.parse takes far more ('1', 'Tue 3', year 275760), and the history orders and plots runs
// by these fields, so anything else is refused.

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** Years a run may carry: the lab did not exist before 2000, and 9999 is ISO's four digits. */
export const MIN_YEAR = 2000;
export const MAX_YEAR = 9999;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whether `s` is a complete ISO timestamp with a real calendar date and time. */
export function isIsoTimestamp(s: unknown): s is string {
  if (typeof s !== 'string' || s.length > 40) return false;
  const m = ISO.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return false;
  return Number.isFinite(Date.parse(s));
}
