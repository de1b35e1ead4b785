import { sql, type SQL } from 'drizzle-orm';
import { timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { Type, type Static } from 'typebox';
import { AppError } from '../http/problem.js';
import { Nullable } from '../http/schemas.js';

/**
 * Featured content (events, spots, clubs): an administrator features a record for a time window;
 * lists show the records featured now first. Both ends are optional: no start = from now on,
 * no end = until unfeatured.
 */
export function featuring() {
  return {
    featuredFrom: timestamp({ withTimezone: true }),
    featuredUntil: timestamp({ withTimezone: true }),
  };
}

/** Whether the record is featured at `now` (false when it never was). */
export function featuredAt(from: AnyPgColumn, until: AnyPgColumn, now: Date): SQL<boolean> {
  const at = now.toISOString();
  return sql<boolean>`(${from} IS NOT NULL AND ${from} <= ${at}::timestamptz AND (${until} IS NULL OR ${until} > ${at}::timestamptz))`;
}

/** The same rule for a row already read. */
export function isFeatured(row: { featuredFrom: Date | null; featuredUntil: Date | null }, now: Date): boolean {
  return row.featuredFrom !== null && row.featuredFrom <= now && (row.featuredUntil === null || row.featuredUntil > now);
}

/** Body of a "feature" admin action: the window (start defaults to now) and a reason for the audit log. */
export const FeatureBody = Type.Object(
  {
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Start of the window (default now)' })),
    until: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'End of the window (null or absent: until unfeatured)' }))),
    reason: Type.String({ minLength: 3, maxLength: 500, description: 'Why (audit log)' }),
  },
  { additionalProperties: false, examples: [{ from: '2026-06-01T00:00:00Z', until: '2026-06-15T00:00:00Z', reason: 'Opening weekend promotion' }] },
);
export type FeatureInput = Static<typeof FeatureBody>;

/** The stored window of a feature action (400 when it ends before it starts). */
export function featureWindow(input: FeatureInput, now: Date): { featuredFrom: Date; featuredUntil: Date | null } {
  const featuredFrom = input.from ? new Date(input.from) : now;
  const featuredUntil = input.until ? new Date(input.until) : null;
  if (featuredUntil && featuredUntil <= featuredFrom) {
    throw new AppError(400, 'featured.window_invalid', '`until` must be after `from` (or now).', { errors: [{ pointer: '/until', in: 'body', detail: 'must be after from' }] });
  }
  return { featuredFrom, featuredUntil };
}

/** Body of an administrative deactivation or reactivation: the reason is required (audit log). */
export const AdminReasonBody = Type.Object(
  { reason: Type.String({ minLength: 3, maxLength: 500, description: 'Why (audit log)' }) },
  { additionalProperties: false, examples: [{ reason: 'Duplicate of another listing' }] },
);

/** What an administrators' list shows of a record's deactivation and featuring window (the columns of deactivation() and featuring()). */
export function deactivationAndFeaturing(row: { deactivatedAt: Date | null; deactivationReason: string | null; featuredFrom: Date | null; featuredUntil: Date | null }) {
  return {
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    deactivationReason: row.deactivationReason,
    featuredFrom: row.featuredFrom?.toISOString() ?? null,
    featuredUntil: row.featuredUntil?.toISOString() ?? null,
  };
}
