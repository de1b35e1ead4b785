import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FeedKey } from '../http/pagination.js';

/**
 * SQL of keyset pagination over `(time DESC, id DESC)`: the key of a row (its time in exact
 * microseconds, as text) and the condition "strictly after this key". The row comparison is an
 * index condition of any index ending in (time DESC, id DESC).
 */
export function feedKeySql(time: AnyPgColumn | SQL): SQL<string> {
  return sql<string>`(extract(epoch from ${time}) * 1000000)::bigint::text`;
}

export function afterKeySql(time: AnyPgColumn, id: AnyPgColumn, key: FeedKey | undefined): SQL | undefined {
  if (!key) return undefined;
  return sql`(${time}, ${id}) < (timestamptz 'epoch' + ${key.micros}::bigint * interval '1 microsecond', ${key.id}::uuid)`;
}
