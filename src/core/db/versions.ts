import { inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Precondition } from '../http/conditional.js';

/**
 * The condition of an `If-Match` (core/http/conditional.ts) on a `version` column, for the WHERE of
 * the UPDATE or DELETE itself: undefined when the write is unconditional (no If-Match, or `*`).
 */
export function versionMatches(column: AnyPgColumn, precondition: Precondition | undefined): SQL | undefined {
  if (!precondition || 'anyVersion' in precondition) return undefined;
  return precondition.versions.length > 0 ? inArray(column, [...precondition.versions]) : sql`false`;
}
