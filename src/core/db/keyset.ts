import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FeedKey, FeedPage } from '../http/pagination.js';
import type { DbOrTx } from './client.js';
import { namedStatementVariants, placeholder } from './prepared.js';

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

/** A feed page's ids with their keys (for the next cursor). */
export interface FeedRow {
  id: string;
  key: string;
}

/**
 * The unfiltered first page of a feed, or the page after a cursor, as named statements (one per
 * page size and cursor presence, named `<prefix>_<size>[_after]`): `query(viewer, page)` builds the
 * SQL with the viewer and the cursor key as parameters. Returns what runs it for a viewer and page.
 */
export function feedStatements(prefix: string, query: (viewerId: string, page: FeedPage) => SQL): (db: DbOrTx, viewerId: string, page: FeedPage) => Promise<FeedRow[]> {
  const statement = namedStatementVariants<FeedRow, { viewer: string; micros?: string; afterId?: string }, `${number}` | `${number}:after`>(
    (variant) => `${prefix}_${variant.replace(':', '_')}`,
    (variant) => {
      const [limit, after] = variant.split(':');
      return query(placeholder('viewer'), { limit: Number(limit), offset: 0, after: after ? { micros: placeholder('micros'), id: placeholder('afterId') } : undefined });
    },
  );
  return (db, viewerId, page) =>
    page.after ? statement(`${page.limit}:after`).rows(db, { viewer: viewerId, micros: page.after.micros, afterId: page.after.id }) : statement(`${page.limit}`).rows(db, { viewer: viewerId });
}
