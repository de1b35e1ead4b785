import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import type { UploadResult } from '../../src/modules/photos/photos.service.js';
import type { TestApp } from '../harness.js';
import type { TestUser } from './users.js';

/** Photos: real images made with sharp (EXIF GPS included where asked), uploaded as multipart bodies through the API. */

/** Where the GPS of `jpegWithGps` points (Mille Lacs Lake). */
export const PHOTO_GPS = { latitude: 46.233333, longitude: -93.65 };

export interface ImageOptions {
  width?: number;
  height?: number;
  /** EXIF orientation (6: the camera was turned; shown rotated 90° clockwise). */
  orientation?: number;
  colour?: { r: number; g: number; b: number };
}

/** A JPEG carrying EXIF data: camera make and model, and a GPS position (PHOTO_GPS). */
export async function jpegWithGps(options: ImageOptions = {}): Promise<Buffer> {
  const { width = 2400, height = 1800, colour = { r: 20, g: 120, b: 200 } } = options;
  let image = sharp({ create: { width, height, channels: 3, background: colour } }).jpeg({ quality: 90 });
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  return image
    .withExif({
      IFD0: { Make: 'TestPhone', Model: 'Lake 1', Artist: 'Jo Angler' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '46/1 14/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '93/1 39/1 0/1' },
    })
    .toBuffer();
}

/** A JPEG of random pixels: it does not compress, so its size follows its dimensions (about 1 byte a pixel at quality 90). */
export async function noisyJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

/** A small PNG (no metadata). */
export async function smallPng(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 40, alpha: 1 } } }).png().toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A decompression bomb: a PNG of a few dozen bytes whose header declares `width` × `height` pixels. */
export function pixelBombPng(width = 60_000, height = 60_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])), pngChunk('IEND', Buffer.alloc(0))]);
}

/** The first bytes of an iPhone HEIC photo (an ISO-BMFF `ftyp` box of brand heic). */
export function heicBytes(): Buffer {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic', 'ascii'), Buffer.from([0, 0, 0, 0]), Buffer.from('mif1heic', 'ascii')]);
  return Buffer.concat([ftyp, randomBytes(2048)]);
}

/** A multipart/form-data body with one file part named `file`. */
export function multipartBody(file: Buffer, options: { filename?: string; type?: string; field?: string } = {}) {
  const boundary = `----fishlog${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.filename ?? 'photo.jpg'}"\r\nContent-Type: ${options.type ?? 'image/jpeg'}\r\n\r\n`,
  );
  return { payload: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POSTs (or PUTs) `file` to an upload URL as `user`; answers the raw response. */
export async function sendPhoto(t: TestApp, user: TestUser, url: string, file: Buffer, options: { method?: 'POST' | 'PUT'; filename?: string; type?: string } = {}) {
  const { payload, headers } = multipartBody(file, options);
  return t.app.inject({ method: options.method ?? 'POST', url, headers: { ...user.headers, ...headers }, payload });
}

export type UploadedPhoto = UploadResult;

/** Uploads a photo that must be accepted (201). */
export async function uploadPhoto(t: TestApp, user: TestUser, url: string, file?: Buffer, options: { method?: 'POST' | 'PUT' } = {}): Promise<UploadedPhoto> {
  const res = await sendPhoto(t, user, url, file ?? (await smallPng()), options);
  if (res.statusCode !== 201) throw new Error(`uploading a photo to ${url} failed: ${res.statusCode} ${res.body}`);
  return res.json() as UploadedPhoto;
}

export function catchPhotosUrl(entryId: string, catchId: string): string {
  return `/api/fishinglog/entries/${entryId}/catches/${catchId}/photos`;
}

/** Every file under the app's media folder (FISHLOG_DATA_DIR/media), relative paths; temp files included. */
export async function mediaFiles(t: TestApp): Promise<string[]> {
  const root = path.join(t.config.dataDir, 'media');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/**
 * Gives a post or report photo the verdict the moderation provider would have given (the local
 * provider publishes every image): PendingReview for a held photo, Rejected for a rejected one.
 */
export async function setPhotoVerdict(t: TestApp, photoId: string, status: 'PendingReview' | 'Rejected'): Promise<void> {
  const { rowCount } = await t.database.pool.query('UPDATE photos SET status = $2 WHERE id = $1', [photoId, status]);
  if (rowCount !== 1) throw new Error(`no photo ${photoId} to set to ${status}`);
}
