/**
 * The photos module's public file: its shared schema (registered on the root app, so every module's
 * views `$ref` it) and a person's photo files as streams (`ownPhotoFiles`, on disk or S3), which the
 * module also registers for the person's copy of their data (core/personal-data.ts `files`).
 */
export { Photo } from './photos.schemas.js';
export { ownPhotoFiles, type OwnPhotoFile } from './photos.service.js';
/** Offline sync (the sync module) pulls the metadata of the caller's photos (read-only). */
export { photos } from './photos.tables.js';
