import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID, createPost } from '../../../test/factories.js';

/** Filing user reports (complaints) about posts, comments and users. */

let t: TestApp;
let author: TestUser;
let reporter: TestUser;
let admin: TestUser;
let publicPost: string;
let privatePost: string;
let comment: string;

beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t);
  reporter = await createUser(t);
  admin = await createUser(t, { role: 'Admin' });
  publicPost = (await createPost(t, author, { text: 'Selling my old reel' })).id;
  privatePost = (await createPost(t, author, { text: 'Private notes', visibility: 'Private' })).id;
  comment = (await t.app.inject({ method: 'POST', url: `/api/social/posts/${publicPost}/comments`, headers: author.headers, payload: { text: 'Still available' } })).json().id;
});
afterAll(async () => {
  await t?.close();
});

const report = (user: TestUser, kind: 'posts' | 'comments' | 'users', id: string, payload: Record<string, unknown> = { reason: 'Spam' }) =>
  t.app.inject({ method: 'POST', url: `/api/social/${kind}/${id}/report`, headers: user.headers, payload });

describe('POST /api/social/posts/{id}/report', () => {
  it('files a report, once while it is open', async () => {
    const res = await report(reporter, 'posts', publicPost, { reason: 'Spam', details: ' Same ad posted ten times ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(String), targetType: 'Post', targetId: publicPost, reason: 'Spam', details: 'Same ad posted ten times', status: 'Open', createdAt: expect.any(String) });
    const again = await report(reporter, 'posts', publicPost, { reason: 'Harassment' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('reports.already_open');
    expect((await report(admin, 'posts', publicPost)).statusCode).toBe(201);
  });

  it('lets one of several simultaneous duplicates through', async () => {
    const other = await createUser(t);
    const results = await Promise.all(Array.from({ length: 5 }, () => report(other, 'posts', publicPost, { reason: 'Other' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('can report again once the report is resolved', async () => {
    const user = await createUser(t);
    const first = await report(user, 'posts', publicPost);
    await t.app.inject({ method: 'POST', url: `/api/admin/reports/${first.json().id}/resolve`, headers: admin.headers, payload: { resolution: 'NoViolation' } });
    expect((await report(user, 'posts', publicPost)).statusCode).toBe(201);
  });

  it('needs the post visible (403), not yours (409), existing (404)', async () => {
    expect((await report(reporter, 'posts', privatePost)).json()).toMatchObject({ status: 403, code: 'social.post_not_visible' });
    expect((await report(author, 'posts', publicPost)).json()).toMatchObject({ status: 409, code: 'reports.own_content' });
    expect((await report(reporter, 'posts', MISSING_ID)).statusCode).toBe(404);
  });
});

describe('POST /api/social/comments/{id}/report', () => {
  it('files a report about a visible comment, keeping what it said', async () => {
    const res = await report(reporter, 'comments', comment, { reason: 'Harassment' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ targetType: 'Comment', targetId: comment, reason: 'Harassment', details: null });
    const stored = await t.database.pool.query('SELECT snapshot, target_user_id FROM user_reports WHERE id = $1', [res.json().id]);
    expect(stored.rows[0]).toEqual({ snapshot: { text: 'Still available', postId: publicPost, username: author.username }, target_user_id: author.userId });
  });

  it('refuses your own comment (409), a comment you cannot see (403) and unknown ones (404)', async () => {
    expect((await report(author, 'comments', comment)).statusCode).toBe(409);
    const held = await t.app.inject({ method: 'POST', url: `/api/social/posts/${publicPost}/comments`, headers: author.headers, payload: { text: 'buy followers cheap' } });
    expect(held.json().moderationStatus).toBe('PendingReview');
    expect((await report(reporter, 'comments', held.json().id)).json()).toMatchObject({ status: 403, code: 'social.comment_not_visible' });
    expect((await report(reporter, 'comments', MISSING_ID)).json().code).toBe('social.comment_not_found');
  });
});

describe('POST /api/social/users/{id}/report', () => {
  it('files a report about a user, not yourself, not an unknown one', async () => {
    const res = await report(reporter, 'users', author.userId, { reason: 'Impersonation', details: 'Pretends to be a DNR officer' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ targetType: 'User', targetId: author.userId, reason: 'Impersonation' });
    expect((await report(reporter, 'users', reporter.userId)).json()).toMatchObject({ status: 409, code: 'reports.self' });
    expect((await report(reporter, 'users', MISSING_ID)).statusCode).toBe(404);
  });
});

describe('bad requests', () => {
  it.each([
    [{}, '/reason'],
    [{ reason: 'Boring' }, '/reason'],
    [{ reason: 'Spam', details: 'x'.repeat(2001) }, '/details'],
    [{ reason: 'Spam', status: 'Resolved' }, '/status'],
  ])('refuses %j (400 naming %s)', async (payload, pointer) => {
    const res = await report(reporter, 'users', author.userId, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('needs a token and a well-formed id', async () => {
    for (const kind of ['posts', 'comments', 'users']) {
      expect((await t.app.inject({ method: 'POST', url: `/api/social/${kind}/${MISSING_ID}/report`, payload: { reason: 'Spam' } })).statusCode).toBe(401);
      expect((await report(reporter, kind as 'posts', 'x1')).statusCode).toBe(400);
    }
  });
});
