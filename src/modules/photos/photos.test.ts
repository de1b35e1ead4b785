import { serviceDeps } from '../../core/service-deps.js';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { addToCircle, banUser, befriend, catchPhotosUrl, createCatch, createEntry, createPost, createUser, heicBytes, jpegWithGps, mediaFiles, MISSING_ID, noisyJpeg, PHOTO_GPS, pixelBombPng, sendPhoto, setPhotoVerdict, smallPng, uploadPhoto, type TestUser, createFishingReport, createSpot } from '../../../test/factories.js';
import { recordStatements } from '../../../test/statements.js';
import { photoRecords, sweepMedia, uploadDirOf, uploadPhoto as uploadPhotoOf } from './photos.service.js';
import { createStorage } from './photos.storage.js';
import { AppError } from '../../core/http/problem.js';

let t: TestApp;
let dataDir: string;
let owner: TestUser;
let admin: TestUser;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'fishlog-photos-test-'));
  t = await createTestApp({ env: { FISHLOG_DATA_DIR: dataDir, FISHLOG_PHOTO_UPLOADS_PER_MINUTE: '10000' } });
  [owner, admin] = await Promise.all([createUser(t), createUser(t, { role: 'Owner' })]);
});

afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const get = (user: TestUser, url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { ...user.headers, ...headers } });

async function setSetting(name: string, value: number): Promise<void> {
  const res = await t.app.inject({ method: 'PUT', url: `/api/admin/system-settings/${name}`, headers: admin.headers, payload: { value, reason: 'photo limits under test' } });
  expect(res.statusCode).toBe(200);
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never happened: ${what}`);
}

async function photoRows(recordId: string): Promise<number> {
  const { rows } = await t.database.pool.query('SELECT count(*)::int AS n FROM photos WHERE record_id = $1', [recordId]);
  return rows[0].n as number;
}

async function newCatch(user: TestUser, visibility: 'Public' | 'Friends' | 'Circle' | 'Private' = 'Private') {
  const entry = await createEntry(t, user, { visibility });
  const caught = await createCatch(t, user, entry);
  return { entry, caught, url: catchPhotosUrl(entry.id, caught.id) };
}

describe('a catch photo: uploaded, stripped, served', () => {
  it('re-encodes a JPEG with EXIF GPS: both sizes download without any EXIF, with the right pixels; the GPS is offered once', async () => {
    const original = await jpegWithGps();
    expect(await exifr.gps(original)).toMatchObject({ latitude: expect.closeTo(PHOTO_GPS.latitude, 5), longitude: expect.closeTo(PHOTO_GPS.longitude, 5) });
    const { url, entry, caught } = await newCatch(owner);

    const res = await sendPhoto(t, owner, url, original);
    expect(res.statusCode).toBe(201);
    const photo = res.json();
    expect(photo).toMatchObject({
      width: 1600,
      height: 1200,
      thumbnailWidth: 320,
      thumbnailHeight: 240,
      cover: true,
      moderationStatus: 'Published',
      displayUrl: `/api/photos/${photo.id}/display`,
      thumbnailUrl: `/api/photos/${photo.id}/thumbnail`,
      suggestedLocation: { latitude: expect.closeTo(PHOTO_GPS.latitude, 5), longitude: expect.closeTo(PHOTO_GPS.longitude, 5) },
    });

    for (const [size, width, height] of [['display', 1600, 1200], ['thumbnail', 320, 240]] as const) {
      const file = await get(owner, `/api/photos/${photo.id}/${size}`);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/jpeg');
      expect(file.headers['cache-control']).toBe('private, no-cache');
      expect(file.headers.etag).toBe(`"${photo.id}-${size}"`);
      const bytes = file.rawPayload;
      expect(await exifr.parse(bytes, true)).toBeUndefined();
      expect(await exifr.gps(bytes)).toBeUndefined();
      const metadata = await sharp(bytes).metadata();
      expect(metadata).toMatchObject({ format: 'jpeg', width, height });
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(metadata.icc).toBeUndefined();
      const { channels } = await sharp(bytes).stats();
      expect(channels.slice(0, 3).map((c) => Math.round(c.mean))).toEqual([expect.closeTo(20, -1), expect.closeTo(120, -1), expect.closeTo(200, -1)]);
      // Unchanged since: 304.
      expect((await get(owner, `/api/photos/${photo.id}/${size}`, { 'if-none-match': file.headers.etag as string })).statusCode).toBe(304);
    }

    // The original bytes are stored nowhere: only the two renditions.
    expect((await mediaFiles(t)).filter((file) => file.includes(photo.id)).sort()).toEqual([`photos/${photo.id}/display.jpg`, `photos/${photo.id}/thumbnail.jpg`]);
    // The GPS position was offered, not stored: the entry keeps the location it had.
    const view = await get(owner, `/api/fishinglog/entries/${entry.id}/catches/${caught.id}`);
    expect(view.json().location ?? null).toBeNull();
  });

  it('applies the EXIF orientation before stripping it', async () => {
    const { url } = await newCatch(owner);
    const photo = await uploadPhoto(t, owner, url, await jpegWithGps({ width: 800, height: 600, orientation: 6 }));
    expect(photo).toMatchObject({ width: 600, height: 800 });
    const metadata = await sharp((await get(owner, photo.displayUrl)).rawPayload).metadata();
    expect(metadata).toMatchObject({ width: 600, height: 800 });
    expect(metadata.orientation).toBeUndefined();
  });

  it('takes PNG, WebP and AVIF by their bytes (whatever the name and header say), never offering a location they lack', async () => {
    const { url } = await newCatch(owner);
    const image = sharp({ create: { width: 100, height: 80, channels: 3, background: { r: 0, g: 90, b: 0 } } });
    for (const bytes of [await smallPng(), await image.clone().webp().toBuffer(), await image.clone().avif().toBuffer()]) {
      const res = await sendPhoto(t, owner, url, bytes, { filename: 'photo.txt', type: 'text/plain' });
      expect(res.statusCode).toBe(201);
      expect(res.json().suggestedLocation).toBeNull();
    }
  });
});

describe('refusals store nothing', () => {
  async function expectNothingStored(recordId: string, before: string[]) {
    expect(await photoRows(recordId)).toBe(0);
    expect(await mediaFiles(t)).toEqual(before);
    expect(await readdir(uploadDirOf(dataDir)).catch(() => [])).toEqual([]);
  }

  it('415 for a type it does not read, naming the accepted ones; 415 for HEIC, saying to share it as JPEG', async () => {
    const { url, caught } = await newCatch(owner);
    const before = await mediaFiles(t);
    const text = await sendPhoto(t, owner, url, Buffer.from('%PDF-1.7 not a photo at all'.repeat(20)), { filename: 'photo.jpg', type: 'image/jpeg' });
    expect(text.statusCode).toBe(415);
    expect(text.headers['content-type']).toContain('application/problem+json');
    expect(text.json()).toMatchObject({ code: 'photos.unsupported_type', detail: expect.stringContaining('JPEG, PNG, WebP or AVIF') });
    const heic = await sendPhoto(t, owner, url, heicBytes(), { filename: 'IMG_0001.HEIC', type: 'image/heic' });
    expect(heic.statusCode).toBe(415);
    expect(heic.json()).toMatchObject({ code: 'photos.heic_not_supported', detail: expect.stringContaining('share the photo as JPEG') });
    await expectNothingStored(caught.id, before);
  });

  it('413 for a decompression bomb, before decoding it', async () => {
    const { url, caught } = await newCatch(owner);
    const before = await mediaFiles(t);
    const bomb = pixelBombPng(60_000, 60_000);
    expect(bomb.length).toBeLessThan(200);
    const res = await sendPhoto(t, owner, url, bomb, { filename: 'bomb.png', type: 'image/png' });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'photos.too_many_pixels', detail: expect.stringContaining('60000 × 60000') });
    await expectNothingStored(caught.id, before);
  });

  it('400 for a damaged image and for a body without a file part; 415 for a JSON body', async () => {
    const { url, caught } = await newCatch(owner);
    const before = await mediaFiles(t);
    const cut = (await jpegWithGps({ width: 400, height: 300 })).subarray(0, 600);
    const damaged = await sendPhoto(t, owner, url, cut);
    expect(damaged.statusCode).toBe(400);
    expect(damaged.json()).toMatchObject({ code: 'photos.unreadable' });
    const boundary = 'xyz';
    const empty = await t.app.inject({ method: 'POST', url, headers: { ...owner.headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: `--${boundary}--\r\n` });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'photos.no_file' });
    const json = await t.app.inject({ method: 'POST', url, headers: owner.headers, payload: { file: 'photo.jpg' } });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ code: 'photos.not_multipart' });
    await expectNothingStored(caught.id, before);
  });

  it('an upload cut off midway leaves nothing behind', async () => {
    const { url, caught } = await newCatch(owner);
    const before = await mediaFiles(t);
    const file = await jpegWithGps({ width: 400, height: 300 });
    const boundary = 'cutoff';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...owner.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([Buffer.from(head), file.subarray(0, file.length / 2)]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toMatch(/^photos\./);
    await expectNothingStored(caught.id, before);
  });

  it('413 over MaxFileUploadSize (read live), with the limit in the detail', async () => {
    const { url, caught } = await newCatch(owner);
    const probe = await newCatch(owner);
    const file = await noisyJpeg(200, 150);
    expect(file.length).toBeGreaterThan(8192);
    await setSetting('MaxFileUploadSize', 8192);
    try {
      await eventually(async () => (await sendPhoto(t, owner, probe.url, file)).statusCode === 413, 'the 8192-byte limit');
      const before = await mediaFiles(t);
      const res = await sendPhoto(t, owner, url, file);
      expect(res.json()).toMatchObject({ status: 413, code: 'photos.file_too_large', detail: expect.stringContaining('8192 bytes') });
      await expectNothingStored(caught.id, before);
    } finally {
      await setSetting('MaxFileUploadSize', 10_485_760);
    }
    await eventually(async () => (await sendPhoto(t, owner, url, file)).statusCode === 201, 'the limit raised again');
  });

  it('409 past the storage quota (PhotoStorageQuota), with the use and the quota', async () => {
    const user = await createUser(t);
    const { url, caught } = await newCatch(user);
    await uploadPhoto(t, user, url);
    const { rows } = await t.database.pool.query('SELECT bytes FROM photos WHERE owner_id = $1', [user.userId]);
    const used = rows[0].bytes as number;
    await setSetting('PhotoStorageQuota', used + 10);
    try {
      // Until every process reads the new quota an attempt may still be stored: wait for a refusal,
      // then count what the user holds and check the next refusal against it.
      await eventually(async () => (await sendPhoto(t, user, url, await smallPng())).statusCode === 409, 'the quota');
      const usedNow = Number((await t.database.pool.query('SELECT sum(bytes)::bigint AS n FROM photos WHERE owner_id = $1', [user.userId])).rows[0].n);
      const rowsBefore = await photoRows(caught.id);
      const before = await mediaFiles(t);
      const res = await sendPhoto(t, user, url, await smallPng());
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'photos.quota_exceeded', detail: expect.stringContaining(`use ${usedNow} bytes`) });
      expect(res.json().detail).toContain(`of your ${used + 10} bytes`);
      expect(await photoRows(caught.id)).toBe(rowsBefore);
      expect(await mediaFiles(t)).toEqual(before);
    } finally {
      await setSetting('PhotoStorageQuota', 262_144_000);
    }
  });

  it('at most 10 photos per record, also when uploads race', async () => {
    const user = await createUser(t);
    const { url, caught } = await newCatch(user);
    const png = await smallPng(16, 16);
    const answers = await Promise.all(Array.from({ length: 12 }, () => sendPhoto(t, user, url, png)));
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(10);
    const refused = answers.filter((res) => res.statusCode !== 201);
    expect(refused.map((res) => res.json().code)).toEqual(['photos.too_many', 'photos.too_many']);
    expect(await photoRows(caught.id)).toBe(10);
    const { rows } = await t.database.pool.query('SELECT position FROM photos WHERE record_id = $1 ORDER BY position', [caught.id]);
    expect(rows.map((r) => r.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe('who may add, see and remove photos', () => {
  let stranger: TestUser;
  let friend: TestUser;
  let circleFriend: TestUser;

  beforeAll(async () => {
    [stranger, friend, circleFriend] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    await befriend(t, owner, friend);
    await befriend(t, owner, circleFriend);
    await addToCircle(t, owner, circleFriend);
  });

  it('a catch photo is seen as its entry is: Public, Friends, Circle, Private', async () => {
    const expected: Record<'Public' | 'Friends' | 'Circle' | 'Private', [TestUser, number][]> = {
      Public: [[owner, 200], [stranger, 200], [friend, 200], [circleFriend, 200]],
      Friends: [[owner, 200], [stranger, 403], [friend, 200], [circleFriend, 200]],
      Circle: [[owner, 200], [stranger, 403], [friend, 403], [circleFriend, 200]],
      Private: [[owner, 200], [stranger, 403], [friend, 403], [circleFriend, 403]],
    };
    for (const [visibility, cases] of Object.entries(expected) as ['Public' | 'Friends' | 'Circle' | 'Private', [TestUser, number][]][]) {
      const { url, entry, caught } = await newCatch(owner, visibility);
      const photo = await uploadPhoto(t, owner, url);
      for (const [viewer, status] of cases) {
        const catchView = await get(viewer, `/api/fishinglog/entries/${entry.id}/catches/${caught.id}`);
        expect(catchView.statusCode, `${visibility}: the catch itself`).toBe(status);
        for (const size of ['display', 'thumbnail']) {
          const res = await get(viewer, `/api/photos/${photo.id}/${size}`);
          expect(res.statusCode, `${visibility} ${size} for ${viewer === owner ? 'owner' : viewer.username}`).toBe(status);
          if (status === 403) {
            expect(res.json()).toMatchObject({ code: 'fishinglog.entry_not_visible' });
            expect(res.headers['content-type']).toContain('application/problem+json');
          } else {
            expect(res.headers['cache-control']).toBe(visibility === 'Public' ? 'public, max-age=86400' : 'private, no-cache');
          }
        }
      }
    }
  });

  it('only the owner adds (403 photos.not_owner; the record’s 403 when not shared; 404 when missing), orders and deletes', async () => {
    const { url, entry, caught } = await newCatch(owner, 'Public');
    const png = await smallPng();
    const notOwner = await sendPhoto(t, stranger, url, png);
    expect(notOwner.statusCode).toBe(403);
    expect(notOwner.json()).toMatchObject({ code: 'photos.not_owner' });
    const hidden = await newCatch(owner, 'Private');
    expect((await sendPhoto(t, stranger, hidden.url, png)).json()).toMatchObject({ status: 403, code: 'fishinglog.entry_not_visible' });
    const missing = await sendPhoto(t, owner, catchPhotosUrl(entry.id, MISSING_ID), png);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'fishinglog.catch_not_found' });
    expect((await sendPhoto(t, owner, catchPhotosUrl(hidden.entry.id, caught.id), png)).statusCode).toBe(404);
    expect((await sendPhoto(t, owner, url, png, {})).statusCode).toBe(201);
    expect(await photoRows(caught.id)).toBe(1);

    const first = (await get(owner, `/api/fishinglog/entries/${entry.id}/catches/${caught.id}`)).json().photos[0];
    const second = await uploadPhoto(t, owner, url);
    const third = await uploadPhoto(t, owner, url);
    for (const [method, path, payload] of [
      ['DELETE', `/api/photos/${first.id}`, undefined],
      ['PUT', `/api/photos/${first.id}/position`, { position: 2 }],
      ['POST', `/api/photos/${first.id}/cover`, undefined],
    ] as const) {
      const res = await t.app.inject({ method, url: path, headers: stranger.headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'photos.not_owner' });
      expect((await t.app.inject({ method, url: path.replace(first.id, MISSING_ID), headers: owner.headers, ...(payload ? { payload } : {}) })).statusCode).toBe(404);
    }

    const moved = await t.app.inject({ method: 'PUT', url: `/api/photos/${third.id}/position`, headers: owner.headers, payload: { position: 1 } });
    expect(moved.json().map((p: { id: string }) => p.id)).toEqual([third.id, first.id, second.id]);
    expect(moved.json()[0].cover).toBe(true);
    const badPosition = await t.app.inject({ method: 'PUT', url: `/api/photos/${third.id}/position`, headers: owner.headers, payload: { position: 4 } });
    expect(badPosition.json()).toMatchObject({ status: 400, code: 'photos.bad_position' });
    const cover = await t.app.inject({ method: 'POST', url: `/api/photos/${second.id}/cover`, headers: owner.headers });
    expect(cover.json().map((p: { cover: boolean }) => p.cover)).toEqual([false, false, true]);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/photos/${first.id}`, headers: owner.headers });
    expect(deleted.statusCode).toBe(204);
    expect((await get(owner, first.displayUrl)).json()).toMatchObject({ status: 404, code: 'photos.not_found' });
    expect((await mediaFiles(t)).some((file) => file.includes(first.id))).toBe(false);
    const { rows } = await t.database.pool.query('SELECT id, position FROM photos WHERE record_id = $1 ORDER BY position', [caught.id]);
    expect(rows).toEqual([
      { id: third.id, position: 1 },
      { id: second.id, position: 2 },
    ]);
  });

  it('a banned user sees no photo; a deactivated user’s avatar is gone', async () => {
    const moderator = await createUser(t, { role: 'Owner' });
    const { url } = await newCatch(owner, 'Public');
    const photo = await uploadPhoto(t, owner, url);
    const banned = await createUser(t);
    await banUser(t, moderator, banned);
    expect((await get(banned, photo.thumbnailUrl)).json()).toMatchObject({ status: 403, code: 'auth.banned' });

    const leaving = await createUser(t);
    const avatar = await uploadPhoto(t, leaving, '/api/userprofile/me/avatar', await smallPng(), { method: 'PUT' });
    expect((await get(stranger, avatar.thumbnailUrl)).statusCode).toBe(200);
    await t.database.pool.query('UPDATE users SET is_active = false WHERE id = $1', [leaving.userId]);
    expect((await get(stranger, avatar.thumbnailUrl)).json()).toMatchObject({ status: 404, code: 'profiles.user_not_found' });
  });
});

describe('photos go with their record', () => {
  it('deleting an entry deletes its and its catches’ photos, files included (after the commit, by the sweep)', async () => {
    const { url, entry, caught } = await newCatch(owner);
    const catchPhoto = await uploadPhoto(t, owner, url);
    const entryPhoto = await uploadPhoto(t, owner, `/api/fishinglog/entries/${entry.id}/photos`, await jpegWithGps({ width: 300, height: 200 }));
    expect(entryPhoto.suggestedLocation).toMatchObject({ latitude: expect.closeTo(PHOTO_GPS.latitude, 5) });
    const ids = [catchPhoto.id, entryPhoto.id];
    expect((await mediaFiles(t)).filter((file) => ids.some((id) => file.includes(id)))).toHaveLength(4);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/fishinglog/entries/${entry.id}`, headers: owner.headers })).statusCode).toBe(204);
    expect(await photoRows(caught.id)).toBe(0);
    expect(await photoRows(entry.id)).toBe(0);
    expect((await get(owner, catchPhoto.displayUrl)).statusCode).toBe(404);
    // The files wait for the media sweep (a job every minute; tests run no job workers): run it as the job does.
    expect((await mediaFiles(t)).filter((file) => ids.some((id) => file.includes(id)))).toHaveLength(4);
    await sweepMedia({ db: t.database.db, storage: await createStorage(t.config.media, dataDir) });
    expect((await mediaFiles(t)).filter((file) => ids.some((id) => file.includes(id)))).toEqual([]);
    const { rows } = await t.database.pool.query('SELECT count(*)::int AS n FROM media_deletions WHERE photo_id = ANY($1)', [ids]);
    expect(rows[0].n).toBe(0);
  });

  it('a new avatar replaces the old one; DELETE removes it', async () => {
    const user = await createUser(t);
    const first = await uploadPhoto(t, user, '/api/userprofile/me/avatar', await smallPng(), { method: 'PUT' });
    const second = await uploadPhoto(t, user, '/api/userprofile/me/avatar', await smallPng(), { method: 'PUT' });
    expect(await photoRows(user.userId)).toBe(1);
    expect((await get(user, first.thumbnailUrl)).statusCode).toBe(404);
    expect((await get(user, second.thumbnailUrl)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/userprofile/me/avatar', headers: user.headers })).statusCode).toBe(204);
    expect(await photoRows(user.userId)).toBe(0);
    await eventually(async () => !(await mediaFiles(t)).some((file) => file.includes(second.id)), 'the avatar files deleted');
  });
});

describe('a record deleted while its photo uploads', () => {
  it('404 photos.record_deleted, and nothing stored: no row, no file, no pending deletion', async () => {
    const { entry, caught } = await newCatch(owner);
    const before = await mediaFiles(t);
    const deps = {
      ...serviceDeps(t),
      storage: await createStorage(t.config.media, dataDir),
      settings: { get: () => undefined },
      log: { warn: () => undefined, info: () => undefined },
      records: t.registries.of(photoRecords),
      uploadDir: uploadDirOf(dataDir),
    };
    // The file arrives after the access check: the catch is deleted in between, as by another request of its owner.
    const nextFile = async () => {
      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/fishinglog/entries/${entry.id}/catches/${caught.id}`, headers: owner.headers });
      expect(deleted.statusCode).toBe(204);
      return { file: Readable.from(await smallPng()) };
    };
    const refused = await uploadPhotoOf(deps, { userId: owner.userId }, { kind: 'Catch', recordId: caught.id, parentId: entry.id }, nextFile).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 404, code: 'photos.record_deleted', detail: expect.stringContaining(caught.id) });
    expect(await photoRows(caught.id)).toBe(0);
    expect(await mediaFiles(t)).toEqual(before);
    expect(await readdir(uploadDirOf(dataDir)).catch(() => [])).toEqual([]);
    const { rows } = await t.database.pool.query('SELECT count(*)::int AS n FROM media_deletions WHERE due_at > now()');
    expect(rows[0].n).toBe(0);

    // Deleted before the upload: the record's own 404, as for any missing record.
    const gone = await sendPhoto(t, owner, catchPhotosUrl(entry.id, caught.id), await smallPng());
    expect(gone.json()).toMatchObject({ status: 404, code: expect.stringMatching(/catch_not_found$/) });
  });
});

describe('posts, fishing reports, spots and avatars', () => {
  let stranger: TestUser;
  beforeAll(async () => {
    stranger = await createUser(t);
  });

  it('a post photo passes moderation (the local provider allows it and records the call); the post lists it as it is seen', async () => {
    const post = await createPost(t, owner, { text: 'Dawn pike', visibility: 'Public' });
    const photo = await uploadPhoto(t, owner, `/api/social/posts/${post.id}/photos`, await jpegWithGps({ width: 640, height: 480 }));
    expect(photo).toMatchObject({ moderationStatus: 'Published', suggestedLocation: null, width: 640, height: 480 });
    const { rows } = await t.database.pool.query("SELECT provider, outcome FROM moderation_calls WHERE content_type = 'photo' AND content_id = $1", [photo.id]);
    expect(rows).toEqual([{ provider: 'local', outcome: 'clean' }]);
    const seen = await get(stranger, `/api/social/posts/${post.id}`);
    expect(seen.json().photos).toEqual([expect.objectContaining({ id: photo.id, cover: true, thumbnailUrl: photo.thumbnailUrl })]);
    expect((await get(stranger, photo.displayUrl)).headers['cache-control']).toBe('public, max-age=86400');
    expect((await sendPhoto(t, stranger, `/api/social/posts/${post.id}/photos`, await smallPng())).json()).toMatchObject({ status: 403, code: 'photos.not_owner' });

    const friendsOnly = await createPost(t, owner, { text: 'Secret bay', visibility: 'Friends' });
    const hidden = await uploadPhoto(t, owner, `/api/social/posts/${friendsOnly.id}/photos`);
    expect((await get(stranger, hidden.thumbnailUrl)).json()).toMatchObject({ status: 403, code: 'social.post_not_visible' });
    expect((await sendPhoto(t, owner, `/api/social/posts/${MISSING_ID}/photos`, await smallPng())).json()).toMatchObject({ status: 404, code: 'social.post_not_found' });
  });

  it('a fishing report photo and a spot photo: the author or creator adds, everyone who sees the record sees them', async () => {
    const report = await createFishingReport(t, owner);
    const reportPhoto = await uploadPhoto(t, owner, `/api/reports/${report.id}/photos`);
    expect((await get(stranger, `/api/reports/${report.id}`)).json().photos).toEqual(report.status === 'Published' ? [expect.objectContaining({ id: reportPhoto.id })] : []);
    expect((await sendPhoto(t, stranger, `/api/reports/${report.id}/photos`, await smallPng())).json()).toMatchObject({ status: 403, code: 'photos.not_owner' });

    const spot = await createSpot(t, owner);
    const spotPhoto = await uploadPhoto(t, owner, `/api/spots/${spot.id}/photos`);
    expect((await get(stranger, `/api/spots/${spot.id}`)).json().photos).toEqual([expect.objectContaining({ id: spotPhoto.id })]);
    expect((await get(stranger, spotPhoto.displayUrl)).statusCode).toBe(200);
    expect((await sendPhoto(t, stranger, `/api/spots/${spot.id}/photos`, await smallPng())).json()).toMatchObject({ status: 403, code: 'photos.not_owner' });
    expect((await sendPhoto(t, owner, `/api/spots/${MISSING_ID}/photos`, await smallPng())).json()).toMatchObject({ status: 404, code: 'spots.not_found' });
    // A reference spot (a boat ramp of the USGS dataset) belongs to nobody: it takes no photos, not even from an admin.
    const ramp = (await t.database.pool.query("SELECT id FROM spots WHERE owner_id IS NULL AND kind = 'BoatRamp' LIMIT 1")).rows[0].id as string;
    for (const who of [owner, admin]) {
      const refused = await sendPhoto(t, who, `/api/spots/${ramp}/photos`, await smallPng());
      expect(refused.json()).toMatchObject({ status: 403, code: 'photos.not_owner', detail: expect.stringContaining('nobody owns') });
    }
    expect((await t.database.pool.query('SELECT count(*)::int AS n FROM photos WHERE record_id = $1', [ramp])).rows[0].n).toBe(0);
  });

  it('an avatar is seen as its profile is', async () => {
    const user = await createUser(t);
    const avatar = await uploadPhoto(t, user, '/api/userprofile/me/avatar', await smallPng(), { method: 'PUT' });
    expect((await get(stranger, `/api/userprofile/${user.userId}`)).json().avatar).toMatchObject({ id: avatar.id, thumbnailUrl: avatar.thumbnailUrl });
    expect((await get(stranger, avatar.thumbnailUrl)).statusCode).toBe(200);
    await t.app.inject({ method: 'PATCH', url: '/api/userprofile/me', headers: user.headers, payload: { visibility: 'Private' } });
    expect((await get(stranger, avatar.thumbnailUrl)).json()).toMatchObject({ status: 403, code: 'profiles.not_visible' });
    expect((await get(user, avatar.thumbnailUrl)).statusCode).toBe(200);
  });
});

describe('photos in the feeds', () => {
  let feeder: TestUser;
  let reader: TestUser;
  beforeAll(async () => {
    [feeder, reader] = await Promise.all([createUser(t), createUser(t)]);
  });
  const ids = (list: Array<{ id: string }>) => list.map((item) => item.id);

  it('the entry feed lists each entry’s photos, in order, with one statement for the page whatever its size', async () => {
    const bare = await createEntry(t, feeder, { visibility: 'Public' });
    const two = await createEntry(t, feeder, { visibility: 'Public' });
    const first = await uploadPhoto(t, feeder, `/api/fishinglog/entries/${two.id}/photos`);
    const second = await uploadPhoto(t, feeder, `/api/fishinglog/entries/${two.id}/photos`);
    const one = await createEntry(t, feeder, { visibility: 'Public' });
    const only = await uploadPhoto(t, feeder, `/api/fishinglog/entries/${one.id}/photos`);
    const url = (pageSize: number) => `/api/fishinglog/entries?ownerId=${feeder.userId}&pageSize=${pageSize}`;

    const page = (await get(reader, url(3))).json() as Array<{ id: string; photos: Array<{ id: string; cover: boolean }> }>;
    const byId = new Map(page.map((item) => [item.id, item.photos]));
    expect(byId.get(bare.id)).toEqual([]);
    const listed = ({ suggestedLocation: _, ...photo }: typeof first, cover: boolean) => ({ ...photo, cover });
    expect(byId.get(two.id)).toEqual([listed(first, true), listed(second, false)]);
    expect(ids(byId.get(one.id)!)).toEqual([only.id]);

    const statementsFor = async (pageSize: number) => (await recordStatements(() => get(reader, url(pageSize)))).length;
    expect(await statementsFor(3)).toBe(await statementsFor(1));
  });

  it('the post feed lists each post’s photos (a held one to its author only), with one statement for the page whatever its size', async () => {
    const plain = await createPost(t, feeder, { text: 'No photo today', visibility: 'Public' });
    const shown = await createPost(t, feeder, { text: 'Two pike', visibility: 'Public' });
    const published = await uploadPhoto(t, feeder, `/api/social/posts/${shown.id}/photos`);
    const held = await uploadPhoto(t, feeder, `/api/social/posts/${shown.id}/photos`);
    await setPhotoVerdict(t, held.id, 'PendingReview');
    const url = (pageSize: number) => `/api/social/posts?authorId=${feeder.userId}&pageSize=${pageSize}`;

    const seen = new Map(((await get(reader, url(3))).json() as Array<{ id: string; photos: Array<{ id: string }> }>).map((post) => [post.id, post.photos]));
    expect(seen.get(plain.id)).toEqual([]);
    expect(seen.get(shown.id)).toEqual([expect.objectContaining({ id: published.id, cover: true, moderationStatus: 'Published', displayUrl: published.displayUrl })]);
    const own = new Map(((await get(feeder, url(3))).json() as Array<{ id: string; photos: Array<{ id: string }> }>).map((post) => [post.id, post.photos]));
    expect(own.get(shown.id)).toEqual([expect.objectContaining({ id: published.id }), expect.objectContaining({ id: held.id, moderationStatus: 'PendingReview' })]);

    await createPost(t, feeder, { text: 'A third post, for a full page of three', visibility: 'Public' });
    const statementsFor = async (pageSize: number) => (await recordStatements(() => get(reader, url(pageSize)))).length;
    expect(await statementsFor(3)).toBe(await statementsFor(1));
  });
});

describe('the OpenAPI document', () => {
  it('groups the photo uploads and downloads under the described photos tag', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      tags: Array<{ name: string; description?: string }>;
      paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
    };
    expect(doc.tags.find((tag) => tag.name === 'photos')?.description).toContain('uploading');
    const tagged = Object.values(doc.paths)
      .flatMap((operations) => Object.values(operations))
      .filter((op) => op.tags?.includes('photos'))
      .map((op) => op.operationId)
      .sort();
    expect(tagged).toEqual(
      ['deleteMyAvatar', 'deletePhoto', 'getPhoto', 'movePhoto', 'putMyAvatar', 'setCoverPhoto', 'uploadCatchPhoto', 'uploadEntryPhoto', 'uploadFishingReportPhoto', 'uploadPostPhoto', 'uploadSpotPhoto'].sort(),
    );
  });
});
