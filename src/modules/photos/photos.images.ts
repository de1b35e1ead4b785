import type exifrModule from 'exifr';
import type { fileTypeFromFile } from 'file-type';
import pLimit from 'p-limit';
import type sharpModule from 'sharp';
import type { Metadata } from 'sharp';
import { PhotoErrors } from './photos.errors.js';

/**
 * What an uploaded image goes through, read from its temporary file: its type from its bytes
 * (`file-type`), its pixel count from its header before anything is decoded (decompression
 * bombs), the GPS position it carried (offered to the owner once, never stored), then one
 * re-encode per size with `sharp`: orientation applied, every piece of metadata dropped (sharp
 * writes none unless asked), JPEG out. The original bytes are never kept.
 */

/** Accepted types, by MIME type, with the names the 415 answer lists. */
export const ACCEPTED_TYPES: Readonly<Record<string, string>> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP', 'image/avif': 'AVIF' };
/** HEIC/HEIF photos (iPhones): sharp's prebuilt binaries cannot decode HEVC. */
const HEIC_TYPES = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);
/** The largest image decoded: 50 megapixels (e.g. 8660 × 5773); a phone's photo has 12–48. */
export const MAX_INPUT_PIXELS = 50_000_000;
export const DISPLAY_SIZE = 1600;
export const THUMBNAIL_SIZE = 320;
/** JPEG out: every client shows it, and metadata readers (exifr) can prove it carries none. */
export const OUTPUT_TYPE = 'image/jpeg';

/**
 * sharp (libvips), file-type and exifr, loaded with the first upload rather than at every start
 * of the service (which no upload may follow); a process that serves uploads loads them once.
 */
let libraries: Promise<{ sharp: typeof sharpModule; fileTypeFromFile: typeof fileTypeFromFile; exifr: typeof exifrModule }> | undefined;
function imageLibraries() {
  return (libraries ??= Promise.all([import('sharp'), import('file-type'), import('exifr')]).then(([{ default: sharp }, { fileTypeFromFile }, { default: exifr }]) => {
    // No cache of decoded images between requests, one libvips thread per image, one image decoded
    // at a time: the memory a burst of uploads takes stays flat (`npm run bench -- photos`: 8 uploads
    // of 10 MB at once peak at 246 MB RSS with MALLOC_ARENA_MAX=2; two at a time 296 MB).
    sharp.cache(false);
    sharp.concurrency(1);
    return { sharp, fileTypeFromFile, exifr };
  }));
}
const decoding = pLimit(1);

export async function detectType(file: string): Promise<string> {
  const { fileTypeFromFile } = await imageLibraries();
  const type = await fileTypeFromFile(file);
  if (type && ACCEPTED_TYPES[type.mime]) return type.mime;
  if (type && HEIC_TYPES.has(type.mime)) throw PhotoErrors.heicNotSupported();
  throw PhotoErrors.unsupportedType(type?.mime);
}

/** The image's dimensions from its header; refuses more than MAX_INPUT_PIXELS before decoding. */
export async function checkDimensions(file: string): Promise<{ width: number; height: number }> {
  const { sharp } = await imageLibraries();
  let metadata: Metadata;
  try {
    metadata = await sharp(file, { limitInputPixels: false }).metadata();
  } catch {
    throw PhotoErrors.unreadable();
  }
  const { width, height } = metadata;
  if (!width || !height) throw PhotoErrors.unreadable();
  if (width * height > MAX_INPUT_PIXELS) throw PhotoErrors.tooManyPixels(width, height, MAX_INPUT_PIXELS);
  return { width, height };
}

export interface Position {
  latitude: number;
  longitude: number;
}

/** The GPS position in the image's EXIF data, if it has a valid one. */
export async function gpsPosition(file: string): Promise<Position | undefined> {
  const { exifr } = await imageLibraries();
  const gps = (await exifr.gps(file).catch(() => undefined)) as Partial<Position> | undefined;
  const { latitude, longitude } = gps ?? {};
  if (typeof latitude !== 'number' || typeof longitude !== 'number' || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return undefined;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  return { latitude: Math.round(latitude * 1e6) / 1e6, longitude: Math.round(longitude * 1e6) / 1e6 };
}

export interface Rendition {
  data: Buffer;
  width: number;
  height: number;
}

async function render(input: string | Buffer, size: number, quality: number): Promise<Rendition> {
  const { sharp } = await imageLibraries();
  const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true })
    .rotate()
    .resize(size, size, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality, mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The display size and the thumbnail (made from the display size: the original is decoded once), re-encoded without metadata. */
export async function renditions(file: string): Promise<{ display: Rendition; thumbnail: Rendition }> {
  return decoding(async () => {
    try {
      const display = await render(file, DISPLAY_SIZE, 82);
      return { display, thumbnail: await render(display.data, THUMBNAIL_SIZE, 75) };
    } catch {
      throw PhotoErrors.unreadable();
    }
  });
}
