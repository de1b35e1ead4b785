import { AppError } from '../../core/http/problem.js';

const ACCEPTED = 'JPEG, PNG, WebP or AVIF';

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

export const PhotoErrors = {
  notFound: (id: string) => new AppError(404, 'photos.not_found', `No photo has id ${id}; the record's view lists its photos.`),
  notMultipart: () =>
    new AppError(415, 'photos.not_multipart', 'Send the photo as multipart/form-data with one file part named "file" (curl -F file=@photo.jpg).'),
  noFile: () => new AppError(400, 'photos.no_file', 'The request has no file part; send one file named "file" (curl -F file=@photo.jpg).'),
  fileTooLarge: (limit: number) =>
    new AppError(413, 'photos.file_too_large', `The photo is larger than the limit of ${limit} bytes (${megabytes(limit)}, system setting MaxFileUploadSize); send a smaller photo.`),
  tooManyPixels: (width: number, height: number, max: number) =>
    new AppError(413, 'photos.too_many_pixels', `The image is ${width} × ${height} pixels; at most ${max / 1_000_000} megapixels are accepted. Send a smaller image.`),
  unsupportedType: (mime: string | undefined) =>
    new AppError(415, 'photos.unsupported_type', `The file is ${mime ? `of type ${mime}` : 'not an image of a known type'}; send a ${ACCEPTED} image.`),
  heicNotSupported: () =>
    new AppError(415, 'photos.heic_not_supported', `HEIC/HEIF photos cannot be read here; share the photo as JPEG (iPhone: Settings › Camera › Formats › Most Compatible, or share it as JPEG) or send PNG, WebP or AVIF.`),
  incomplete: () => new AppError(400, 'photos.upload_incomplete', 'The upload ended before its file did (or its multipart body is malformed); send the whole file again.'),
  unreadable: () => new AppError(400, 'photos.unreadable', `The image could not be decoded (damaged or cut short); send a complete ${ACCEPTED} image.`),
  tooMany: (max: number) => new AppError(409, 'photos.too_many', `This record has ${max} photos, the most it can have; delete one (DELETE /api/photos/{photoId}) before adding another.`),
  quotaExceeded: (used: number, adding: number, quota: number) =>
    new AppError(
      409,
      'photos.quota_exceeded',
      `Your photos use ${used} bytes (${megabytes(used)}) of your ${quota} bytes (${megabytes(quota)}) quota (system setting PhotoStorageQuota); this one needs ${adding} more. Delete photos you no longer need.`,
    ),
  notInReview: (id: string) =>
    new AppError(404, 'photos.not_found', `No post or fishing report photo has id ${id} (only those pass moderation); it may have been deleted with its record.`),
  alreadyPublished: () => new AppError(409, 'photos.already_published', 'This photo is already published; there is nothing to approve. To take it down, reject it.'),
  alreadyRejected: () => new AppError(409, 'photos.already_rejected', 'This photo is already rejected. To publish it after all, approve it.'),
  recordDeleted: (id: string) => new AppError(404, 'photos.record_deleted', `The record ${id} was deleted while its photo was uploading; nothing was stored.`),
  badPosition: (position: number, count: number) =>
    new AppError(400, 'photos.bad_position', `The record has ${count} photos; the position must be from 1 to ${count}, not ${position}.`, {
      errors: [{ pointer: '/position', in: 'body', detail: `must be from 1 to ${count}` }],
    }),
};
