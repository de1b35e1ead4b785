import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createPost, createUser, grant, MISSING_ID, setPhotoVerdict, uploadPhoto, type TestUser, createFishingReport } from '../../../test/factories.js';

/** The moderators' review of post and report photos: the queue, approving, rejecting, who may. */

let t: TestApp;
let dataDir: string;
let owner: TestUser;
let modGranted: TestUser;
let modNone: TestUser;
let standard: TestUser;
let author: TestUser;
let reader: TestUser;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'fishlog-photos-admin-test-'));
  t = await createTestApp({ env: { FISHLOG_DATA_DIR: dataDir, FISHLOG_PHOTO_UPLOADS_PER_MINUTE: '10000' } });
  [owner, modGranted, modNone, standard, author, reader] = await Promise.all([
    createUser(t, { role: 'Owner' }),
    createUser(t, { role: 'Moderator' }),
    createUser(t, { role: 'Moderator' }),
    createUser(t),
    createUser(t, { username: 'photo_pete' }),
    createUser(t),
  ]);
  for (const permission of ['Content.Moderate', 'moderation.approve', 'moderation.reject']) await grant(t, owner, modGranted, permission, true);
});

afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const queue = (user: TestUser, query = '') => t.app.inject({ method: 'GET', url: `/api/admin/photos/review${query}`, headers: user.headers });
const decide = (user: TestUser, id: string, decision: 'approve' | 'reject', reason = 'Checked against the community rules') =>
  t.app.inject({ method: 'POST', url: `/api/admin/photos/${id}/${decision}`, headers: user.headers, payload: { reason } });
const read = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });

async function postPhoto(status: 'PendingReview' | 'Rejected' | 'Published' = 'PendingReview') {
  const post = await createPost(t, author, { text: 'Pike on a spoon', visibility: 'Public' });
  const photo = await uploadPhoto(t, author, `/api/social/posts/${post.id}/photos`);
  if (status !== 'Published') await setPhotoVerdict(t, photo.id, status);
  return { post, photo };
}

describe('who may review photos', () => {
  it('a plain user and a moderator without the permissions get 403 on the queue, the files and the decisions; the holder 200', async () => {
    const { photo } = await postPhoto();
    for (const user of [standard, modNone]) {
      for (const res of [await queue(user), await read(user, `/api/admin/photos/${photo.id}/thumbnail`), await decide(user, photo.id, 'approve'), await decide(user, photo.id, 'reject')]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ status: 403, code: 'access.permission_denied' });
      }
    }
    const denied = await decide(standard, photo.id, 'reject');
    expect(denied.json().detail).toContain('moderation.reject');
    expect((await queue(modGranted)).statusCode).toBe(200);
    expect((await t.database.pool.query('SELECT status FROM photos WHERE id = $1', [photo.id])).rows[0].status).toBe('PendingReview');
  });

  it('a moderator granted only Content.Approve reads the queue and the files (whoever may act on the queue sees what awaits them) but may not reject', async () => {
    const approver = await createUser(t, { role: 'Moderator' });
    await grant(t, owner, approver, 'Content.Approve', true);
    const { photo } = await postPhoto();
    const listed = await queue(approver, '?state=PendingReview');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().map((p: { id: string }) => p.id)).toContain(photo.id);
    const file = await read(approver, `/api/admin/photos/${photo.id}/display`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(file.rawPayload).metadata()).format).toBe('jpeg');
    const refused = await decide(approver, photo.id, 'reject');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'access.permission_denied', detail: expect.stringContaining('moderation.reject') });
  });

  it('needs a token (401)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/photos/review' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/photos/${MISSING_ID}/approve`, payload: { reason: 'x' } })).statusCode).toBe(401);
  });
});

describe('a held post’s photos in the moderation queue', () => {
  it('are listed on its queue item whatever their status, linked to the review endpoints, which an approve-only moderator reads', async () => {
    const post = await createPost(t, author, { text: 'Pike on a spoon, you idiot asshole', visibility: 'Public' });
    expect(post.moderationStatus).toBe('PendingReview');
    const published = await uploadPhoto(t, author, `/api/social/posts/${post.id}/photos`);
    const held = await uploadPhoto(t, author, `/api/social/posts/${post.id}/photos`);
    await setPhotoVerdict(t, held.id, 'PendingReview');
    const approver = await createUser(t, { role: 'Moderator' });
    await grant(t, owner, approver, 'Content.Approve', true);

    const res = await t.app.inject({ method: 'GET', url: '/api/admin/moderation/pending?pageSize=100', headers: approver.headers });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json().find((i: { contentId: string }) => i.contentId === post.id);
    expect(item.photos).toEqual([
      { ...published, suggestedLocation: undefined, cover: true, moderationStatus: 'Published', displayUrl: `/api/admin/photos/${published.id}/display`, thumbnailUrl: `/api/admin/photos/${published.id}/thumbnail` },
      { ...held, suggestedLocation: undefined, cover: false, moderationStatus: 'PendingReview', displayUrl: `/api/admin/photos/${held.id}/display`, thumbnailUrl: `/api/admin/photos/${held.id}/thumbnail` },
    ].map(({ suggestedLocation: _, ...photo }) => photo));
    for (const photo of item.photos as Array<{ thumbnailUrl: string }>) {
      const file = await read(approver, photo.thumbnailUrl);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/jpeg');
    }
    // Readers get neither photo while the post is held: only moderators look at them, through the review endpoints.
    for (const photo of [published, held]) {
      const refused = await read(reader, `/api/photos/${photo.id}/thumbnail`);
      expect({ status: refused.statusCode, code: refused.json().code }).toEqual({ status: 403, code: 'social.post_not_visible' });
    }
  });
});

describe('GET /api/admin/photos/review', () => {
  it('lists held and rejected post and report photos newest first, with their record and owner, filtered and paginated', async () => {
    const isolated = await createTestApp({ env: { FISHLOG_DATA_DIR: path.join(dataDir, 'isolated'), FISHLOG_PHOTO_UPLOADS_PER_MINUTE: '10000' } });
    try {
      const boss = await createUser(isolated, { role: 'Admin' });
      const writer = await createUser(isolated, { username: 'writer_wanda' });
      const post = await createPost(isolated, writer, { text: 'Two photos', visibility: 'Public' });
      const published = await uploadPhoto(isolated, writer, `/api/social/posts/${post.id}/photos`);
      const held = await uploadPhoto(isolated, writer, `/api/social/posts/${post.id}/photos`);
      const report = await createFishingReport(isolated, writer);
      const rejected = await uploadPhoto(isolated, writer, `/api/reports/${report.id}/photos`);
      await setPhotoVerdict(isolated, held.id, 'PendingReview');
      await setPhotoVerdict(isolated, rejected.id, 'Rejected');

      const res = await isolated.app.inject({ method: 'GET', url: '/api/admin/photos/review?pageSize=1', headers: boss.headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['x-total-count']).toBe('2');
      expect(res.headers.link).toContain('rel="next"');
      expect(res.json()).toEqual([
        {
          id: rejected.id,
          moderationStatus: 'Rejected',
          record: { kind: 'FishingReport', id: report.id, path: `/api/reports/${report.id}`, position: 1, photoCount: 1 },
          owner: { id: writer.userId, username: 'writer_wanda' },
          width: rejected.width,
          height: rejected.height,
          bytes: expect.any(Number),
          displayUrl: `/api/admin/photos/${rejected.id}/display`,
          thumbnailUrl: `/api/admin/photos/${rejected.id}/thumbnail`,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      ]);
      const second = (await isolated.app.inject({ method: 'GET', url: '/api/admin/photos/review?page=2&pageSize=1', headers: boss.headers })).json();
      expect(second).toMatchObject([{ id: held.id, moderationStatus: 'PendingReview', record: { kind: 'Post', id: post.id, path: `/api/social/posts/${post.id}`, position: 2, photoCount: 2 } }]);
      expect(second[0].id).not.toBe(published.id);

      const byState = (await isolated.app.inject({ method: 'GET', url: '/api/admin/photos/review?state=PendingReview', headers: boss.headers })).json();
      expect(byState.map((p: { id: string }) => p.id)).toEqual([held.id]);
      const byKind = (await isolated.app.inject({ method: 'GET', url: '/api/admin/photos/review?kind=FishingReport', headers: boss.headers })).json();
      expect(byKind.map((p: { id: string }) => p.id)).toEqual([rejected.id]);
      const bad = await isolated.app.inject({ method: 'GET', url: '/api/admin/photos/review?kind=Catch', headers: boss.headers });
      expect(bad.statusCode).toBe(400);

      const audit = await auditEntries(isolated, 'photos.queue_viewed');
      expect(audit.at(-1)).toMatchObject({ actor_user_id: boss.userId, after: { state: null, kind: 'FishingReport', page: 1, count: 1 } });
    } finally {
      await isolated.close();
    }
  });

  it('shows a held photo to the moderator (the file), while readers get a 404', async () => {
    const { photo } = await postPhoto();
    const file = await read(modGranted, `/api/admin/photos/${photo.id}/thumbnail`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['cache-control']).toBe('private, no-cache');
    expect((await sharp(file.rawPayload).metadata()).format).toBe('jpeg');
    expect((await read(reader, photo.thumbnailUrl)).json()).toMatchObject({ status: 404, code: 'photos.not_found' });
    expect((await read(modGranted, `/api/admin/photos/${MISSING_ID}/display`)).json()).toMatchObject({ status: 404, code: 'photos.not_found' });
  });
});

describe('approving and rejecting a photo', () => {
  it('approve publishes a held photo: readers see it in the post and can download it; audit-logged with the reason', async () => {
    const { post, photo } = await postPhoto();
    expect((await read(reader, `/api/social/posts/${post.id}`)).json().photos).toEqual([]);
    const res = await decide(modGranted, photo.id, 'approve', 'Just a pike');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ photoId: photo.id, recordKind: 'Post', recordId: post.id, moderationStatus: 'Published', decidedBy: modGranted.userId, decidedAt: expect.any(String) });
    expect((await read(reader, photo.displayUrl)).statusCode).toBe(200);
    expect((await read(reader, `/api/social/posts/${post.id}`)).json().photos).toMatchObject([{ id: photo.id, moderationStatus: 'Published' }]);
    const [entry] = (await auditEntries(t, 'photos.photo_approved')).filter((row) => row.target_id === photo.id);
    expect(entry).toMatchObject({ actor_user_id: modGranted.userId, target_type: 'photo', reason: 'Just a pike', before: { status: 'PendingReview' }, after: { status: 'Published', ownerId: author.userId, recordKind: 'Post', recordId: post.id } });
  });

  it('reject takes a published photo down: a 404 for readers, gone from the post; its owner still sees it Rejected', async () => {
    const { post, photo } = await postPhoto('Published');
    expect((await read(reader, photo.displayUrl)).statusCode).toBe(200);
    const res = await decide(modGranted, photo.id, 'reject', '  Shows a licence plate  ');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ photoId: photo.id, moderationStatus: 'Rejected', decidedBy: modGranted.userId });
    expect((await read(reader, photo.displayUrl)).json()).toMatchObject({ status: 404, code: 'photos.not_found' });
    expect((await read(reader, `/api/social/posts/${post.id}`)).json().photos).toEqual([]);
    expect((await read(author, `/api/social/posts/${post.id}`)).json().photos).toMatchObject([{ id: photo.id, moderationStatus: 'Rejected' }]);
    const [entry] = (await auditEntries(t, 'photos.photo_rejected')).filter((row) => row.target_id === photo.id);
    expect(entry).toMatchObject({ reason: 'Shows a licence plate', before: { status: 'Published' }, after: { status: 'Rejected' } });
    // The author is told, with the record's path; nobody else.
    const notes = (await read(author, '/api/notifications')).json() as Array<{ type: string; path: string; body: string }>;
    expect(notes.find((n) => n.type === 'moderation.photo_rejected')).toMatchObject({ path: `/api/social/posts/${post.id}`, body: expect.stringContaining('Shows a licence plate') });
    const others = (await read(reader, '/api/notifications')).json() as Array<{ type: string }>;
    expect(others.filter((n) => n.type === 'moderation.photo_rejected')).toEqual([]);
  });

  it('409 when already decided, 404 for a missing photo or one not moderated, 400 without a reason', async () => {
    const { photo } = await postPhoto('Rejected');
    expect((await decide(modGranted, photo.id, 'reject')).json()).toMatchObject({ status: 409, code: 'photos.already_rejected' });
    expect((await decide(modGranted, photo.id, 'approve')).statusCode).toBe(200);
    expect((await decide(modGranted, photo.id, 'approve')).json()).toMatchObject({ status: 409, code: 'photos.already_published', detail: expect.stringContaining('reject it') });
    expect((await decide(modGranted, MISSING_ID, 'approve')).json()).toMatchObject({ status: 404, code: 'photos.not_found', detail: expect.stringContaining(MISSING_ID) });
    const avatar = await uploadPhoto(t, author, '/api/userprofile/me/avatar', undefined, { method: 'PUT' });
    expect((await decide(modGranted, avatar.id, 'reject')).json()).toMatchObject({ status: 404, code: 'photos.not_found' });
    const blank = await t.app.inject({ method: 'POST', url: `/api/admin/photos/${photo.id}/reject`, headers: modGranted.headers, payload: { reason: '   ' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ status: 400 });
  });
});
