import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { columnsOf, namedIdsStatement } from '../../core/db/prepared.js';
import type { Page } from '../../core/http/pagination.js';
import { users } from '../users/index.js';
import { mediaDeletions, photos, type PhotoKind, type PhotoRow } from './photos.tables.js';

/** Key of the per-user advisory lock that serialises a user's photo changes ("PHOT"). */
const LOCK_NAMESPACE = 0x50484f54;

/** Serialises one user's photo changes (count and quota checks) until the transaction ends. */
export async function lockOwner(tx: DbOrTx, ownerId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${sql.raw(String(LOCK_NAMESPACE))}, hashtext(${ownerId}))`);
}

export async function usage(tx: DbOrTx, ownerId: string, recordId: string): Promise<{ usedBytes: number; onRecord: number }> {
  const [row] = await tx
    .select({
      usedBytes: sql<number>`coalesce(sum(${photos.bytes}), 0)::float8`,
      onRecord: sql<number>`count(*) FILTER (WHERE ${photos.recordId} = ${recordId})::int`,
    })
    .from(photos)
    .where(eq(photos.ownerId, ownerId));
  return row!;
}

const RECORD_COLUMN: Record<PhotoKind, keyof typeof photos.$inferInsert | undefined> = {
  Catch: 'catchId',
  Entry: 'entryId',
  Post: 'postId',
  FishingReport: 'reportId',
  Spot: 'spotId',
  Avatar: undefined,
};

export type NewPhoto = Omit<typeof photos.$inferInsert, 'catchId' | 'entryId' | 'postId' | 'reportId' | 'spotId' | 'position'>;

/** Inserts the photo last in its record's order. */
export async function insertPhoto(tx: DbOrTx, values: NewPhoto & { kind: PhotoKind }): Promise<PhotoRow> {
  const column = RECORD_COLUMN[values.kind];
  const position = sql<number>`(SELECT coalesce(max(${photos.position}), 0) + 1 FROM ${photos} WHERE ${photos.recordId} = ${values.recordId})`;
  const [row] = await tx
    .insert(photos)
    .values({ ...values, ...(column ? { [column]: values.recordId } : {}), position })
    .returning();
  return row!;
}

export async function findPhoto(db: DbOrTx, id: string, options: { lock?: boolean } = {}): Promise<PhotoRow | undefined> {
  const query = db.select().from(photos).where(eq(photos.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/**
 * The photos of records (and of their children): named statements, built once per process, since
 * every record view and feed page reads them (entry by id sends the tree's beside the entry's own
 * two statements, on one connection).
 */
const photosOfRecordsStatement = namedIdsStatement<PhotoRow>(
  'photos_of_records',
  (ids) => sql`SELECT ${columnsOf(photos)} FROM ${photos} WHERE ${ids(photos.recordId)} ORDER BY ${photos.recordId}, ${photos.position}`,
);
const photosOfTreesStatement = namedIdsStatement<PhotoRow>(
  'photos_of_trees',
  (ids) => sql`SELECT ${columnsOf(photos)} FROM ${photos} WHERE ${ids(photos.recordId)} OR ${ids(photos.parentId)} ORDER BY ${photos.recordId}, ${photos.position}`,
);

/** The photos of the records, each record's in order. */
export async function photosOfRecords(db: DbOrTx, recordIds: readonly string[]): Promise<PhotoRow[]> {
  if (recordIds.length === 0) return [];
  return photosOfRecordsStatement.rows(db, { ids: [...recordIds] });
}

/** The photos of the records and of their children (photos whose parent is one of them), in order. */
export async function photosOfTrees(db: DbOrTx, recordIds: readonly string[]): Promise<PhotoRow[]> {
  if (recordIds.length === 0) return [];
  return photosOfTreesStatement.rows(db, { ids: [...recordIds] });
}

/** The owner's photos after `afterId` (by id: upload order), at most `limit`: a person's photos read a page at a time. */
export async function photosOfOwner(db: DbOrTx, ownerId: string, afterId: string | null, limit: number): Promise<PhotoRow[]> {
  return db
    .select()
    .from(photos)
    .where(afterId ? and(eq(photos.ownerId, ownerId), sql`${photos.id} > ${afterId}`) : eq(photos.ownerId, ownerId))
    .orderBy(asc(photos.id))
    .limit(limit);
}

/** Deletes the photo and closes the gap in its record's order (the trigger queues its files). */
export async function deletePhoto(tx: DbOrTx, photo: Pick<PhotoRow, 'id' | 'recordId' | 'position'>): Promise<void> {
  await tx.delete(photos).where(eq(photos.id, photo.id));
  await tx
    .update(photos)
    .set({ position: sql`${photos.position} - 1` })
    .where(and(eq(photos.recordId, photo.recordId), sql`${photos.position} > ${photo.position}`));
}

/** Moves the photo to `to` (1-based), shifting the ones between. */
export async function movePhoto(tx: DbOrTx, photo: Pick<PhotoRow, 'id' | 'recordId' | 'position'>, to: number): Promise<void> {
  const from = photo.position;
  if (to === from) return;
  const shift = to < from ? sql`${photos.position} + 1` : sql`${photos.position} - 1`;
  const between = to < from ? sql`${photos.position} >= ${to} AND ${photos.position} < ${from}` : sql`${photos.position} > ${from} AND ${photos.position} <= ${to}`;
  await tx
    .update(photos)
    .set({ position: sql`CASE WHEN ${photos.id} = ${photo.id} THEN ${to} ELSE ${shift} END`, updatedAt: sql`now()` })
    .where(and(eq(photos.recordId, photo.recordId), sql`(${photos.id} = ${photo.id} OR (${between}))`));
}

export async function setCover(tx: DbOrTx, photo: Pick<PhotoRow, 'id' | 'recordId'>): Promise<void> {
  await tx.update(photos).set({ isCover: false }).where(and(eq(photos.recordId, photo.recordId), eq(photos.isCover, true)));
  await tx.update(photos).set({ isCover: true, updatedAt: sql`now()` }).where(eq(photos.id, photo.id));
}

/** The record's photos (an avatar's replacement deletes the one before). */
export async function deleteRecordPhotos(tx: DbOrTx, recordId: string): Promise<void> {
  await tx.delete(photos).where(eq(photos.recordId, recordId));
}

/** Photos of the kinds and states, newest first, with their owner's username and their record's photo count. */
export async function reviewQueue(db: DbOrTx, filter: { states: readonly PhotoRow['status'][]; kinds: readonly PhotoKind[] }, page: Page) {
  const where = and(inArray(photos.status, [...filter.states]), inArray(photos.kind, [...filter.kinds]));
  const [items, [count]] = await Promise.all([
    db
      .select({
        id: photos.id,
        kind: photos.kind,
        recordId: photos.recordId,
        ownerId: photos.ownerId,
        ownerUsername: users.username,
        status: photos.status,
        position: photos.position,
        photoCount: sql<number>`(SELECT count(*)::int FROM ${photos} AS siblings WHERE siblings.record_id = ${photos.recordId})`,
        width: photos.width,
        height: photos.height,
        bytes: photos.bytes,
        createdAt: photos.createdAt,
        updatedAt: photos.updatedAt,
      })
      .from(photos)
      .innerJoin(users, eq(users.id, photos.ownerId))
      .where(where)
      .orderBy(desc(photos.createdAt), desc(photos.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(photos).where(where),
  ]);
  return { items, total: count!.n };
}

/** Sets a photo's moderation status; answers when. */
export async function setStatus(db: DbOrTx, photoId: string, status: PhotoRow['status']): Promise<Date> {
  const [row] = await db.update(photos).set({ status, updatedAt: sql`now()` }).where(eq(photos.id, photoId)).returning({ updatedAt: photos.updatedAt });
  return row!.updatedAt;
}

// ---- stored files waiting for deletion ----

/** Before an upload writes its files: they are swept at `dueAt` unless the photo's commit drops this row. */
export async function guardFiles(db: DbOrTx, photoId: string, dueAt: Date): Promise<void> {
  await db.insert(mediaDeletions).values({ photoId, dueAt }).onConflictDoNothing();
}

export async function dropDeletion(db: DbOrTx, photoIds: string[]): Promise<void> {
  if (photoIds.length > 0) await db.delete(mediaDeletions).where(inArray(mediaDeletions.photoId, photoIds));
}

/** Due deletions, locked for this sweep (another process's sweep skips them). */
export async function dueDeletions(tx: DbOrTx, limit: number): Promise<string[]> {
  const rows = await tx
    .select({ photoId: mediaDeletions.photoId })
    .from(mediaDeletions)
    .where(lte(mediaDeletions.dueAt, sql`now()`))
    .orderBy(asc(mediaDeletions.dueAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return rows.map((row) => row.photoId);
}
