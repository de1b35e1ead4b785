import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { isOwner } from './policy.js';

/**
 * Location blurring, the one rule: a record's coordinates are exact for its owner and when the
 * owner shares them exactly (`shareExactLocation`); everyone else sees them rounded to
 * `APPROXIMATE_DECIMALS` decimals (0.01° ≈ 1 km). `exactLocationSql` is the same rule for SQL
 * that filters or sorts on coordinates.
 */

export const APPROXIMATE_DECIMALS = 2;

export interface LocatedRecord {
  readonly ownerId: string;
  readonly shareExactLocation: boolean;
}

export function showsExactLocation(viewerId: string, record: LocatedRecord): boolean {
  return isOwner(viewerId, record) || record.shareExactLocation;
}

function round(value: number): number {
  const f = 10 ** APPROXIMATE_DECIMALS;
  return Math.round(value * f) / f;
}

/** A point as `viewerId` may see it: exact, or rounded and marked approximate; null without coordinates. */
export function pointFor(latitude: number | null, longitude: number | null, exact: boolean) {
  if (latitude === null || longitude === null) return null;
  return exact
    ? { latitude, longitude, precision: 'Exact' as const }
    : { latitude: round(latitude), longitude: round(longitude), precision: 'Approximate' as const };
}

/** The coordinate `column` as `viewerId` may see it, in SQL (owner and share columns of the record). */
export function exactLocationSql(viewerId: string, record: { ownerId: AnyPgColumn; shareExactLocation: AnyPgColumn }, column: AnyPgColumn): SQL {
  return sql`CASE WHEN ${record.ownerId} = ${viewerId} OR ${record.shareExactLocation} THEN ${column} ELSE round(${column}::numeric, ${sql.raw(String(APPROXIMATE_DECIMALS))})::float8 END`;
}
