import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import exifr from 'exifr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalDataOf } from '../../core/personal-data.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { startTestS3, type TestS3 } from '../../../test/s3-server.js';
import { catchPhotosUrl, createCatch, createEntry, createUser, jpegWithGps, uploadPhoto } from '../../../test/factories.js';
import { localStorage, type MediaStorage } from './photos.storage.js';
import { s3Storage } from './photos.s3-storage.js';

async function bytesOf(stream: Readable | undefined): Promise<Buffer | undefined> {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let s3: TestS3;
let folder: string;

beforeAll(async () => {
  s3 = await startTestS3();
  folder = await mkdtemp(path.join(os.tmpdir(), 'fishlog-media-test-'));
});

afterAll(async () => {
  await s3?.close();
  await rm(folder, { recursive: true, force: true });
});

const adapters: Array<[string, () => MediaStorage]> = [
  ['local filesystem', () => localStorage(folder)],
  ['S3', () => s3Storage({ bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, redirectSeconds: 0 })],
];

describe.each(adapters)('media storage: %s', (_name, make) => {
  it('stores a file whole and reads it back; a missing file is undefined', async () => {
    const storage = make();
    const body = Buffer.from('a photo, or as good as one'.repeat(1000));
    await storage.put('photos/0001/display.jpg', body, 'image/jpeg');
    expect(await bytesOf(await storage.get('photos/0001/display.jpg'))).toEqual(body);
    expect(await storage.get('photos/0001/thumbnail.jpg')).toBeUndefined();
  });

  it('replaces a file atomically and deletes files (a missing one is no error)', async () => {
    const storage = make();
    await storage.put('photos/0002/display.jpg', Buffer.from('first'), 'image/jpeg');
    await storage.put('photos/0002/display.jpg', Buffer.from('second'), 'image/jpeg');
    await storage.put('photos/0002/thumbnail.jpg', Buffer.from('thumb'), 'image/jpeg');
    expect((await bytesOf(await storage.get('photos/0002/display.jpg')))!.toString()).toBe('second');
    await storage.delete(['photos/0002/display.jpg', 'photos/0002/thumbnail.jpg', 'photos/0009/display.jpg']);
    expect(await storage.get('photos/0002/display.jpg')).toBeUndefined();
    expect(await storage.get('photos/0002/thumbnail.jpg')).toBeUndefined();
  });

  it('opens a file with its size (what an archive entry needs); a missing file is undefined', async () => {
    const storage = make();
    const body = Buffer.from('display bytes '.repeat(700));
    await storage.put('photos/0003/display.jpg', body, 'image/jpeg');
    const opened = await storage.open('photos/0003/display.jpg');
    expect(opened?.size).toBe(body.length);
    expect(await bytesOf(opened?.body)).toEqual(body);
    expect(await storage.open('photos/0003/thumbnail.jpg')).toBeUndefined();
  });

  it('refuses keys that leave its root', async () => {
    const storage = make();
    await expect(storage.put('../outside.jpg', Buffer.from('x'), 'image/jpeg')).rejects.toThrow(/invalid media key/);
    await expect(storage.get('/etc/passwd')).rejects.toThrow(/invalid media key/);
  });
});

it('local writes leave no temp file behind', async () => {
  const storage = localStorage(folder);
  await Promise.all(Array.from({ length: 10 }, (_, i) => storage.put(`photos/1${i}/display.jpg`, Buffer.alloc(10_000, i), 'image/jpeg')));
  expect(await readdir(path.join(folder, '.tmp'))).toEqual([]);
});

describe('the app on S3 storage', () => {
  let t: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'fishlog-photos-s3-'));
    t = await createTestApp({ env: { FISHLOG_DATA_DIR: dataDir, ...s3.env } });
  });

  afterAll(async () => {
    await t?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('uploads, serves and deletes photos in the bucket: nothing on local disk', async () => {
    const owner = await createUser(t);
    const entry = await createEntry(t, owner);
    const caught = await createCatch(t, owner, entry);
    const photo = await uploadPhoto(t, owner, catchPhotosUrl(entry.id, caught.id), await jpegWithGps({ width: 1000, height: 750 }));
    expect(photo).toMatchObject({ width: 1000, height: 750, thumbnailWidth: 320, thumbnailHeight: 240 });
    const s3Direct = s3Storage({ bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, redirectSeconds: 0 });
    const stored = await bytesOf(await s3Direct.get(`photos/${photo.id}/display.jpg`));
    expect(await sharp(stored!).metadata()).toMatchObject({ format: 'jpeg', width: 1000, height: 750 });

    // The person's copy of their data reads the display size from the bucket, as GET /api/photos/{id}/display serves it.
    const files = [];
    for await (const file of personalDataOf(t).find((r) => r.module === 'photos')!.files!(owner.userId)) files.push(file);
    expect(files.map((file) => file.name)).toEqual([`photos/${photo.id}.jpg`]);
    const opened = await files[0]!.open();
    const served = await t.app.inject({ method: 'GET', url: photo.displayUrl, headers: owner.headers });
    expect(opened?.size).toBe(served.rawPayload.length);
    expect((await bytesOf(opened?.body))!.equals(served.rawPayload)).toBe(true);

    const res = await t.app.inject({ method: 'GET', url: photo.thumbnailUrl, headers: owner.headers });
    expect(res.statusCode).toBe(200);
    expect(await exifr.parse(res.rawPayload, true)).toBeUndefined();
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 320, height: 240 });
    expect(await readdir(dataDir).catch(() => [])).not.toContain('media');

    const stranger = await createUser(t);
    expect((await t.app.inject({ method: 'GET', url: photo.thumbnailUrl, headers: stranger.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/photos/${photo.id}`, headers: owner.headers })).statusCode).toBe(204);
    expect(await s3Direct.get(`photos/${photo.id}/display.jpg`)).toBeUndefined();
    expect(await s3Direct.get(`photos/${photo.id}/thumbnail.jpg`)).toBeUndefined();
  });

  it('with presigned reads: a 302 after the access check, to a URL that serves the file', async () => {
    const other = await createTestApp({ sameDatabaseAs: t, env: { FISHLOG_DATA_DIR: dataDir, ...s3.env, S3_PRESIGNED_READ_SECONDS: '60' } });
    try {
      const owner = await createUser(other);
      const entry = await createEntry(other, owner);
      const caught = await createCatch(other, owner, entry);
      const photo = await uploadPhoto(other, owner, catchPhotosUrl(entry.id, caught.id));
      const res = await other.app.inject({ method: 'GET', url: photo.displayUrl, headers: owner.headers });
      expect(res.statusCode).toBe(302);
      const location = res.headers.location as string;
      expect(location).toContain(`/${s3.bucket}/photos/${photo.id}/display.jpg`);
      expect(location).toContain('X-Amz-Expires=60');
      const file = await fetch(location);
      expect(file.status).toBe(200);
      expect(await sharp(Buffer.from(await file.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg' });
      const stranger = await createUser(other);
      expect((await other.app.inject({ method: 'GET', url: photo.displayUrl, headers: stranger.headers })).statusCode).toBe(403);
    } finally {
      await other.close();
    }
  });
});
