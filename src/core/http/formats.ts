/**
 * The API's date-time rules for request validation (every module inherits them):
 * - format `date-time`: RFC 3339 with a time zone (any offset, fractional seconds), no leap second
 *   (`…T23:59:60Z`: PostgreSQL and JavaScript cannot store it), from 1900-01-01 to the end of 9999
 *   (tournament dates, trips, filters);
 * - `x-fishlog-range` beside `date-time` or `date`: what has happened — at most 24 hours after now
 *   (an entry's occurredAt, a session's start and end, a catch's caughtAt, a report's day).
 */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

export const EARLIEST_DATE_TIME = Date.UTC(1900, 0, 1);
export const FUTURE_ALLOWANCE_MS = 24 * 60 * 60 * 1000;

/** What a refused date-time is told (the error handler's detail for the `date-time` format). */
export const DATE_TIME_RULE = 'must be an ISO 8601 date-time with a time zone (e.g. 2026-06-01T05:30:00Z), from 1900-01-01 on (no leap second :60)';
/** The detail of a date-time outside `x-fishlog-range`. */
export const PAST_DATE_TIME_RULE =
  'must be an ISO 8601 date-time with a time zone (e.g. 2026-06-01T05:30:00Z), from 1900-01-01 to at most 24 hours from now (no leap second :60)';

/** The detail of a calendar date that is not one (format `date`). */
export const DATE_RULE = 'must be a calendar date YYYY-MM-DD (e.g. 2026-06-01)';

/** The detail of a calendar date outside `x-fishlog-range`. */
export const PAST_DATE_RULE = 'must be a calendar date YYYY-MM-DD (e.g. 2026-06-01), from 1900-01-01 to at most 24 hours from now';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date from 1900-01-01 to the UTC day 24 hours after `now` (`x-fishlog-range` on a `date`). */
export function isPlausibleDate(value: string, now: number = Date.now()): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const instant = dateTimeInstant(`${value}T00:00:00Z`);
  if (instant === undefined || instant < EARLIEST_DATE_TIME) return false;
  return value <= new Date(now + FUTURE_ALLOWANCE_MS).toISOString().slice(0, 10);
}

/** The `date-time` format: a valid, storable instant from 1900 on. */
export function isValidDateTime(value: string): boolean {
  const instant = dateTimeInstant(value);
  return instant !== undefined && instant >= EARLIEST_DATE_TIME;
}

/** A valid instant from 1900 to 24 hours after `now` (`x-fishlog-range` on a `date-time`). */
export function isPlausibleDateTime(value: string, now: number = Date.now()): boolean {
  const instant = dateTimeInstant(value);
  return instant !== undefined && instant >= EARLIEST_DATE_TIME && instant <= now + FUTURE_ALLOWANCE_MS;
}

/** The instant (ms since the epoch) of an RFC 3339 date-time with a zone; undefined when it is not one. */
function dateTimeInstant(value: string): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, fraction, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return undefined;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  if (sign && (Number(oh) > 23 || Number(om) > 59)) return undefined;
  const offsetMs = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000 : 0;
  const millis = fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0;
  const instant = Date.UTC(year, month - 1, day, Number(h), Number(mi), Number(s), millis) - offsetMs;
  return instant;
}
