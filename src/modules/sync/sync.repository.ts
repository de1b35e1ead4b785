import { and, eq, getTableName, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { namedStatement } from '../../core/db/prepared.js';
import { users } from '../users/index.js';
import { userProfiles } from '../profiles/index.js';
import { friendLinks } from '../social/index.js';
import { FRIENDS, PULLED, type PullSpec, type Raw } from './sync.records.js';
import { syncHorizon, syncTombstones } from './sync.tables.js';

const changeXid = (spec: PullSpec) => sql.raw(`"${getTableName(spec.table)}"."change_xid"`);

export interface PullHead {
  /** The cursor of the snapshot the pull reads in: every transaction below it had ended (pg_snapshot_xmin). */
  cursor: string;
  /** The highest change id of the purged tombstones: a cursor not above it may have missed a deletion. */
  purgedThrough: string;
  /** With a cursor: the tables (protocol names, `deleted` for the tombstones) with a change at or after it. */
  changed?: Set<string>;
}

const user = sql.placeholder('user');
const since = sql.placeholder('since');

/**
 * The newest change id among `from`'s rows matching `where`, at or after `since`: one step of an index on
 * (owner, change_xid) or (change_xid), read backwards. Written as the newest row rather than as EXISTS of a row at or
 * after `since`, whose selectivity the generic plan of the named statement cannot know: it guessed a third of the
 * table and read the whole of an angler's catches (a sequential scan, 2.6 ms for 11,600 rows) to find none.
 */
const newestAtOrAfter = (xid: SQL, from: SQL, where: SQL) => sql`(SELECT ${xid} FROM ${from} WHERE ${where} ORDER BY ${xid} DESC LIMIT 1) >= ${since}::xid8`;

/** The probes of the head: the names of the tables with a change at or after `since` (the tombstones as `deleted`). */
function probes(): SQL {
  const cases = [
    ...PULLED.map((spec) => {
      const conditions = [...(spec.owner ? [sql`${spec.owner} = ${user}::uuid`] : []), ...(spec.where ? [spec.where] : [])];
      return sql`CASE WHEN ${newestAtOrAfter(changeXid(spec), sql`${spec.table}`, conditions.length > 0 ? and(...conditions)! : sql`true`)} THEN ${spec.name} END`;
    }),
    sql`CASE WHEN ${newestAtOrAfter(sql`change_xid`, sql`${friendLinks}`, sql`${friendLinks.userId} = ${user}::uuid`)}
          OR ${newestAtOrAfter(sql`change_xid`, sql`${friendLinks}`, sql`${friendLinks.friendId} = ${user}::uuid`)}
          OR ${newestAtOrAfter(sql`p.change_xid`, sql`${friendLinks} mine JOIN ${userProfiles} p ON p.user_id = mine.friend_id`, sql`mine.user_id = ${user}::uuid`)}
          OR ${newestAtOrAfter(sql`u.change_xid`, sql`${friendLinks} mine JOIN ${users} u ON u.id = mine.friend_id`, sql`mine.user_id = ${user}::uuid`)}
        THEN ${FRIENDS} END`,
    sql`CASE WHEN ${newestAtOrAfter(sql`change_xid`, sql`${syncTombstones}`, sql`owner_id = ${user}::uuid`)}
          OR ${newestAtOrAfter(sql`change_xid`, sql`${syncTombstones}`, sql`owner_id IS NULL`)}
        THEN 'deleted' END`,
  ];
  return sql`array_remove(ARRAY[${sql.join(cases, sql`, `)}]::text[], NULL)`;
}

type HeadRow = { cursor: string; purgedThrough: string | null; changed: string[] | null };
const head = (changed: SQL) => sql`
  SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS cursor,
         (SELECT ${syncHorizon.purgedThrough}::text FROM ${syncHorizon} WHERE ${syncHorizon.id} = 1) AS "purgedThrough",
         ${changed} AS changed`;
/** A named statement (planned once per connection): an empty pull is this statement and its transaction. */
const headSince = namedStatement<HeadRow, { user: string; since: string }>('sync_pull_head', () => head(probes()));
const headFirst = namedStatement<HeadRow>('sync_pull_head_first', () => head(sql`NULL::text[]`));

/**
 * What a pull needs first, in one statement: the snapshot's cursor, the purge horizon and, from
 * `since` on, which tables changed (one index probe each: a pull with nothing new stops here).
 */
export async function pullHead(tx: DbOrTx, userId: string, from: string | undefined): Promise<PullHead> {
  const row = (from === undefined ? await headFirst.first(tx, {}) : await headSince.first(tx, { user: userId, since: from }))!;
  return { cursor: row.cursor, purgedThrough: row.purgedThrough ?? '0', ...(row.changed ? { changed: new Set(row.changed) } : {}) };
}

/** Where a paged pull stopped: after this row (change id, id) of the table at this position of PULLED. */
export interface PagePosition {
  table: number;
  xid: string;
  id: string;
}

/**
 * The rows of one table changed at or after `since` (all when undefined), as raw records with
 * their change id (`_xid`). For an owner's table, one range of its (owner, change_xid) index; for a
 * shared table, of its change_xid index. Paged: `limit` rows at most, in (change id, id) order,
 * after `after`.
 */
export async function changedRows(db: DbOrTx, spec: PullSpec, userId: string, since: string | undefined, page?: { limit: number; after?: { xid: string; id: string } | undefined }): Promise<(Raw & { _xid: string })[]> {
  const conditions: SQL[] = [];
  const xid = changeXid(spec);
  const id = spec.columns.id!;
  if (spec.owner) conditions.push(eq(spec.owner, userId));
  if (since !== undefined) conditions.push(sql`${xid} >= ${since}::xid8`);
  if (spec.where) conditions.push(spec.where);
  if (page?.after) conditions.push(sql`(${xid} > ${page.after.xid}::xid8 OR (${xid} = ${page.after.xid}::xid8 AND ${id} > ${page.after.id}))`);
  const query = db
    .select({ ...(spec.columns as Record<string, SQL>), _xid: sql<string>`${xid}::text` })
    .from(spec.table)
    .where(and(...conditions));
  const rows = page ? await query.orderBy(xid, id).limit(page.limit) : await query;
  return rows as (Raw & { _xid: string })[];
}

/** The caller's friends (both edges exist) whose friendship, profile or username changed at or after `since`, with their names. */
export async function changedFriends(db: DbOrTx, userId: string, since: string | undefined): Promise<Raw[]> {
  const after =
    since === undefined ? sql`true` : sql`(mine.change_xid >= ${since}::xid8 OR theirs.change_xid >= ${since}::xid8 OR p.change_xid >= ${since}::xid8 OR u.change_xid >= ${since}::xid8)`;
  const { rows } = await db.execute<Raw>(sql`
    SELECT mine.friend_id AS id, u.username, p.display_name
      FROM ${friendLinks} mine
      JOIN ${friendLinks} theirs ON theirs.user_id = mine.friend_id AND theirs.friend_id = mine.user_id
      JOIN ${users} u ON u.id = mine.friend_id
      LEFT JOIN ${userProfiles} p ON p.user_id = mine.friend_id
     WHERE mine.user_id = ${userId} AND ${after}`);
  return rows;
}

/** Ids of the records of `userId` (and of the shared tables) deleted at or after `since`, by table. */
export async function tombstones(db: DbOrTx, userId: string, since: string): Promise<{ tableName: string; recordId: string }[]> {
  const { rows } = await db.execute<{ tableName: string; recordId: string }>(sql`
    SELECT table_name AS "tableName", record_id AS "recordId" FROM ${syncTombstones} WHERE owner_id = ${userId} AND change_xid >= ${since}::xid8
    UNION ALL
    SELECT table_name, record_id FROM ${syncTombstones} WHERE owner_id IS NULL AND change_xid >= ${since}::xid8`);
  return rows;
}

/** Deletes the tombstones deleted before `before`, and moves the horizon past them; how many. */
export async function purgeTombstones(db: DbOrTx, before: Date): Promise<number> {
  const { rows } = await db.execute<{ purged: number }>(sql`
    WITH purged AS (DELETE FROM ${syncTombstones} WHERE deleted_at < ${before} RETURNING change_xid),
         top AS (SELECT max(change_xid) AS xid, count(*)::int AS n FROM purged)
    UPDATE ${syncHorizon} SET purged_through = GREATEST(purged_through, top.xid) FROM top WHERE ${syncHorizon.id} = 1 AND top.xid IS NOT NULL
    RETURNING top.n AS purged`);
  return rows[0]?.purged ?? 0;
}

/** The owner, version and (for catches) entry of existing records of `table` among `ids`. */
export async function existing(db: DbOrTx, spec: PullSpec, ids: string[]): Promise<Map<string, { ownerId: string; version: number; entryId?: string }>> {
  if (ids.length === 0 || !spec.owner) return new Map();
  const table = getTableName(spec.table);
  const entry = table === 'catches' ? sql`, entry_id AS "entryId"` : sql``;
  const { rows } = await db.execute<{ id: string; ownerId: string; version: number; entryId?: string }>(
    sql`SELECT id, owner_id AS "ownerId", version${entry} FROM ${spec.table} WHERE id IN ${ids}`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}
