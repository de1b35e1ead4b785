import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { shownPointInBoxSql } from '../../core/access/location.js';
import { isOwner } from '../../core/access/policy.js';
import { uuidv7 } from '../../core/db/ids.js';
import { friendsOnlyBranchParts, visibilityBranchParts, type RelationshipProvider, type VisibilityBranch } from '../../core/access/visibility.js';
import { VISIBILITIES, type FeedScope } from '../../core/access/visibility-levels.js';
import type { DbOrTx } from '../../core/db/client.js';
import { afterKeySql, feedKeySql, newestOfBranches, shapedFeedStatements, type FeedShape } from '../../core/db/keyset.js';
import { anyUuid, columnsOf, insertOf, namedIdsStatement, namedStatement, placeholder } from '../../core/db/prepared.js';
import type { ClientId } from '../../core/http/client-ids.js';
import type { Precondition } from '../../core/http/conditional.js';
import { versionMatches } from '../../core/db/versions.js';
import type { FeedPage } from '../../core/http/pagination.js';
import { brands } from '../brands/index.js';
import { personalBestLockSql } from './personal-bests.service.js';
import { gearItems } from '../gear/index.js';
import { fishSpecies } from '../species/index.js';
import { users } from '../users/index.js';
import { catches, logEntries, type CatchRow, type EntryRow } from './fishing-log.tables.js';

export type EntryValues = Omit<typeof logEntries.$inferInsert, 'id' | 'ownerId' | 'createdAt' | 'updatedAt' | 'version' | 'createDigest' | 'speciesIds'>;

export interface EntryFilters {
  mine?: boolean;
  ownerId?: string;
  speciesId?: string;
  from?: string;
  to?: string;
  visibility?: string;
  /** `friends`: only friends' entries the viewer may see (never their own: `friendsOnlyBranchParts`). */
  scope?: FeedScope;
  bbox?: { minLat: number; maxLat: number; minLng: number; maxLng: number };
}

const e = logEntries;

function filterConditions(viewerId: string, filters: EntryFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.ownerId) conditions.push(sql`${e.ownerId} = ${filters.ownerId}`);
  if (filters.visibility) conditions.push(sql`${e.visibility} = ${filters.visibility}`);
  if (filters.from) conditions.push(sql`${e.occurredAt} >= ${filters.from}`);
  if (filters.to) conditions.push(sql`${e.occurredAt} <= ${filters.to}`);
  if (filters.speciesId) {
    // The entry's species as the feed indexes carry them (species_ids, migration 0053): checked per entry read in time
    // order, from the index. Null (past 64 species): a probe of the entry's catches — a scalar subquery, not EXISTS,
    // which became a semi-join that read all of a branch's entries before the page. One CASE, as the map box.
    conditions.push(
      sql`(CASE WHEN ${e.speciesIds} IS NULL THEN (SELECT true FROM ${catches} c WHERE c.species_id = ${filters.speciesId} AND c.entry_id = ${e.id} LIMIT 1) IS NOT NULL ELSE ${e.speciesIds} @> ARRAY[${filters.speciesId}::uuid] END)`,
    );
  }
  if (filters.bbox) {
    // On the coordinates the viewer is shown (core/access/location.ts), read from the feed indexes (migration 0052).
    conditions.push(sql`${e.latitude} IS NOT NULL`);
    conditions.push(shownPointInBoxSql(viewerId, e, filters.bbox));
  }
  return conditions;
}

/** The visibility branches that can match these filters (others are left out of the UNION). */
function branches(relationships: RelationshipProvider, viewerId: string, filters: EntryFilters): VisibilityBranch[] {
  if (filters.scope === 'friends') {
    if (filters.mine || (filters.ownerId ? isOwner(viewerId, { ownerId: filters.ownerId }) : false)) return [];
    const [pub, friends, circle] = friendsOnlyBranchParts(relationships, viewerId, e.ownerId, e.visibility);
    const byVisibility: Record<string, VisibilityBranch[]> = { Public: [pub!], Friends: [friends!], Circle: [circle!], Private: [] };
    return filters.visibility ? (byVisibility[filters.visibility] ?? []) : [pub!, friends!, circle!];
  }
  const [own, pub, friends, circle] = visibilityBranchParts(relationships, viewerId, e.ownerId, e.visibility);
  if (filters.mine || (filters.ownerId ? isOwner(viewerId, { ownerId: filters.ownerId }) : false)) return [own!];
  if (filters.visibility) {
    // Only the branch of that visibility (and the viewer's own entries of it): the others match nothing.
    const matching = ({ Public: [pub!], Friends: [friends!], Circle: [circle!] } as Record<string, VisibilityBranch[]>)[filters.visibility] ?? [];
    return filters.ownerId ? matching : [own!, ...matching];
  }
  return filters.ownerId ? [pub!, friends!, circle!] : [own!, pub!, friends!, circle!];
}

/**
 * The list query: one index-served, ordered, limited SELECT per visibility branch, merged by
 * UNION ALL (each branch returns at most offset+limit ids, after the cursor key when given),
 * then the page with each row's key (for the next cursor). Branches limited to related owners
 * (Friends, Circle; every branch of the friends-only scope) read per owner (`newestOfBranch`):
 * a page per friend, however long their history, where `owner IN (…)` read every friend's
 * matching entries and sorted them. Filtered to one other owner, the owner's own index range
 * bounds what is read. The Public branch leads (`newestOfBranches`): the others read nothing older
 * than its page. `perOwner` and `led` override these (the EXPLAIN tests' "before"). Exported for them.
 */
export function visibleEntryIdsQuery(relationships: RelationshipProvider, viewerId: string, filters: EntryFilters, page: FeedPage, perOwner = !filters.ownerId, led = true): SQL {
  const after = afterKeySql(e.occurredAt, e.id, page.after);
  const source = { table: e, owner: e.ownerId, id: e.id, time: e.occurredAt, timeAs: 'occurred_at', where: [...filterConditions(viewerId, filters), ...(after ? [after] : [])] };
  // Limits as literals (validated integers): the planner costs each branch for the rows it really
  // reads, also in the generic plan of a prepared statement (a LIMIT parameter counts as 10% of the table).
  const parts = branches(relationships, viewerId, filters).map((branch) => ({ branch, source }));
  if (parts.length === 0) return sql`SELECT NULL::uuid AS id, NULL::text AS key WHERE false`;
  return sql`SELECT v.id, ${feedKeySql(sql`v.occurred_at`)} AS key FROM (${newestOfBranches(parts, page.offset + page.limit, perOwner, led)}) v ORDER BY v.occurred_at DESC, v.id DESC LIMIT ${sql.raw(String(page.limit))} OFFSET ${sql.raw(String(page.offset))}`;
}

/** The filters given a value, each a parameter of the feed's statement (and a letter of its name), in the statement's order. */
const VALUED_FILTERS = [
  { name: 'ownerId', letter: 'o' },
  { name: 'speciesId', letter: 's' },
  { name: 'from', letter: 'f' },
  { name: 'to', letter: 't' },
  { name: 'bbox', letter: 'b' },
] as const;
const BBOX = ['minLat', 'maxLat', 'minLng', 'maxLng'] as const;

/**
 * The feed's filters as a statement's shape: the friends-only scope, a visibility value and `mine`
 * choose its branches (in its name); owner, species, dates and box are its parameters. The
 * viewer's own id as the owner is `mine` (its branch is the viewer's own entries).
 */
function feedShape(viewerId: string, given: EntryFilters): { shape: FeedShape; values: Record<string, unknown> } {
  const { ownerId, ...others } = given;
  const filters: EntryFilters = ownerId && isOwner(viewerId, { ownerId }) ? { ...others, mine: true } : given;
  const named = [
    ...(filters.scope === 'friends' ? ['friends'] : []),
    ...(filters.visibility ? [`visibility_${filters.visibility.toLowerCase()}`] : []),
    ...(filters.mine ? ['mine'] : []),
  ];
  const valued = VALUED_FILTERS.filter((f) => filters[f.name] !== undefined);
  const values: Record<string, unknown> = {};
  for (const f of valued) {
    if (f.name === 'bbox') for (const k of BBOX) values[k] = filters.bbox![k];
    else values[f.name] = filters[f.name];
  }
  return { shape: { named, valued: [...valued] }, values };
}

/** The filters of a shape with its values as the statement's parameters. */
function shapeFilters(shape: FeedShape): EntryFilters {
  const has = (name: string) => shape.valued.some((v) => v.name === name);
  const visibility = VISIBILITIES.find((v) => shape.named.includes(`visibility_${v.toLowerCase()}`));
  return {
    ...(shape.named.includes('friends') ? { scope: 'friends' as const } : {}),
    ...(visibility ? { visibility } : {}),
    ...(shape.named.includes('mine') ? { mine: true } : {}),
    ...(has('ownerId') ? { ownerId: placeholder('ownerId') } : {}),
    ...(has('speciesId') ? { speciesId: placeholder('speciesId') } : {}),
    ...(has('from') ? { from: placeholder('from') } : {}),
    ...(has('to') ? { to: placeholder('to') } : {}),
    ...(has('bbox') ? { bbox: Object.fromEntries(BBOX.map((k) => [k, placeholder<number>(k)])) as EntryFilters['bbox'] } : {}),
  };
}

/**
 * Every first page of the feed and every page after a cursor, filtered or not, as a named
 * statement per filter shape (`entries_feed_20`, `entries_friends_feed_20_after`,
 * `entries_visibility_public_feed_osf_20` …): planned once per connection, not per request.
 */
const feedStatement = shapedFeedStatements<RelationshipProvider>('entries', (shape) => {
  const filters = shapeFilters(shape);
  return (relationships, viewerId, page) => visibleEntryIdsQuery(relationships, viewerId, filters, page);
});

/** The query of the feed's named statement for these filters (viewer, cursor and filter values as parameters), and those values: for the EXPLAIN test. */
export function preparedFeedQuery(relationships: RelationshipProvider, viewerId: string, filters: EntryFilters, page: FeedPage, led = true): { query: SQL; values: Record<string, unknown> } {
  const { shape, values } = feedShape(viewerId, filters);
  const shaped = shapeFilters(shape);
  return { query: visibleEntryIdsQuery(relationships, placeholder('viewer'), shaped, page, !shaped.ownerId, led), values };
}

async function feedIds(db: DbOrTx, relationships: RelationshipProvider, viewerId: string, filters: EntryFilters, page: FeedPage): Promise<{ id: string; key: string }[]> {
  if (page.offset === 0) {
    const { shape, values } = feedShape(viewerId, filters);
    return feedStatement(shape)(db, relationships, viewerId, page, values);
  }
  // A numbered page (`page=N`): its offset is part of the text, planned per request.
  return (await db.execute<{ id: string; key: string }>(visibleEntryIdsQuery(relationships, viewerId, filters, page))).rows;
}

export interface EntryWithOwner extends EntryRow {
  ownerUsername: string;
  catchCount: number;
}

/** Rows as pg returns them (no Drizzle mapping per cell: the feed's rows are the hot path). */
const entriesByIdsStatement = namedIdsStatement<EntryWithOwner>(
  'entries_by_ids',
  (ids) => sql`SELECT ${columnsOf(logEntries)}, ${users.username} AS "ownerUsername",
      (SELECT count(*)::int FROM ${catches} c WHERE c.entry_id = ${logEntries.id}) AS "catchCount"
    FROM ${logEntries} INNER JOIN ${users} ON ${users.id} = ${logEntries.ownerId}
    WHERE ${ids(logEntries.id)}`,
);

/** Full rows for ids, with owner name and catch count, in one (named) statement, in the order of `ids`. */
export async function entriesByIds(db: DbOrTx, ids: string[]): Promise<EntryWithOwner[]> {
  if (ids.length === 0) return [];
  const rows = await entriesByIdsStatement.rows(db, { ids });
  if (ids.length === 1) return rows;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is EntryWithOwner => r !== undefined);
}

/** A page of the feed and the key of its last row (no count: see core/http/pagination.ts). */
export async function listVisible(db: DbOrTx, relationships: RelationshipProvider, viewerId: string, filters: EntryFilters, page: FeedPage) {
  const rows = await feedIds(db, relationships, viewerId, filters, page);
  const lastRow = rows.at(-1);
  return { items: await entriesByIds(db, rows.map((r) => r.id)), last: lastRow ? { micros: lastRow.key, id: lastRow.id } : undefined };
}

export async function findEntry(db: DbOrTx, id: string): Promise<EntryWithOwner | undefined> {
  return (await entriesByIds(db, [id]))[0];
}

const entryForUpdateStatement = namedStatement<EntryRow, { id: string; ownerId: string }>(
  'entries_for_update',
  // The uncorrelated condition is a one-time filter: evaluated before the scan, so before the row lock.
  () => sql`SELECT ${columnsOf(logEntries)} FROM ${logEntries}
    WHERE ${logEntries.id} = ${sql.placeholder('id')} AND (SELECT ${personalBestLockSql(sql.placeholder('ownerId'))}) IS NOT NULL
    FOR UPDATE`,
);

/**
 * The entry locked for a change (FOR UPDATE), after the personal-best lock of `ownerId`, taken
 * first in the same statement (even when the entry is absent): the order of every transaction
 * that changes catches, so it cannot deadlock with a re-evaluation.
 */
export async function findEntryForUpdate(tx: DbOrTx, id: string, ownerId: string): Promise<EntryRow | undefined> {
  return entryForUpdateStatement.first(tx, { id, ownerId });
}

const entriesForUpdateStatement = namedStatement<EntryRow, { ids: string[]; ownerId: string }>(
  'entries_for_update_many',
  () => sql`SELECT ${columnsOf(logEntries)} FROM ${logEntries}
    WHERE ${anyUuid(logEntries.id, 'ids')} AND (SELECT ${personalBestLockSql(sql.placeholder('ownerId'))}) IS NOT NULL
    ORDER BY ${logEntries.id}
    FOR UPDATE`,
);

/** Several entries locked for a change, in id order, after the personal-best lock of `ownerId` (as `findEntryForUpdate`), by id. */
export async function findEntriesForUpdate(tx: DbOrTx, ids: readonly string[], ownerId: string): Promise<Map<string, EntryRow>> {
  const rows = await entriesForUpdateStatement.rows(tx, { ids: [...new Set(ids)], ownerId });
  return new Map(rows.map((row) => [row.id, row]));
}

/** Every column of a new entry but its timestamps (set by the database). */
const NEW_ENTRY = insertOf(logEntries, {
  id: true, ownerId: true, sessionId: true, title: true, occurredAt: true, timeZone: true, latitude: true,
  longitude: true, waterBody: true, stateCode: true, airTemperatureC: true, sky: true, windSpeedKmh: true,
  windDirection: true, pressureHpa: true, moonPhase: true, waterTemperatureC: true, waterClarity: true,
  waterDepthM: true, method: true, notes: true, visibility: true, shareExactLocation: true, createDigest: true
} satisfies Record<keyof EntryValues | 'id' | 'ownerId' | 'createDigest', true>);

const insertEntryStatement = namedStatement<EntryRow & { ownerUsername: string }, EntryValues & { id: string; ownerId: string; createDigest: string | null }>(
  'entries_insert',
  () => sql`INSERT INTO ${logEntries} ${NEW_ENTRY.columns} VALUES (${NEW_ENTRY.values}) ON CONFLICT (id) DO NOTHING
    RETURNING ${columnsOf(logEntries)}, (SELECT ${users.username} FROM ${users} WHERE ${users.id} = ${logEntries.ownerId}) AS "ownerUsername"`,
);

/**
 * A new entry as `entriesByIds` shows it (owner name, no catches yet), in one statement; `id` when
 * the client chose it (with the digest of its request): undefined when that id exists already.
 */
export async function insertEntryWithOwner(db: DbOrTx, ownerId: string, values: EntryValues, client?: ClientId): Promise<EntryWithOwner | undefined> {
  const row = await insertEntryStatement.first(db, { ...values, id: client?.id ?? uuidv7(), ownerId, createDigest: client?.digest ?? null });
  return row && Object.assign(row, { catchCount: 0 });
}

/** Updates the entry when it is of a version `precondition` allows (undefined when not). */
export async function updateEntry(db: DbOrTx, id: string, values: EntryValues, precondition?: Precondition): Promise<EntryRow | undefined> {
  const [row] = await db.update(logEntries).set({ ...values, updatedAt: new Date() }).where(and(eq(logEntries.id, id), versionMatches(logEntries.version, precondition))).returning();
  return row;
}

/** Deletes the entry (its catches cascade) when it is of a version `precondition` allows; false when nothing was deleted. */
export async function deleteEntry(db: DbOrTx, id: string, precondition?: Precondition): Promise<boolean> {
  const deleted = await db.delete(logEntries).where(and(eq(logEntries.id, id), versionMatches(logEntries.version, precondition))).returning({ id: logEntries.id });
  return deleted.length > 0;
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

/** The catalog lure of a catch, when it has one (and it still has its name and brand). */
function lureOf(lureItemId: string | null, name: string | null, brand: string | null): CatchWithSpecies['lureItem'] {
  return lureItemId && name && brand ? { id: lureItemId, name, brand } : null;
}

function withLure(row: CatchSelectionRow): CatchWithSpecies {
  return { ...row.c, species: row.species, lureItem: lureOf(row.c.lureItemId, row.lureName, row.lureBrand) };
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

/** A catch row with its species' names and its catalog lure's name and brand, as the named statements return it. */
type FlatCatchRow = CatchRow & { commonName: string; scientificName: string; lureName: string | null; lureBrand: string | null };

/**
 * Field by field, not by rest and spread: V8 copies those property by property in its runtime (a
 * profile of entry by id under load put 1.8% of the service's busy samples on one catch's copy).
 * The object literal must name every column (a new one is a type error here).
 */
function fromFlatRow(row: FlatCatchRow): CatchWithSpecies {
  return {
    id: row.id,
    entryId: row.entryId,
    ownerId: row.ownerId,
    speciesId: row.speciesId,
    lengthCm: row.lengthCm,
    weightKg: row.weightKg,
    count: row.count,
    released: row.released,
    caughtAt: row.caughtAt,
    bait: row.bait,
    lure: row.lure,
    gearSetupId: row.gearSetupId,
    lureItemId: row.lureItemId,
    photoUrls: row.photoUrls,
    notes: row.notes,
    latitude: row.latitude,
    longitude: row.longitude,
    version: row.version,
    createDigest: row.createDigest,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    species: { id: row.speciesId, commonName: row.commonName, scientificName: row.scientificName },
    lureItem: lureOf(row.lureItemId, row.lureName, row.lureBrand),
  };
}

/** The same join as `catchesFrom`, as a named statement whose rows come from pg as they are (the entry-by-id hot path). */
const catchesOfEntriesStatement = namedIdsStatement<FlatCatchRow>(
  'entries_catches_of',
  (ids) => sql`SELECT ${columnsOf(catches)}, ${fishSpecies.commonName} AS "commonName", ${fishSpecies.scientificName} AS "scientificName",
      ${gearItems.name} AS "lureName", ${brands.name} AS "lureBrand"
    FROM ${catches} INNER JOIN ${fishSpecies} ON ${fishSpecies.id} = ${catches.speciesId}
      LEFT JOIN ${gearItems} ON ${gearItems.id} = ${catches.lureItemId} LEFT JOIN ${brands} ON ${brands.id} = ${gearItems.brandId}
    WHERE ${ids(catches.entryId)}
    ORDER BY ${catches.entryId}, ${catches.caughtAt}, ${catches.id}`,
);

export async function catchesOfEntries(db: DbOrTx, entryIds: string[]): Promise<CatchWithSpecies[]> {
  if (entryIds.length === 0) return [];
  const rows = await catchesOfEntriesStatement.rows(db, { ids: entryIds });
  return rows.map(fromFlatRow);
}

export async function catchesPage(db: DbOrTx, entryId: string, page: { limit: number; offset: number }) {
  const [rows, [count]] = await Promise.all([
    catchesFrom(db).where(eq(catches.entryId, entryId)).orderBy(asc(catches.caughtAt), asc(catches.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(catches).where(eq(catches.entryId, entryId)),
  ]);
  return { items: rows.map(withLure), total: count?.n ?? 0 };
}

export type CatchValues = Omit<typeof catches.$inferInsert, 'id' | 'entryId' | 'ownerId' | 'createdAt' | 'updatedAt' | 'version' | 'createDigest'>;

/** The columns of a new catch (without a time of its own, a catch was caught at its entry's time). */
const NEW_CATCH_COLUMNS = {
  id: true, entryId: true, ownerId: true, speciesId: true, lengthCm: true, weightKg: true, count: true, released: true,
  caughtAt: true, bait: true, lure: true, gearSetupId: true, lureItemId: true, photoUrls: true, notes: true, latitude: true,
  longitude: true, createDigest: true
} as const satisfies Record<keyof CatchValues | 'id' | 'entryId' | 'ownerId' | 'createDigest', true>;

/** A new catch's values; `caughtAt` null: its entry's time. */
export type NewCatchValues = Omit<CatchValues, 'caughtAt'> & { caughtAt: Date | null };

/** A new catch of a batch: its values, its id, its entry and the digest of its client's request. */
export type NewCatchRow = NewCatchValues & { id: string; entryId: string; createDigest: string | null };

const NEW_CATCH_KEYS = Object.keys(NEW_CATCH_COLUMNS) as (keyof NewCatchRow | 'ownerId')[];

/** The batch insert's rows, read from one JSON parameter (its keys are NewCatchRow's). */
const NEW_CATCH_RECORDS = sql`jsonb_to_recordset(${sql.placeholder('rows')}::jsonb) AS r("id" uuid, "entryId" uuid, "speciesId" uuid, "lengthCm" numeric,
  "weightKg" numeric, "count" int, "released" boolean, "caughtAt" timestamptz, "bait" text, "lure" text, "gearSetupId" uuid, "lureItemId" uuid,
  "photoUrls" text[], "notes" text, "latitude" float8, "longitude" float8, "createDigest" text)`;

const NEW_CATCHES = insertOf(
  catches,
  NEW_CATCH_COLUMNS,
  Object.fromEntries(
    NEW_CATCH_KEYS.map((key) => [
      key,
      key === 'ownerId' ? sql`${sql.placeholder('ownerId')}::uuid` : key === 'caughtAt' ? sql`COALESCE(r."caughtAt", ${logEntries.occurredAt})` : sql.raw(`r."${key}"`),
    ]),
  ),
);

const insertCatchesStatement = namedStatement<FlatCatchRow, { rows: string; ownerId: string }>(
  'catches_insert_many',
  () => sql`WITH inserted AS (INSERT INTO ${catches} ${NEW_CATCHES.columns} SELECT ${NEW_CATCHES.values} FROM ${NEW_CATCH_RECORDS}
      JOIN ${logEntries} ON ${logEntries.id} = r."entryId" AND ${logEntries.ownerId} = ${sql.placeholder('ownerId')}::uuid
      WHERE EXISTS (SELECT 1 FROM ${fishSpecies} WHERE ${fishSpecies.id} = r."speciesId")
      ON CONFLICT (id) DO NOTHING
      RETURNING ${columnsOf(catches)})
    SELECT inserted.*, ${fishSpecies.commonName} AS "commonName", ${fishSpecies.scientificName} AS "scientificName", ${gearItems.name} AS "lureName", ${brands.name} AS "lureBrand"
    FROM inserted JOIN ${fishSpecies} ON ${fishSpecies.id} = inserted."speciesId"
    LEFT JOIN ${gearItems} ON ${gearItems.id} = inserted."lureItemId"
    LEFT JOIN ${brands} ON ${brands.id} = ${gearItems.brandId}`,
);

/**
 * Inserts catches of `ownerId` in one statement, as `catchesOfEntries` shows them, by id. The caller
 * checks them (before, or after in the same transaction, rolling it back when one is refused); what
 * would fail a foreign key is left out so that nothing fails here: a catch whose entry is not the
 * owner's or whose species does not exist, and one whose id exists already (a client-chosen id).
 */
export async function insertCatches(tx: DbOrTx, ownerId: string, rows: readonly NewCatchRow[]): Promise<Map<string, CatchWithSpecies>> {
  if (rows.length === 0) return new Map();
  const inserted = await insertCatchesStatement.rows(tx, { rows: JSON.stringify(rows), ownerId });
  return new Map(inserted.map((row) => [row.id, fromFlatRow(row)]));
}

/** What a create with a client-chosen id needs of the catch that has the id already. */
export interface TakenCatch {
  id: string;
  ownerId: string;
  createDigest: string | null;
}

const catchesAmongStatement = namedIdsStatement<TakenCatch>(
  'catches_taken',
  (ids) => sql`SELECT ${catches.id} AS id, ${catches.ownerId} AS "ownerId", ${catches.createDigest} AS "createDigest" FROM ${catches} WHERE ${ids(catches.id)}`,
);

/** The catches among `ids` that exist, by id. */
export async function catchesAmong(db: DbOrTx, ids: readonly string[]): Promise<Map<string, TakenCatch>> {
  if (ids.length === 0) return new Map();
  return new Map((await catchesAmongStatement.rows(db, { ids: [...new Set(ids)] })).map((row) => [row.id, row]));
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

/** Updates the catch when it is of a version `precondition` allows; false when not. */
export async function updateCatch(tx: DbOrTx, id: string, values: CatchValues, precondition?: Precondition): Promise<boolean> {
  const updated = await tx.update(catches).set({ ...values, updatedAt: new Date() }).where(and(eq(catches.id, id), versionMatches(catches.version, precondition))).returning({ id: catches.id });
  return updated.length > 0;
}

/** Deletes the catch when it is of a version `precondition` allows; false when nothing was deleted. */
export async function deleteCatch(tx: DbOrTx, id: string, precondition?: Precondition): Promise<boolean> {
  const deleted = await tx.delete(catches).where(and(eq(catches.id, id), versionMatches(catches.version, precondition))).returning({ id: catches.id });
  return deleted.length > 0;
}

/** The ids and species of an entry's catches (which personal bests an entry change touches). */
export async function catchKeysOfEntry(db: DbOrTx, entryId: string): Promise<{ id: string; speciesId: string }[]> {
  return db.select({ id: catches.id, speciesId: catches.speciesId }).from(catches).where(eq(catches.entryId, entryId));
}
