import { type ServiceDeps, inTx } from '../../core/service-deps.js';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import { authorize, isOwner, type Viewer } from '../../core/access/policy.js';
import { photoPolicy } from '../../core/access/policies/photos.js';
import type { SettingsReader } from '../../core/app-deps.js';
import type { DbOrTx } from '../../core/db/client.js';
import { uuidv7 } from '../../core/db/ids.js';
import { transaction } from '../../core/db/pipeline.js';
import { AppError } from '../../core/http/problem.js';
import { moderateContent, recordVerdictRules } from '../moderation/moderation.service.js';
import { PhotoErrors } from './photos.errors.js';
import { checkDimensions, detectType, gpsPosition, OUTPUT_TYPE, renditions, type Position } from './photos.images.js';
import * as repo from './photos.repository.js';
import type { MediaStorage } from './photos.storage.js';
import type { PhotoKind, PhotoRow } from './photos.tables.js';
import { registryKey, type Registries } from '../../core/registries.js';

/**
 * Photos of the records that have them (catches, entries, posts, fishing reports, spots,
 * avatars). The module owning a record registers how to read it (`registerPhotoRecord`, from
 * the registering module's <module>.module.ts): who may see a photo is exactly who may see its record, through the record's
 * own policy; only the record's owner adds, orders and removes its photos (`photoPolicy`).
 * Record views list their photos with `photoViews`.
 */

export type { PhotoKind, PhotoRow } from './photos.tables.js';

/** At most this many photos per record (an avatar: one, replaced by the next upload). */
export const MAX_PHOTOS_PER_RECORD = 10;
/** Built-in defaults of the settings, when unset. */
const DEFAULT_MAX_FILE_BYTES = 10_485_760;
const DEFAULT_QUOTA_BYTES = 262_144_000;
/** How long an upload's files may stay without their photo before the sweep removes them. */
const UPLOAD_GRACE_MS = 10 * 60_000;

export interface PhotoRecordAccess {
  /**
   * The record when `viewer` may see it, by its own policy (throwing its 404 or 403 otherwise):
   * its owner and whether everyone may see it (then its photos may be cached publicly).
   * `parentId`: the record's parent named in the path (a catch's entry), when there is one.
   */
  read(deps: ServiceDeps, viewer: Viewer, recordId: string, parentId?: string): Promise<{ ownerId: string | null; isPublic: boolean }>;
  /** Photos go through moderation before anyone but their owner sees them. */
  moderated?: boolean;
  /** The upload answer offers the image's GPS position as the record's location. */
  offersLocation?: boolean;
}

/** The app's photo records by kind (`deps.registries`). */
export const photoRecords = registryKey('photos.records', () => new Map<PhotoKind, PhotoRecordAccess>());

export function registerPhotoRecord(deps: { registries: Registries }, kind: PhotoKind, access: PhotoRecordAccess): void {
  deps.registries.of(photoRecords).set(kind, access);
}

function recordAccess(deps: Pick<PhotoDeps, 'records'>, kind: PhotoKind): PhotoRecordAccess {
  const access = deps.records.get(kind);
  if (!access) throw new Error(`no photo record of kind ${kind} is registered (the registering module's <module>.module.ts)`);
  return access;
}

export const PHOTO_SIZES = ['display', 'thumbnail'] as const;
export type PhotoSize = (typeof PHOTO_SIZES)[number];

export function storageKey(photoId: string, size: PhotoSize): string {
  return `photos/${photoId}/${size}.jpg`;
}

export interface PhotoView {
  id: string;
  width: number;
  height: number;
  thumbnailWidth: number;
  thumbnailHeight: number;
  cover: boolean;
  moderationStatus: string;
  displayUrl: string;
  thumbnailUrl: string;
}

function photoView(row: PhotoRow, cover: boolean): PhotoView {
  return {
    id: row.id,
    width: row.width,
    height: row.height,
    thumbnailWidth: row.thumbnailWidth,
    thumbnailHeight: row.thumbnailHeight,
    cover,
    moderationStatus: row.status,
    displayUrl: `/api/photos/${row.id}/display`,
    thumbnailUrl: `/api/photos/${row.id}/thumbnail`,
  };
}

/** Where moderators read a photo whatever its status (GET /api/admin/photos/{id}/{size}, src/modules/photos/photos.admin.routes.ts). */
export const reviewUrl = (photoId: string, size: PhotoSize) => `/api/admin/photos/${photoId}/${size}`;

/**
 * Every photo of the records, whatever its status, in order, linked to the review endpoints: what a
 * moderator looks at beside a held post (the moderation queue). By record id, an empty list for a
 * record without photos; one query for all the records.
 */
export async function photosForReview(deps: ServiceDeps<DbOrTx>, recordIds: readonly string[]): Promise<Map<string, PhotoView[]>> {
  const { db } = deps;
  return new Map(
    [...byRecord(await repo.photosOfRecords(db, recordIds), recordIds)].map(([id, rows]) => {
      const cover = rows.find((row) => row.isCover) ?? rows[0];
      return [id, rows.map((row) => ({ ...photoView(row, row === cover), displayUrl: reviewUrl(row.id, 'display'), thumbnailUrl: reviewUrl(row.id, 'thumbnail') }))];
    }),
  );
}

/** Views of one record's photos (in order) as `viewerId` may see them: the owner all, others the published ones. */
function viewsOf(viewerId: string, rows: PhotoRow[]): PhotoView[] {
  const shown = rows.filter((row) => row.status === 'Published' || isOwner(viewerId, row));
  const cover = shown.find((row) => row.isCover) ?? shown[0];
  return shown.map((row) => photoView(row, row === cover));
}

/**
 * The photos of records the viewer was allowed to see, by record id (an empty list for a record
 * without photos). Callers check the records' access first; this only hides unpublished photos.
 */
export async function photoViews(deps: ServiceDeps<DbOrTx>, viewerId: string, recordIds: readonly string[]): Promise<Map<string, PhotoView[]>> {
  const { db } = deps;
  return photoViewsOf(viewerId, await repo.photosOfRecords(db, recordIds), recordIds);
}

/** The photos of records and of their children (a catch's, with its entry): for reading with the record in one round trip. */
export const photosOfTrees: (db: DbOrTx, recordIds: readonly string[]) => Promise<PhotoRow[]> = repo.photosOfTrees;

/** `photoViews` of photo rows read already (`photosOfTrees`). */
export function photoViewsOf(viewerId: string, rows: readonly PhotoRow[], recordIds: readonly string[]): Map<string, PhotoView[]> {
  return new Map([...byRecord(rows, recordIds)].map(([id, list]) => [id, viewsOf(viewerId, list)]));
}

/** Photo rows by record id, in their order (an empty list for a record without photos). */
function byRecord(rows: readonly PhotoRow[], recordIds: readonly string[]): Map<string, PhotoRow[]> {
  const grouped = new Map<string, PhotoRow[]>(recordIds.map((id) => [id, []]));
  for (const row of rows) grouped.get(row.recordId)?.push(row);
  return grouped;
}

export interface PhotoDeps extends ServiceDeps {
  storage: MediaStorage;
  settings: SettingsReader;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** How to read each kind of record that has photos (what the owning modules registered: `photoRecords`). */
  records: ReadonlyMap<PhotoKind, PhotoRecordAccess>;
  /** Where an upload is streamed before it is decoded (`uploadDirOf`): the data folder's, not the system's temp folder. */
  uploadDir: string;
}

/** The folder of uploads being received, in the data folder (`FISHLOG_DATA_DIR/uploads`). */
export function uploadDirOf(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/** The uploaded file as the route hands it over (a stream of @fastify/multipart). */
export interface IncomingFile {
  file: Readable & { truncated?: boolean };
}

export interface UploadTarget {
  kind: PhotoKind;
  recordId: string;
  parentId?: string;
}

export interface UploadResult extends PhotoView {
  /** The image's GPS position, offered once as the record's location; never stored. */
  suggestedLocation: Position | null;
}

function limits(settings: SettingsReader) {
  return {
    maxFileBytes: settings.get<number>('MaxFileUploadSize') ?? DEFAULT_MAX_FILE_BYTES,
    quotaBytes: settings.get<number>('PhotoStorageQuota') ?? DEFAULT_QUOTA_BYTES,
  };
}

/** The checks that need no file: the record exists, the viewer owns it, the record and the quota have room. */
async function checkRoom(deps: ServiceDeps<DbOrTx>, ownerId: string, target: UploadTarget, quotaBytes: number, adding: number): Promise<void> {
  const { db } = deps;
  const { usedBytes, onRecord } = await repo.usage(db, ownerId, target.recordId);
  if (target.kind !== 'Avatar' && onRecord >= MAX_PHOTOS_PER_RECORD) throw PhotoErrors.tooMany(MAX_PHOTOS_PER_RECORD);
  if (usedBytes + adding > quotaBytes || (adding === 0 && usedBytes >= quotaBytes)) throw PhotoErrors.quotaExceeded(usedBytes, adding, quotaBytes);
}

/** Streams the file to a temporary file of its own, at most `maxBytes` (413 beyond). */
async function receive(incoming: IncomingFile, maxBytes: number, folder: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, `fishlog-upload-${randomUUID()}`);
  try {
    await pipeline(incoming.file, createWriteStream(file, { flags: 'wx' }));
    if (incoming.file.truncated) throw PhotoErrors.fileTooLarge(maxBytes);
    return file;
  } catch (error) {
    await rm(file, { force: true });
    if (error instanceof AppError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw PhotoErrors.fileTooLarge(maxBytes);
    throw PhotoErrors.incomplete();
  }
}

/**
 * Adds a photo to a record: access first, then the file (streamed to a temporary file, never held
 * in memory), its type, its pixel count, the re-encoded sizes; then moderation where the record
 * asks for it, the files written (guarded by a due deletion, so an upload that never commits
 * leaves nothing behind), and the row with the count and quota checked again under the owner's
 * lock. `nextFile` is called only once the caller may upload.
 */
export async function uploadPhoto(deps: PhotoDeps, viewer: Viewer, target: UploadTarget, nextFile: (maxBytes: number) => Promise<IncomingFile | undefined>): Promise<UploadResult> {
  const { db, storage } = deps;
  const access = recordAccess(deps, target.kind);
  const found = await access.read(deps, viewer, target.recordId, target.parentId);
  await authorize(photoPolicy, viewer, 'manage', found, deps, () => PhotoErrors.notFound(target.recordId));
  const record = { ...found, ownerId: viewer.userId }; // the manage rule admits the record's owner only
  const { maxFileBytes, quotaBytes } = limits(deps.settings);
  await checkRoom(deps, record.ownerId, target, quotaBytes, 0);

  const incoming = await nextFile(maxFileBytes).catch((error: unknown) => {
    throw error instanceof AppError ? error : PhotoErrors.incomplete();
  });
  if (!incoming) throw PhotoErrors.noFile();
  const file = await receive(incoming, maxFileBytes, deps.uploadDir);
  try {
    await detectType(file);
    await checkDimensions(file);
    const suggestedLocation = access.offersLocation ? ((await gpsPosition(file)) ?? null) : null;
    const { display, thumbnail } = await renditions(file);
    const bytes = display.data.length + thumbnail.data.length;
    await checkRoom(deps, record.ownerId, target, quotaBytes, bytes);

    const id = uuidv7();
    const verdict = access.moderated
      ? await moderateContent(deps, { contentType: 'photo', contentId: id, text: '', imageUrls: [`data:${OUTPUT_TYPE};base64,${thumbnail.data.toString('base64')}`] }, deps.log)
      : undefined;

    await repo.guardFiles(db, id, new Date(Date.now() + UPLOAD_GRACE_MS));
    try {
      await storage.put(storageKey(id, 'display'), display.data, OUTPUT_TYPE);
      await storage.put(storageKey(id, 'thumbnail'), thumbnail.data, OUTPUT_TYPE);
      const row = await transaction(db, async (tx) => {
        await repo.lockOwner(tx, record.ownerId);
        await checkRoom(inTx(deps, tx), record.ownerId, target, quotaBytes, bytes);
        if (target.kind === 'Avatar') await repo.deleteRecordPhotos(tx, target.recordId);
        const inserted = await repo.insertPhoto(tx, {
          id,
          ownerId: record.ownerId,
          kind: target.kind,
          recordId: target.recordId,
          parentId: target.parentId ?? null,
          width: display.width,
          height: display.height,
          thumbnailWidth: thumbnail.width,
          thumbnailHeight: thumbnail.height,
          bytes,
          status: verdict?.status ?? 'Published',
        });
        if (verdict) await recordVerdictRules(inTx(deps, tx), verdict);
        await repo.dropDeletion(tx, [id]);
        return inserted;
      }).catch((error: unknown) => {
        // 23503: the record (a foreign key) was deleted while the file was processed.
        throw (error as { cause?: { code?: string } }).cause?.code === '23503' || (error as { code?: string }).code === '23503' ? PhotoErrors.recordDeleted(target.recordId) : error;
      });
      if (target.kind === 'Avatar') void sweepMedia(deps).catch((error: unknown) => deps.log.warn({ err: error }, 'media sweep failed'));
      const view = (await recordPhotos(deps, viewer, row.recordId)).find((photo) => photo.id === row.id)!;
      return { ...view, suggestedLocation };
    } catch (error) {
      // Not committed: the files go now (the guard row stays for the sweep if this fails too).
      await storage
        .delete([storageKey(id, 'display'), storageKey(id, 'thumbnail')])
        .then(() => repo.dropDeletion(db, [id]))
        .catch((cleanup: unknown) => deps.log.warn({ err: cleanup, photoId: id }, 'files of an upload not committed are left for the media sweep'));
      throw error;
    }
  } finally {
    await rm(file, { force: true });
  }
}

/** The photo and its record's access: 404 unknown photo; the record's own 404/403; 404 when not published for a non-owner. */
async function visiblePhoto(deps: PhotoDeps, viewer: Viewer, photoId: string): Promise<{ photo: PhotoRow; isPublic: boolean }> {
  const photo = await repo.findPhoto(deps.db, photoId);
  if (!photo) throw PhotoErrors.notFound(photoId);
  const record = await recordAccess(deps, photo.kind).read(deps, viewer, photo.recordId);
  if (photo.status !== 'Published' && !isOwner(viewer, photo)) throw PhotoErrors.notFound(photoId);
  return { photo, isPublic: record.isPublic && photo.status === 'Published' };
}

export interface PhotoFile {
  /** The file's bytes, or a presigned URL to redirect to (S3 with redirects configured). */
  body: Readable | undefined;
  redirect: string | undefined;
  etag: string;
  isPublic: boolean;
}

/** A size of a photo for `viewer`, after the record's access check. `etag`: the stored file never changes. */
export async function readPhoto(deps: PhotoDeps, viewer: Viewer, photoId: string, size: PhotoSize, ifNoneMatch?: string): Promise<PhotoFile | { notModified: true; etag: string; isPublic: boolean }> {
  const { photo, isPublic } = await visiblePhoto(deps, viewer, photoId);
  return photoFile(deps, photo, size, ifNoneMatch, isPublic);
}

/** A size of a photo whose access was checked: its stored file, a presigned URL, or 304 by the ETag. */
export async function photoFile(deps: Pick<PhotoDeps, 'storage'>, photo: PhotoRow, size: PhotoSize, ifNoneMatch: string | undefined, isPublic: boolean): Promise<PhotoFile | { notModified: true; etag: string; isPublic: boolean }> {
  const etag = `"${photo.id}-${size}"`;
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}`)) return { notModified: true, etag, isPublic };
  const key = storageKey(photo.id, size);
  if (deps.storage.presignedUrl) return { body: undefined, redirect: await deps.storage.presignedUrl(key), etag, isPublic };
  const body = await deps.storage.get(key);
  if (!body) throw PhotoErrors.notFound(photo.id);
  return { body, redirect: undefined, etag, isPublic };
}

/** The photo, locked, when `viewer` owns its record (404 unknown, 403 not the owner). */
async function ownedPhoto(deps: ServiceDeps<DbOrTx>, viewer: Viewer, photoId: string): Promise<PhotoRow> {
  const { db: tx } = deps;
  return authorize(photoPolicy, viewer, 'manage', await repo.findPhoto(tx, photoId, { lock: true }), deps, () => PhotoErrors.notFound(photoId));
}

/** Deletes a photo (its record's owner only); its files go right after the commit. */
export async function deletePhoto(deps: PhotoDeps, viewer: Viewer, photoId: string): Promise<void> {
  await transaction(deps.db, async (tx) => {
    const photo = await ownedPhoto(inTx(deps, tx), viewer, photoId);
    await repo.lockOwner(tx, photo.ownerId);
    await repo.deletePhoto(tx, photo);
  });
  await sweepMedia(deps).catch((error: unknown) => deps.log.warn({ err: error }, 'media sweep failed; the next one retries'));
}

async function recordPhotos(deps: ServiceDeps<DbOrTx>, viewer: Viewer, recordId: string): Promise<PhotoView[]> {
  return (await photoViews(deps, viewer.userId, [recordId])).get(recordId)!;
}

/** Moves a photo to `position` (1-based) among its record's; answers the record's photos. */
export async function movePhoto(deps: PhotoDeps, viewer: Viewer, photoId: string, position: number): Promise<PhotoView[]> {
  return transaction(deps.db, async (tx) => {
    const photo = await ownedPhoto(inTx(deps, tx), viewer, photoId);
    await repo.lockOwner(tx, photo.ownerId);
    const { onRecord } = await repo.usage(tx, photo.ownerId, photo.recordId);
    if (position < 1 || position > onRecord) throw PhotoErrors.badPosition(position, onRecord);
    await repo.movePhoto(tx, photo, position);
    return recordPhotos(inTx(deps, tx), viewer, photo.recordId);
  });
}

/** Makes a photo its record's cover; answers the record's photos. */
export async function makeCover(deps: PhotoDeps, viewer: Viewer, photoId: string): Promise<PhotoView[]> {
  return transaction(deps.db, async (tx) => {
    const photo = await ownedPhoto(inTx(deps, tx), viewer, photoId);
    await repo.lockOwner(tx, photo.ownerId);
    await repo.setCover(tx, photo);
    return recordPhotos(inTx(deps, tx), viewer, photo.recordId);
  });
}

/** The avatar's record id is its user: deleting it is deleting the one photo there is. */
export async function deleteRecordPhotos(deps: PhotoDeps, viewer: Viewer, kind: PhotoKind, recordId: string): Promise<void> {
  await recordAccess(deps, kind).read(deps, viewer, recordId);
  await transaction(deps.db, async (tx) => {
    await authorize(photoPolicy, viewer, 'manage', { ownerId: recordId }, inTx(deps, tx), () => PhotoErrors.notFound(recordId));
    await repo.lockOwner(tx, recordId);
    await repo.deleteRecordPhotos(tx, recordId);
  });
  await sweepMedia(deps).catch((error: unknown) => deps.log.warn({ err: error }, 'media sweep failed; the next one retries'));
}

/** A person's photo file, for their copy of their data (the accounts module's export, through core/personal-data.ts). */
export interface OwnPhotoFile {
  photo: PhotoRow;
  /** Its name in an archive: `photos/<photo id>.jpg`. */
  name: string;
  /** The display size's bytes and their count; undefined when the file is gone (the photo deleted since it was listed). */
  open(): Promise<{ body: Readable; size: number } | undefined>;
}

const OWN_PHOTOS_PAGE = 500;

/**
 * Every photo the person uploaded (avatar included, whatever its moderation status: they are its
 * owner), oldest first, with a way to read its display size from the storage (disk or S3) as a
 * stream: what the person gets at GET /api/photos/{id}/display. Read 500 rows at a time; no file
 * is opened until asked.
 */
export async function* ownPhotoFiles(deps: Pick<PhotoDeps, 'db' | 'storage'>, ownerId: string): AsyncGenerator<OwnPhotoFile> {
  let after: string | null = null;
  for (;;) {
    const rows = await repo.photosOfOwner(deps.db, ownerId, after, OWN_PHOTOS_PAGE);
    for (const photo of rows) yield { photo, name: `photos/${photo.id}.jpg`, open: () => deps.storage.open(storageKey(photo.id, 'display')) };
    if (rows.length < OWN_PHOTOS_PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

const SWEEP_BATCH = 100;

/**
 * Deletes the stored files whose deletion is due: photos deleted (by their owner or with their
 * record) and uploads that never committed. Each batch is locked while its files are deleted, so
 * processes sweeping at once share the work; a failed file deletion keeps its row for the next
 * sweep. Answers how many photos' files were deleted.
 */
export async function sweepMedia(deps: Pick<PhotoDeps, 'db' | 'storage'>): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await transaction(deps.db, async (tx) => {
      const ids = await repo.dueDeletions(tx, SWEEP_BATCH);
      if (ids.length === 0) return 0;
      await deps.storage.delete(ids.flatMap((id) => PHOTO_SIZES.map((size) => storageKey(id, size))));
      await repo.dropDeletion(tx, ids);
      return ids.length;
    });
    total += done;
    if (done < SWEEP_BATCH) return total;
  }
}
