/**
 * Trip times live in the listing's IANA time zone: captains enter local date-times
 * (`2026-07-04T06:00`), the API answers ISO 8601 with the zone's offset (`2026-07-04T06:00:00-04:00`).
 */

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
}

/** Minutes east of UTC of `zone` at `date`. */
export function offsetMinutes(date: Date, zone: string): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** `date` as ISO 8601 local time in `zone` with its offset. */
export function formatInZone(date: Date, zone: string): string {
  const offset = offsetMinutes(date, zone);
  const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** A local date-time (`YYYY-MM-DDTHH:MM[:SS[.fraction]]`) in `zone`, or with an explicit offset/Z, as an instant. */
export function zonedToUtc(local: string, zone: string): Date {
  if (/([Zz]|[+-]\d{2}:\d{2})$/.test(local)) return new Date(local.toUpperCase());
  const guess = Date.parse(`${local.length === 16 ? `${local}:00` : local}Z`);
  const first = offsetMinutes(new Date(guess), zone);
  let utc = guess - first * 60_000;
  const second = offsetMinutes(new Date(utc), zone);
  if (second !== first) utc = guess - second * 60_000;
  return new Date(utc);
}
