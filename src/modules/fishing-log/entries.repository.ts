import { and, asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { exactLocationSql } from '../../core/access/location.js';
import { isOwner } from '../../core/access/policy.js';
import { v7 as uuidv7 } from 'uuid';
import { visibilityBranches } from '../../core/access/visibility.js';
import type { DbOrTx } from '../../core/db/client.js';
import { afterKeySql, feedKeySql } from '../../core/db/keyset.js';
import { anyUuid, placeholder, preparedStatements } from '../../core/db/prepared.js';
import type { FeedPage } from '../../core/http/pagination.js';
import { brands } from '../brands/index.js';
import { gearItems } from '../gear/index.js';
import { fishSpecies } from '../species/index.js';
import { users } from '../users/index.js';
import { catches, logEntries, type CatchRow, type EntryRow } from './fishing-log.tables.js';

export type EntryValues = Omit<typeof logEntries.$inferInsert, 'id' | 'ownerId' | 'createdAt' | 'updatedAt'>;

export interface EntryFilters {
  mine?: boolean;
  ownerId?: string;
  speciesId?: string;
  from?: string;
  to?: string;
  visibility?: string;
  bbox?: { minLat: number; maxLat: number; minLng: number; maxLng: number };
}

const e = logEntries;
// Exactly the order of the (…, occurred_at DESC NULLS LAST, id DESC NULLS LAST) indexes, so each branch is read in index order.
const ORDER = sql`${e.occurredAt} DESC NULLS LAST, ${e.id} DESC NULLS LAST`;

/** Coordinates as the viewer sees them (the location rule of core/access). */
function shownCoordinate(viewerId: string, column: typeof e.latitude | typeof e.longitude): SQL {
  return exactLocationSql(viewerId, e, column);
}

function filterConditions(viewerId: string, filters: EntryFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.ownerId) conditions.push(sql`${e.ownerId} = ${filters.ownerId}`);
  if (filters.visibility) conditions.push(sql`${e.visibility} = ${filters.visibility}`);
  if (filters.from) conditions.push(sql`${e.occurredAt} >= ${filters.from}`);
  if (filters.to) conditions.push(sql`${e.occurredAt} <= ${filters.to}`);
  if (filters.speciesId) {
    conditions.push(sql`EXISTS (SELECT 1 FROM ${catches} c WHERE c.entry_id = ${e.id} AND c.species_id = ${filters.speciesId})`);
  }
  if (filters.bbox) {
    // Filter on the coordinates the viewer is shown, so a box cannot pin down a hidden spot.
    const { minLat, maxLat, minLng, maxLng } = filters.bbox;
    conditions.push(sql`${e.latitude} IS NOT NULL AND ${shownCoordinate(viewerId, e.latitude)} BETWEEN ${minLat} AND ${maxLat}`);
    conditions.push(sql`${shownCoordinate(viewerId, e.longitude)} BETWEEN ${minLng} AND ${maxLng}`);
  }
  return conditions;
}

/** The visibility branches that can match these filters (others are left out of the UNION). */
function branches(viewerId: string, filters: EntryFilters): SQL[] {
  const [own, pub, friends, circle] = visibilityBranches(viewerId, e.ownerId, e.visibility);
  if (filters.mine || (filters.ownerId ? isOwner(viewerId, { ownerId: filters.ownerId }) : false)) return [own!];
  const all = filters.ownerId ? [pub!, friends!, circle!] : [own!, pub!, friends!, circle!];
  if (filters.visibility === 'Private') return filters.ownerId ? [] : [own!];
  return all;
}

/**
 * The list query: one index-served, ordered, limited SELECT per visibility branch, merged by
 * UNION ALL (each branch returns at most offset+limit ids, after the cursor key when given),
 * then the page with each row's key (for the next cursor). Exported for the EXPLAIN test.
 */
export function visibleEntryIdsQuery(viewerId: string, filters: EntryFilters, page: FeedPage): SQL {
  const after = afterKeySql(e.occurredAt, e.id, page.after);
  const where = [...filterConditions(viewerId, filters), ...(after ? [after] : [])];
  // Limits as literals (validated integers): the planner costs each branch for the rows it really
  // reads, also in the generic plan of a prepared statement (a LIMIT parameter counts as 10% of the table).
  const parts = branches(viewerId, filters).map(
    (branch) => sql`(SELECT ${e.id} AS id, ${e.occurredAt} AS occurred_at FROM ${e} WHERE ${sql.join([branch, ...where], sql` AND `)} ORDER BY ${ORDER} LIMIT ${sql.raw(String(page.offset + page.limit))})`,
  );
  if (parts.length === 0) return sql`SELECT NULL::uuid AS id, NULL::text AS key WHERE false`;
  return sql`SELECT v.id, ${feedKeySql(sql`v.occurred_at`)} AS key FROM (${sql.join(parts, sql` UNION ALL `)}) v ORDER BY v.occurred_at DESC, v.id DESC LIMIT ${sql.raw(String(page.limit))} OFFSET ${sql.raw(String(page.offset))}`;
}

/**
 * The unfiltered feed (what an app shows first, and every next page through its cursor) as a
 * prepared statement per page size and cursor presence; parameters: viewer, cursor key.
 */
const feedStatement = preparedStatements((db: DbOrTx, variant: `${number}` | `${number}:after`) => {
  const [limit, after] = variant.split(':');
  const page: FeedPage = { limit: Number(limit), offset: 0, after: after ? { micros: placeholder('micros'), id: placeholder('afterId') } : undefined };
  const query = visibleEntryIdsQuery(placeholder('viewer'), {}, page);
  return db
    .select({ id: sql<string>`feed.id`.as('id'), key: sql<string>`feed.key`.as('key') })
    .from(sql`(${query}) feed`)
    .prepare(`entries_feed_${limit}${after ? '_after' : ''}`);
});

async function feedIds(db: DbOrTx, viewerId: string, filters: EntryFilters, page: FeedPage): Promise<{ id: string; key: string }[]> {
  if (page.offset === 0 && Object.keys(filters).length === 0) {
    const statement = feedStatement(db, page.after ? `${page.limit}:after` : `${page.limit}`);
    return statement.execute({ viewer: viewerId, micros: page.after?.micros, afterId: page.after?.id });
  }
  return (await db.execute<{ id: string; key: string }>(visibleEntryIdsQuery(viewerId, filters, page))).rows;
}

export interface EntryWithOwner extends EntryRow {
  ownerUsername: string;
  catchCount: number;
}

const entriesByIdsStatement = preparedStatements((db: DbOrTx, _variant: 'all') =>
  db
    .select({
      entry: logEntries,
      ownerUsername: users.username,
      catchCount: sql<number>`(SELECT count(*)::int FROM ${catches} c WHERE c.entry_id = "fishing_log_entries"."id")`,
    })
    .from(logEntries)
    .innerJoin(users, eq(users.id, logEntries.ownerId))
    .where(anyUuid(logEntries.id, 'ids'))
    .prepare('entries_by_ids'),
);

/** Full rows for ids, with owner name and catch count, in one (prepared) query. */
export async function entriesByIds(db: DbOrTx, ids: string[]): Promise<EntryWithOwner[]> {
  if (ids.length === 0) return [];
  const rows = await entriesByIdsStatement(db, 'all').execute({ ids });
  // (The row objects are this call's own: completed in place rather than copied.)
  const byId = new Map(rows.map((r) => [r.entry.id, Object.assign(r.entry, { ownerUsername: r.ownerUsername, catchCount: r.catchCount })]));
  return ids.map((id) => byId.get(id)).filter((r): r is EntryWithOwner => r !== undefined);
}

/** A page of the feed and the key of its last row (no count: see core/http/pagination.ts). */
export async function listVisible(db: DbOrTx, viewerId: string, filters: EntryFilters, page: FeedPage) {
  const rows = await feedIds(db, viewerId, filters, page);
  const lastRow = rows.at(-1);
  return { items: await entriesByIds(db, rows.map((r) => r.id)), last: lastRow ? { micros: lastRow.key, id: lastRow.id } : undefined };
}

export async function findEntry(db: DbOrTx, id: string): Promise<EntryWithOwner | undefined> {
  return (await entriesByIds(db, [id]))[0];
}

export async function findEntryForUpdate(db: DbOrTx, id: string): Promise<EntryRow | undefined> {
  const [row] = await db.select().from(logEntries).where(eq(logEntries.id, id)).for('update');
  return row;
}

/** A new entry as `entriesByIds` shows it (owner name, no catches yet), in one statement. */
export async function insertEntryWithOwner(db: DbOrTx, ownerId: string, values: EntryValues): Promise<EntryWithOwner> {
  const [row] = await db
    .insert(logEntries)
    .values({ id: uuidv7(), ownerId, ...values })
    .returning({ ...getTableColumns(logEntries), ownerUsername: sql<string>`(SELECT ${users.username} FROM ${users} WHERE ${users.id} = ${logEntries.ownerId})` });
  return { ...row!, catchCount: 0 };
}

export async function updateEntry(db: DbOrTx, id: string, values: EntryValues): Promise<EntryRow> {
  const [row] = await db.update(logEntries).set({ ...values, updatedAt: new Date() }).where(eq(logEntries.id, id)).returning();
  return row!;
}

export async function deleteEntry(db: DbOrTx, id: string): Promise<void> {
  await db.delete(logEntries).where(eq(logEntries.id, id)); // catches cascade
}

export interface CatchWithSpecies extends CatchRow {
  species: { id: string; commonName: string; scientificName: string };
  lureItem: { id: string; name: string; brand: string } | null;
}

const catchSelection = {
  c: catches,
  species: { id: fishSpecies.id, commonName: fishSpecies.commonName, scientificName: fishSpecies.scientificName },
  lureName: gearItems.name,
  lureBrand: brands.name,
};

type CatchSelectionRow = { c: CatchRow; species: CatchWithSpecies['species']; lureName: string | null; lureBrand: string | null };

function withLure(row: CatchSelectionRow): CatchWithSpecies {
  const lureItem = row.c.lureItemId && row.lureName && row.lureBrand ? { id: row.c.lureItemId, name: row.lureName, brand: row.lureBrand } : null;
  return { ...row.c, species: row.species, lureItem };
}

/** catches ⋈ species ⟕ catalog lure ⟕ its brand */
function catchesFrom(db: DbOrTx) {
  return db
    .select(catchSelection)
    .from(catches)
    .innerJoin(fishSpecies, eq(fishSpecies.id, catches.speciesId))
    .leftJoin(gearItems, eq(gearItems.id, catches.lureItemId))
    .leftJoin(brands, eq(brands.id, gearItems.brandId));
}

const catchesOfEntriesStatement = preparedStatements((db: DbOrTx, _variant: 'all') =>
  catchesFrom(db)
    .where(anyUuid(catches.entryId, 'entryIds'))
    .orderBy(asc(catches.entryId), asc(catches.caughtAt), asc(catches.id))
    .prepare('entries_catches_of'),
);

export async function catchesOfEntries(db: DbOrTx, entryIds: string[]): Promise<CatchWithSpecies[]> {
  if (entryIds.length === 0) return [];
  const rows = await catchesOfEntriesStatement(db, 'all').execute({ entryIds });
  return rows.map(withLure);
}

export async function catchesPage(db: DbOrTx, entryId: string, page: { limit: number; offset: number }) {
  const [rows, [count]] = await Promise.all([
    catchesFrom(db).where(eq(catches.entryId, entryId)).orderBy(asc(catches.caughtAt), asc(catches.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(catches).where(eq(catches.entryId, entryId)),
  ]);
  return { items: rows.map(withLure), total: count?.n ?? 0 };
}

export type CatchValues = Omit<typeof catches.$inferInsert, 'id' | 'entryId' | 'ownerId' | 'createdAt' | 'updatedAt'>;

/** Inserts a catch; with its species known and no catalog lure, in one round trip (no read back). */
export async function insertCatch(db: DbOrTx, entry: { id: string; ownerId: string }, values: CatchValues, species?: CatchWithSpecies['species']): Promise<CatchWithSpecies> {
  const id = uuidv7();
  if (species && !values.lureItemId) {
    const [inserted] = await db.insert(catches).values({ id, entryId: entry.id, ownerId: entry.ownerId, ...values }).returning();
    return { ...inserted!, species, lureItem: null };
  }
  await db.insert(catches).values({ id, entryId: entry.id, ownerId: entry.ownerId, ...values });
  const [row] = await catchesFrom(db).where(eq(catches.id, id));
  return withLure(row!);
}

/** An active species (as a catch shows it), or undefined. */
export async function activeSpecies(db: DbOrTx, speciesId: string): Promise<CatchWithSpecies['species'] | undefined> {
  const [row] = await db
    .select({ id: fishSpecies.id, commonName: fishSpecies.commonName, scientificName: fishSpecies.scientificName })
    .from(fishSpecies)
    .where(and(eq(fishSpecies.id, speciesId), eq(fishSpecies.isActive, true)));
  return row;
}


export async function findCatchRef(db: DbOrTx, id: string): Promise<{ id: string; ownerId: string; caughtAt: Date } | undefined> {
  const [row] = await db.select({ id: catches.id, ownerId: catches.ownerId, caughtAt: catches.caughtAt }).from(catches).where(eq(catches.id, id));
  return row;
}

/** A catch with the visibility of its entry (what the catch policy decides on). */
export interface CatchWithEntry extends CatchWithSpecies {
  /** The visibility of its entry. */
  visibility: string;
  entry: { id: string; ownerId: string; visibility: string; shareExactLocation: boolean; occurredAt: Date; stateCode: string | null };
}

export async function findCatch(db: DbOrTx, id: string): Promise<CatchWithEntry | undefined> {
  const [row] = await db
    .select({
      ...catchSelection,
      entry: {
        id: logEntries.id,
        ownerId: logEntries.ownerId,
        visibility: logEntries.visibility,
        shareExactLocation: logEntries.shareExactLocation,
        occurredAt: logEntries.occurredAt,
        stateCode: logEntries.stateCode,
      },
    })
    .from(catches)
    .innerJoin(fishSpecies, eq(fishSpecies.id, catches.speciesId))
    .innerJoin(logEntries, eq(logEntries.id, catches.entryId))
    .leftJoin(gearItems, eq(gearItems.id, catches.lureItemId))
    .leftJoin(brands, eq(brands.id, gearItems.brandId))
    .where(eq(catches.id, id));
  return row ? { ...withLure(row), visibility: row.entry.visibility, entry: row.entry } : undefined;
}

/** Locks the catch row for a change; undefined when absent. */
export async function lockCatch(tx: DbOrTx, id: string): Promise<CatchRow | undefined> {
  const [row] = await tx.select().from(catches).where(eq(catches.id, id)).for('update');
  return row;
}

export async function updateCatch(tx: DbOrTx, id: string, values: CatchValues): Promise<void> {
  await tx.update(catches).set({ ...values, updatedAt: new Date() }).where(eq(catches.id, id));
}

export async function deleteCatch(tx: DbOrTx, id: string): Promise<void> {
  await tx.delete(catches).where(eq(catches.id, id));
}

/** The ids and species of an entry's catches (which personal bests an entry change touches). */
export async function catchKeysOfEntry(db: DbOrTx, entryId: string): Promise<{ id: string; speciesId: string }[]> {
  return db.select({ id: catches.id, speciesId: catches.speciesId }).from(catches).where(eq(catches.entryId, entryId));
}
