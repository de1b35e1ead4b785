import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { branchCondition, type VisibilityBranch } from '../access/visibility.js';
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

/** What `newestOfBranch` reads: the table, its owner, id and time columns, the time's name in the result, and the feed's other conditions. */
export interface FeedSource {
  table: PgTable;
  owner: AnyPgColumn;
  id: AnyPgColumn;
  time: AnyPgColumn;
  /** The name of the time column in the branch's rows (the id is `id`). */
  timeAs: string;
  where: SQL[];
}

/**
 * One visibility branch of a newest-first feed: its newest `window` rows (`id` and the time), in
 * the order of the (…, time DESC NULLS LAST, id DESC NULLS LAST) indexes, each branch read
 * through its own index. With `perOwner`, a branch limited to related owners (Friends, Circle)
 * reads each owner's newest `window` rows on its own (a LATERAL subquery per owner, served by an
 * (owner, visibility, time) index) and keeps the newest `window` of those: what it reads is
 * bounded by owners × window however many rows each owner has. Written as `owner IN (…)`, the
 * generic plan of a prepared feed (the plan it runs after five executions) read every row of
 * every friend before sorting: five friends with 5,000 entries each took a page from 0.8 to
 * 17.7 ms on the 1M bench set (0.9 ms per owner). The unfiltered feeds, the friends-only scope and
 * the entries feed's `visibility=` filter read per owner; without `perOwner` (the other filters,
 * planned per request) the planner keeps the choice of a time-ordered scan for large friend sets.
 */
export function newestOfBranch(branch: VisibilityBranch, source: FeedSource, window: number, perOwner: boolean): SQL {
  const order = sql`${source.time} DESC NULLS LAST, ${source.id} DESC NULLS LAST`;
  const limit = sql.raw(String(window));
  const time = sql.identifier(source.timeAs);
  const select = sql`SELECT ${source.id} AS id, ${source.time} AS ${time} FROM ${source.table}`;
  if (!branch.owners || !perOwner) {
    return sql`(${select} WHERE ${sql.join([branchCondition(branch, source.owner), ...source.where], sql` AND `)} ORDER BY ${order} LIMIT ${limit})`;
  }
  const conditions = [sql`${source.owner} = related.owner_id`, branch.condition, ...source.where];
  return sql`(SELECT owned.id, owned.${time} FROM (${branch.owners}) AS related(owner_id)
    CROSS JOIN LATERAL (${select} WHERE ${sql.join(conditions, sql` AND `)} ORDER BY ${order} LIMIT ${limit}) AS owned
    ORDER BY owned.${time} DESC NULLS LAST, owned.id DESC NULLS LAST LIMIT ${limit})`;
}

/** A feed page's ids with their keys (for the next cursor). */
export interface FeedRow {
  id: string;
  key: string;
}

/**
 * The unfiltered first page of a feed, or the page after a cursor, as named statements (one per
 * page size and cursor presence, named `<prefix>_<size>[_after]`): `query(context, viewer, page)`
 * builds the SQL with the viewer and the cursor key as parameters (`context`: what else it needs,
 * e.g. the relationships of the visibility rules; a statement's text is built once per process, on
 * its first use). Returns what runs it for a viewer and page.
 */
export function feedStatements<C>(prefix: string, query: (context: C, viewerId: string, page: FeedPage) => SQL): (db: DbOrTx, context: C, viewerId: string, page: FeedPage) => Promise<FeedRow[]> {
  let context: C; // the caller's, while a variant's text is built (synchronously, in its first run)
  const statement = namedStatementVariants<FeedRow, { viewer: string; micros?: string; afterId?: string }, `${number}` | `${number}:after`>(
    (variant) => `${prefix}_${variant.replace(':', '_')}`,
    (variant) => {
      const [limit, after] = variant.split(':');
      return query(context, placeholder('viewer'), { limit: Number(limit), offset: 0, after: after ? { micros: placeholder('micros'), id: placeholder('afterId') } : undefined });
    },
  );
  return (db, given, viewerId, page) => {
    context = given;
    return page.after ? statement(`${page.limit}:after`).rows(db, { viewer: viewerId, micros: page.after.micros, afterId: page.after.id }) : statement(`${page.limit}`).rows(db, { viewer: viewerId });
  };
}
