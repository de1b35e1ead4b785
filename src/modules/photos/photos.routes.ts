import { registerPersonalData } from '../../core/personal-data.js';
import { serviceDeps } from '../../core/service-deps.js';
import { MEDIA_SWEEP } from './photos.jobs.js';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { Type } from 'typebox';
import { principalOf } from '../../core/access/access.js';
import type { AppDeps } from '../../core/app-deps.js';
import { errorResponses, IdParams, Uuid } from '../../core/http/schemas.js';
import { PhotoErrors } from './photos.errors.js';
import { CatchPhotoParams, MoveBody, multipartPhotoBody, PhotoBytes, PhotoFileParams, PhotoList, PhotoParams, UploadedPhoto } from './photos.schemas.js';
import * as service from './photos.service.js';
import { createStorage } from './photos.storage.js';
import { adminPhotosRoutes } from './photos.admin.routes.js';
import { sendPhotoFile } from './photos.reply.js';

interface Upload {
  kind: service.PhotoKind;
  method: 'POST' | 'PUT';
  url: string;
  params: TSchema | undefined;
  target: (params: Record<string, string>, userId: string) => { recordId: string; parentId?: string };
  operationId: string;
  tag: string;
  what: string;
}

/** The tag grouping the photo operations (described in src/core/http/openapi.ts); uploads keep their record's tag too. */
const PHOTOS_TAG = 'photos';

const byId = (params: Record<string, string>) => ({ recordId: params.id! });
const EntryParams = Type.Object({ entryId: Uuid }, { additionalProperties: false });

/** The records that take photos, each at its own path (the owning module's base path). */
const UPLOADS: Upload[] = [
  {
    kind: 'Catch',
    method: 'POST',
    url: '/api/fishinglog/entries/:entryId/catches/:catchId/photos',
    params: CatchPhotoParams,
    target: (p) => ({ recordId: p.catchId!, parentId: p.entryId! }),
    operationId: 'uploadCatchPhoto',
    tag: 'fishing log',
    what: 'a catch (seen as its entry is)',
  },
  {
    kind: 'Entry',
    method: 'POST',
    url: '/api/fishinglog/entries/:entryId/photos',
    params: EntryParams,
    target: (p) => ({ recordId: p.entryId! }),
    operationId: 'uploadEntryPhoto',
    tag: 'fishing log',
    what: 'a log entry (seen as the entry is)',
  },
  { kind: 'Post', method: 'POST', url: '/api/social/posts/:id/photos', params: IdParams, target: byId, operationId: 'uploadPostPhoto', tag: 'social: posts', what: 'a post (moderated before others see it)' },
  {
    kind: 'FishingReport',
    method: 'POST',
    url: '/api/reports/:id/photos',
    params: IdParams,
    target: byId,
    operationId: 'uploadFishingReportPhoto',
    tag: 'community: fishing reports',
    what: 'a fishing report (moderated before others see it)',
  },
  { kind: 'Spot', method: 'POST', url: '/api/spots/:id/photos', params: IdParams, target: byId, operationId: 'uploadSpotPhoto', tag: 'community: spots', what: 'a spot you added' },
  {
    kind: 'Avatar',
    method: 'PUT',
    url: '/api/userprofile/me/avatar',
    params: undefined,
    target: (_p, userId) => ({ recordId: userId }),
    operationId: 'putMyAvatar',
    tag: 'profiles',
    what: 'your profile (the avatar: one photo, replaced by the next; seen as your profile is)',
  },
];

const UPLOAD_DESCRIPTION =
  'Multipart upload (`multipart/form-data`, one file part named `file`), streamed: JPEG, PNG, WebP or AVIF, by its bytes (not its name or header). ' +
  'HEIC is a 415 that says to share the photo as JPEG; other types a 415 naming the accepted ones. The file may have at most MaxFileUploadSize bytes ' +
  '(system setting, 413 with the limit) and 50 megapixels (413, refused before decoding). At most 10 photos per record (409 `photos.too_many`); ' +
  'your photos together at most PhotoStorageQuota bytes (409 `photos.quota_exceeded` with your use and the quota). The image is re-encoded ' +
  '(orientation applied, all metadata — EXIF GPS included — removed; the original is not kept) as a display size (1600 px) and a thumbnail (320 px), JPEG. ' +
  "Only the record's owner (403 `photos.not_owner`; the record's own 404 when it does not exist, 404 `photos.record_deleted` when it is deleted while the photo uploads: nothing is stored). FISHLOG_PHOTO_UPLOADS_PER_MINUTE (30) uploads a minute per client.";

function nextFile(request: FastifyRequest) {
  return async (maxBytes: number) => {
    if (!request.isMultipart()) throw PhotoErrors.notMultipart();
    return request.file({ limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 11 } });
  };
}

/** Photos: uploads to each kind of record, reading (as the record is seen), ordering, the cover, deletion; the media sweep. */
export const photosRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const storage = await createStorage(deps.config.media, deps.config.dataDir);
  // Photos of a person (rows, and files on disk or S3 after the commit, by the media sweep) go with their account.
  registerPersonalData(deps, {
    module: 'photos',
    columns: [{ table: 'photos', column: 'owner_id', action: 'delete', reason: 'Every photo the person uploaded (avatar included); their files are deleted from the storage (disk or S3) after the commit.' }],
    afterErase: async () => void (await service.sweepMedia({ db: deps.database.db, storage })),
    // The person's copy of their data holds the display size of each of their photos, as GET /api/photos/{id}/display serves it.
    files: async function* (userId) {
      for await (const file of service.ownPhotoFiles({ db: deps.database.db, storage }, userId)) {
        yield { name: file.name, about: `${file.photo.kind} photo of ${file.photo.kind === 'Avatar' ? 'your profile' : `record ${file.photo.recordId}`} (display size, ${file.photo.width}×${file.photo.height}; row ${file.photo.id} in photos.ndjson)`, open: file.open };
      }
    },
  });
  const photoDeps: service.PhotoDeps = { ...serviceDeps(deps), storage, settings: deps.settings, log: app.log, records: deps.registries.of(service.photoRecords), uploadDir: service.uploadDirOf(deps.config.dataDir) };
  await app.register(multipart, { throwFileSizeLimit: true });

  // Files of deleted photos go after their commit: at once when a photo is deleted through this
  // API, and every minute on the job queue (once across the processes) for those deleted with
  // their record and uploads cut off between their files and their row.
  deps.jobs.work(MEDIA_SWEEP, () => service.sweepMedia(photoDeps));
  // The moderators' review of held and rejected photos, on the same storage.
  await app.register(adminPhotosRoutes, { deps, photoDeps });

  for (const upload of UPLOADS) {
    app.route({
      method: upload.method,
      url: upload.url,
      config: { rateLimit: { max: deps.config.media.uploadsPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: [PHOTOS_TAG, upload.tag],
        operationId: upload.operationId,
        summary: `Add a photo to ${upload.what}`,
        description: UPLOAD_DESCRIPTION + (upload.kind === 'Catch' || upload.kind === 'Entry' ? ' The answer offers the GPS position the photo carried (`suggestedLocation`), once.' : ''),
        ...(upload.params ? { params: upload.params } : {}),
        body: multipartPhotoBody,
        response: { 201: UploadedPhoto, ...errorResponses(400, 403, 404, 409, 413, 415) },
      } as never,
      handler: async (request, reply) => {
        const viewer = principalOf(request);
        const target = upload.target((request.params ?? {}) as Record<string, string>, viewer.userId);
        const photo = await service.uploadPhoto(photoDeps, viewer, { kind: upload.kind, ...target }, nextFile(request));
        return reply.code(201).send(photo as never);
      },
    });
  }

  app.delete(
    '/api/userprofile/me/avatar',
    {
      schema: {
        tags: [PHOTOS_TAG, 'profiles'],
        operationId: 'deleteMyAvatar',
        summary: 'Remove your avatar',
        description: 'Deletes your avatar photo (its files too). 204 also when you have none.',
        response: { 204: Type.Null({ description: 'Removed' }) },
      },
    },
    async (request, reply) => {
      const viewer = principalOf(request);
      await service.deleteRecordPhotos(photoDeps, viewer, 'Avatar', viewer.userId);
      return reply.code(204).send(null);
    },
  );

  const tags = [PHOTOS_TAG];
  app.get(
    '/api/photos/:id/:size',
    {
      schema: {
        tags,
        operationId: 'getPhoto',
        summary: 'A photo’s display size or thumbnail',
        description:
          'The image (JPEG, no metadata), for whoever may see the photo’s record, by the record’s own rule (a Private entry’s catch photo is a 403 for others, ' +
          'a Friends entry’s for non-friends; a deleted photo, or one not published by moderation for anyone but its owner, is a 404). `ETag` (the file never ' +
          'changes: `If-None-Match` answers 304); `Cache-Control: private, no-cache` unless the record is seen by everyone (`public, max-age=86400`). ' +
          'With S3 storage and S3_PRESIGNED_READ_SECONDS set, a 302 to a short-lived presigned URL after the access check.',
        params: PhotoFileParams,
        response: {
          200: PhotoBytes,
          302: Type.Null({ description: 'Redirect to a presigned URL of the file (S3 storage with presigned reads)' }),
          304: Type.Null({ description: 'Not modified (your copy, by its ETag, is current)' }),
          ...errorResponses(403, 404),
        },
      } as never,
    },
    async (request, reply) => {
      const { id, size } = request.params as { id: string; size: service.PhotoSize };
      const ifNoneMatch = request.headers['if-none-match'];
      const file = await service.readPhoto(photoDeps, principalOf(request), id, size, typeof ifNoneMatch === 'string' ? ifNoneMatch : undefined);
      return sendPhotoFile(reply, file);
    },
  );

  app.delete(
    '/api/photos/:id',
    {
      schema: {
        tags,
        operationId: 'deletePhoto',
        summary: 'Delete a photo',
        description: 'The owner of the photo’s record only (403 `photos.not_owner`). The photos after it move up; its files are deleted after the commit.',
        params: PhotoParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.deletePhoto(photoDeps, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/photos/:id/position',
    {
      schema: {
        tags,
        operationId: 'movePhoto',
        summary: 'Move a photo within its record',
        description: 'The owner of the photo’s record only. `position` 1 is first; the others shift. Answers the record’s photos in their new order.',
        params: PhotoParams,
        body: MoveBody,
        response: { 200: PhotoList, ...errorResponses(403, 404) },
      },
    },
    async (request) => service.movePhoto(photoDeps, principalOf(request), request.params.id, request.body.position),
  );

  app.post(
    '/api/photos/:id/cover',
    {
      schema: {
        tags,
        operationId: 'setCoverPhoto',
        summary: 'Make a photo its record’s cover',
        description: 'The owner of the photo’s record only. Without a choice the first photo is the cover. Answers the record’s photos.',
        params: PhotoParams,
        response: { 200: PhotoList, ...errorResponses(403, 404) },
      },
    },
    async (request) => service.makeCover(photoDeps, principalOf(request), request.params.id),
  );
};
