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

/** A box of coordinates (degrees), its bounds as values or a statement's parameters. */
export interface CoordinateBox {
  minLat: unknown;
  maxLat: unknown;
  minLng: unknown;
  maxLng: unknown;
}

/** How far a rounded coordinate may lie from the stored one: half a grid step, and a margin for the float's last digits. */
const ROUNDING_REACH = 0.6 * 10 ** -APPROXIMATE_DECIMALS;

/**
 * Whether the record's point, as `viewerId` may see it (`exactLocationSql`), lies in `box`, in SQL, so
 * that a box cannot pin down a hidden spot. One CASE: PostgreSQL has no estimate for it (0.5), where
 * it put ranges of an expression at 0.5% and then read every match of a feed's branch to sort them
 * rather than the branch's index in time order. Inside it the stored coordinates are compared first
 * with the box widened by the rounding's reach (a point shown inside lies at most that far outside):
 * float comparisons that spare most rows outside the box the numeric rounding (evaluated left to right).
 */
export function shownPointInBoxSql(viewerId: string, record: { ownerId: AnyPgColumn; shareExactLocation: AnyPgColumn; latitude: AnyPgColumn; longitude: AnyPgColumn }, box: CoordinateBox): SQL {
  const reach = sql.raw(`${ROUNDING_REACH}::float8`);
  return sql`(CASE WHEN ${record.latitude} BETWEEN ${box.minLat}::float8 - ${reach} AND ${box.maxLat}::float8 + ${reach}
    AND ${record.longitude} BETWEEN ${box.minLng}::float8 - ${reach} AND ${box.maxLng}::float8 + ${reach}
    AND ${exactLocationSql(viewerId, record, record.latitude)} BETWEEN ${box.minLat} AND ${box.maxLat}
    AND ${exactLocationSql(viewerId, record, record.longitude)} BETWEEN ${box.minLng} AND ${box.maxLng} THEN true ELSE false END)`;
}
