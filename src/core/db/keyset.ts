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
 * 17.7 ms on the 1M bench set (0.9 ms per owner). Every feed reads per owner except one filtered
 * to a single owner or author, whose own (owner, …, time) index range bounds it.
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

/**
 * A feed's branches (`newestOfBranch` each, with its own source), merged by UNION ALL: the rows
 * the page is taken from (the caller sorts them and keeps its page). The branch that `leads` (the
 * Public branch) is read first, as a CTE: when it returns `window` rows, no row older than its
 * oldest can be on the page (the window is full of newer ones), so every other branch reads only
 * rows from that time on, an index condition of its (owner, …, time) index. Without the bound, a
 * friend with fewer matching rows than the window was read to the end of their history (a map box
 * holding a sixth of a friend's entries: their whole history read for rows the page then dropped).
 * With no leading branch, or one that returns fewer rows than the window, nothing is bounded.
 * `led: false` reads every branch unbounded (the EXPLAIN tests' "before").
 */
export function newestOfBranches(parts: Array<{ branch: VisibilityBranch; source: FeedSource }>, window: number, perOwner: boolean, led = true): SQL {
  const lead = led ? parts.find((part) => part.branch.leads) : undefined;
  if (!lead) return sql.join(parts.map((part) => newestOfBranch(part.branch, part.source, window, perOwner)), sql` UNION ALL `);
  const time = sql.identifier(lead.source.timeAs);
  const oldestOfLead = sql`(SELECT CASE WHEN count(*) >= ${sql.raw(String(window))} THEN min(${time}) ELSE '-infinity' END FROM feed_lead)`;
  const others = parts
    .filter((part) => part !== lead)
    .map((part) => newestOfBranch(part.branch, { ...part.source, where: [...part.source.where, sql`${part.source.time} >= ${oldestOfLead}`] }, window, perOwner));
  return sql`WITH feed_lead AS MATERIALIZED ${newestOfBranch(lead.branch, lead.source, window, perOwner)}
    SELECT id, ${time} FROM feed_lead${sql.join(others.map((other) => sql` UNION ALL ${other}`))}`;
}

/** A feed page's ids with their keys (for the next cursor). */
export interface FeedRow {
  id: string;
  key: string;
}

/** Runs a feed's named statement for a viewer and page; `values`: the parameters of its filters (`feedShape`). */
export type FeedStatement<C> = (db: DbOrTx, context: C, viewerId: string, page: FeedPage, values?: Record<string, unknown>) => Promise<FeedRow[]>;

/**
 * The first page of a feed, or the page after a cursor, as named statements (one per page size and
 * cursor presence, named `<prefix>_<size>[_after]`): `query(context, viewer, page)` builds the SQL
 * with the viewer, the cursor key and the filters' values as parameters (`context`: what else it
 * needs, e.g. the relationships of the visibility rules; a statement's text is built once per
 * process, on its first use). Returns what runs it for a viewer and page.
 */
export function feedStatements<C>(prefix: string, query: (context: C, viewerId: string, page: FeedPage) => SQL): FeedStatement<C> {
  let context: C; // the caller's, while a variant's text is built (synchronously, in its first run)
  const statement = namedStatementVariants<FeedRow, Record<string, unknown>, `${number}` | `${number}:after`>(
    (variant) => `${prefix}_${variant.replace(':', '_')}`,
    (variant) => {
      const [limit, after] = variant.split(':');
      return query(context, placeholder('viewer'), { limit: Number(limit), offset: 0, after: after ? { micros: placeholder('micros'), id: placeholder('afterId') } : undefined });
    },
  );
  return (db, given, viewerId, page, values = {}) => {
    context = given;
    return page.after
      ? statement(`${page.limit}:after`).rows(db, { ...values, viewer: viewerId, micros: page.after.micros, afterId: page.after.id })
      : statement(`${page.limit}`).rows(db, { ...values, viewer: viewerId });
  };
}

/**
 * A filtered feed's shape: which filters are given (`valued`, each a parameter of the statement,
 * a letter of its name) and the ones that choose its branches (`named`, part of the name, e.g. a
 * visibility value). One named statement per shape, page size and cursor presence, whatever the
 * values: `<prefix>[_<named>…]_feed[_<letters>]_<size>[_after]`, under PostgreSQL's 63 bytes of a
 * statement name.
 */
export interface FeedShape {
  named: string[];
  valued: Array<{ name: string; letter: string }>;
}

/** The feeds of `prefix` per shape (`build(shape)`: the statement's query), made on first use. */
export function shapedFeedStatements<C>(prefix: string, build: (shape: FeedShape) => (context: C, viewerId: string, page: FeedPage) => SQL): (shape: FeedShape) => FeedStatement<C> {
  const made = new Map<string, FeedStatement<C>>();
  return (shape) => {
    const letters = shape.valued.map((v) => v.letter).join('');
    const name = [prefix, ...shape.named, 'feed', ...(letters ? [letters] : [])].join('_');
    let statement = made.get(name);
    if (!statement) made.set(name, (statement = feedStatements(name, build(shape))));
    return statement;
  };
}
