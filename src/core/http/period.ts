import { Type } from 'typebox';

/**
 * The period of an analytics endpoint (dashboards, revenue, audit statistics): `[from, to)`, by
 * default the last 30 days up to now, as dashboards open. Either bound may be given alone.
 */
export const DEFAULT_PERIOD_DAYS = 30;
const DAY_MS = 86_400_000;

/** The `from` and `to` query parameters of a period (spread into a query schema). */
export const periodQuery = {
  from: Type.Optional(Type.String({ format: 'date-time', description: `Start (inclusive); default: ${DEFAULT_PERIOD_DAYS} days before \`to\``, examples: ['2026-05-01T00:00:00Z'] })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'End (exclusive); default: now', examples: ['2026-06-01T00:00:00Z'] })),
};

/** The period a query asks for, its missing bounds filled in (`now`: the app's clock). */
export function periodOf(query: { from?: string | undefined; to?: string | undefined }, now: number): { from: Date; to: Date } {
  const to = query.to === undefined ? new Date(now) : new Date(query.to);
  const from = query.from === undefined ? new Date(to.getTime() - DEFAULT_PERIOD_DAYS * DAY_MS) : new Date(query.from);
  return { from, to };
}
