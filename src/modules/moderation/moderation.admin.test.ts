import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID, auditCount, auditEntries, grant, befriend, createPost } from '../../../test/factories.js';

/** The review queue and the decisions: who may, what the author sees, what the audit log keeps. */

let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let adminDenied: TestUser;
let modNone: TestUser;
let modGranted: TestUser;
let modApproveOnly: TestUser;
let standard: TestUser;
let author: TestUser;
let friend: TestUser;


beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { role: 'Owner' });
  admin = await createUser(t, { role: 'Admin' });
  adminDenied = await createUser(t, { role: 'Admin' });
  modNone = await createUser(t, { role: 'Moderator' });
  modGranted = await createUser(t, { role: 'Moderator' });
  modApproveOnly = await createUser(t, { role: 'Moderator' });
  standard = await createUser(t);
  author = await createUser(t, { username: 'held_harry' });
  friend = await createUser(t);
  await befriend(t, author, friend);
  // Grants in both spellings: the catalogue's aliases make them one permission each.
  await grant(t, owner, adminDenied, 'moderation.approve', false);
  await grant(t, owner, adminDenied, 'Content.Moderate', false);
  await grant(t, owner, modGranted, 'Content.Approve', true);
  await grant(t, owner, modGranted, 'moderation.reject', true);
  await grant(t, owner, modApproveOnly, 'moderation.approve', true);
});
afterAll(async () => {
  await t?.close();
});

const flagged = async (text = 'Catch of the day, you idiot asshole', visibility = 'Friends') => (await createPost(t, author, { text, visibility })).id;
const approve = (user: TestUser, type: 'post' | 'comment', id: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/admin/moderation/${type}/${id}/approve`, headers: user.headers, ...(payload ? { payload } : {}) });
const reject = (user: TestUser, type: 'post' | 'comment', id: string, reason = 'Insults are not allowed here.') =>
  t.app.inject({ method: 'POST', url: `/api/admin/moderation/${type}/${id}/reject`, headers: user.headers, payload: { reason } });
const pending = (user: TestUser, query = '') => t.app.inject({ method: 'GET', url: `/api/admin/moderation/pending${query}`, headers: user.headers });
const view = (user: TestUser, id: string) => t.app.inject({ method: 'GET', url: `/api/social/posts/${id}`, headers: user.headers });

describe('who may see the queue and decide', () => {
  const roles = () => ({ owner, admin, adminDenied, modNone, modGranted, modApproveOnly, standard });
  const allowed = {
    // Whoever may approve or reject may read what awaits them (any of the permissions that act on the queue).
    queue: ['owner', 'admin', 'modGranted', 'modApproveOnly'],
    approve: ['owner', 'admin', 'modGranted', 'modApproveOnly'],
    reject: ['owner', 'admin', 'modGranted'],
  };

  it.each(['owner', 'admin', 'adminDenied', 'modNone', 'modGranted', 'modApproveOnly', 'standard'])('queue for %s', async (name) => {
    const res = await pending(roles()[name as keyof ReturnType<typeof roles>]);
    if (allowed.queue.includes(name)) expect(res.statusCode).toBe(200);
    else {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('access.permission_denied');
    }
  });

  it.each(['owner', 'admin', 'adminDenied', 'modNone', 'modGranted', 'modApproveOnly', 'standard'])('approve and reject by %s', async (name) => {
    const user = roles()[name as keyof ReturnType<typeof roles>];
    const a = await flagged();
    const r = await flagged();
    const approved = await approve(user, 'post', a);
    const rejected = await reject(user, 'post', r);
    expect(approved.statusCode, 'approve').toBe(allowed.approve.includes(name) ? 200 : 403);
    expect(rejected.statusCode, 'reject').toBe(allowed.reject.includes(name) ? 200 : 403);
    if (approved.statusCode === 403) {
      expect(approved.json().detail).toContain('moderation.approve');
      expect((await view(author, a)).json().moderationStatus).toBe('PendingReview');
    }
    if (rejected.statusCode === 403) expect(rejected.json().detail).toContain('moderation.reject');
  });

  it('admits a Moderator granted only Content.Approve to the queue, with the held post in it, and names both permissions to one with neither', async () => {
    const id = await flagged('Approve-only moderators see this, you idiot asshole');
    const res = await pending(modApproveOnly, '?pageSize=100');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(expect.arrayContaining([expect.objectContaining({ contentType: 'Post', contentId: id })]));
    const refused = await pending(modNone);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'access.permission_denied', detail: expect.stringContaining('Content.Approve') });
    expect(refused.json().detail).toContain('Content.Moderate');
  });

  it('needs a token (401)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/moderation/pending' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/moderation/post/${MISSING_ID}/approve` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/moderation/comment/${MISSING_ID}/reject`, payload: { reason: 'x' } })).statusCode).toBe(401);
  });
});

describe('GET /api/admin/moderation/pending', () => {
  it('lists held posts and comments oldest first with categories and scores, paginated and audit-logged', async () => {
    const isolated = await createTestApp();
    try {
      const boss = await createUser(isolated, { role: 'Admin' });
      const writer = await createUser(isolated, { username: 'writer_wanda' });
      const first = await createPost(isolated, writer, { text: 'buy followers now', photoUrls: ['https://img.example.com/a.jpg'] });
      const clean = await createPost(isolated, writer, { text: 'Clean post' });
      const comment = await isolated.app.inject({ method: 'POST', url: `/api/social/posts/${clean.id}/comments`, headers: writer.headers, payload: { text: 'send nudes' } });
      await createPost(isolated, writer, { text: 'Crypto giveaway today' });
      const before = await auditCount(isolated);
      const res = await isolated.app.inject({ method: 'GET', url: '/api/admin/moderation/pending?pageSize=2', headers: boss.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('3');
      expect(res.json()).toEqual([
        {
          id: expect.any(String),
          contentType: 'Post',
          contentId: first.id,
          postId: first.id,
          author: { id: writer.userId, username: 'writer_wanda' },
          text: 'buy followers now',
          photoUrls: ['https://img.example.com/a.jpg'],
          photos: [],
          moderationStatus: 'PendingReview',
          heldBecause: 'Flagged',
          provider: 'local',
          model: 'fishlog-wordlist-v1',
          categories: ['spam'],
          scores: expect.objectContaining({ spam: 0.75, profanity: 0 }),
          matchedRules: [],
          flaggedAt: expect.any(String),
          createdAt: expect.any(String),
        },
        expect.objectContaining({ contentType: 'Comment', contentId: comment.json().id, postId: clean.id, photoUrls: [], photos: [], categories: ['sexual'] }),
      ]);
      expect(res.body).not.toContain(writer.email);
      expect(await auditCount(isolated)).toBe(before + 1);
      expect((await auditEntries(isolated, 'moderation.queue_viewed'))[0]).toMatchObject({ actor_user_id: boss.userId });
      const comments = await isolated.app.inject({ method: 'GET', url: '/api/admin/moderation/pending?contentType=comment', headers: boss.headers });
      expect(comments.json().map((i: { contentType: string }) => i.contentType)).toEqual(['Comment']); // contentType=comment: the older spelling
      expect((await isolated.app.inject({ method: 'GET', url: '/api/admin/moderation/pending?contentType=user', headers: boss.headers })).statusCode).toBe(400);
    } finally {
      await isolated.close();
    }
  });
});

describe('decisions on posts', () => {
  it('approve publishes the post for those it is shared with, closes the queue item and writes one audit entry', async () => {
    const id = await flagged();
    expect((await view(friend, id)).statusCode).toBe(403);
    const before = await auditCount(t);
    const res = await approve(admin, 'post', id, { note: 'Banter between friends' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ contentType: 'Post', contentId: id, moderationStatus: 'Published', moderationReason: null, decidedBy: admin.userId, decidedAt: expect.any(String) });
    expect(await auditCount(t)).toBe(before + 1);
    const [entry] = (await auditEntries(t, 'moderation.post_approved')).filter((e) => e.target_id === id);
    expect(entry).toMatchObject({ actor_user_id: admin.userId, target_type: 'post', reason: 'Banter between friends', before: { status: 'PendingReview' }, after: { status: 'Published', authorId: author.userId } });
    expect((await view(friend, id)).json().moderationStatus).toBe('Published');
    const queue = await t.database.pool.query('SELECT status, decided_by, decision_reason FROM moderation_queue WHERE post_id = $1', [id]);
    expect(queue.rows[0]).toEqual({ status: 'Approved', decided_by: admin.userId, decision_reason: 'Banter between friends' });
    expect((await pending(admin, '?pageSize=100')).json().map((i: { contentId: string }) => i.contentId)).not.toContain(id);
  });

  it('approve works without a body', async () => {
    const id = await flagged();
    const res = await t.app.inject({ method: 'POST', url: `/api/admin/moderation/post/${id}/approve`, headers: owner.headers });
    expect(res.statusCode).toBe(200);
  });

  it('reject shows the author the outcome and the reason, and hides the post from everyone else', async () => {
    const id = await flagged();
    const res = await reject(modGranted, 'post', id, 'Personal insults break rule 2.');
    expect(res.json()).toMatchObject({ moderationStatus: 'Rejected', moderationReason: 'Personal insults break rule 2.', decidedBy: modGranted.userId });
    expect((await view(author, id)).json()).toMatchObject({ moderationStatus: 'Rejected', moderationReason: 'Personal insults break rule 2.' });
    expect((await view(friend, id)).statusCode).toBe(403);
    const [entry] = (await auditEntries(t, 'moderation.post_rejected')).filter((e) => e.target_id === id);
    expect(entry).toMatchObject({ actor_user_id: modGranted.userId, reason: 'Personal insults break rule 2.', before: { status: 'PendingReview' }, after: { status: 'Rejected' } });
  });

  it('can take down a published post and publish a rejected one; the same decision twice is a 409', async () => {
    const id = (await createPost(t, author, { text: 'Perfectly fine post' })).id;
    expect((await approve(admin, 'post', id)).json()).toMatchObject({ code: 'moderation.already_published', status: 409 });
    expect((await reject(admin, 'post', id)).statusCode).toBe(200);
    const twice = await reject(admin, 'post', id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('moderation.already_rejected');
    expect((await approve(admin, 'post', id)).statusCode).toBe(200);
    expect((await view(friend, id)).json()).toMatchObject({ moderationStatus: 'Published', moderationReason: null });
  });

  it('sends an edit of a post a moderator rejected back to review instead of publishing it', async () => {
    const id = await flagged();
    await reject(admin, 'post', id);
    const edit = await t.app.inject({ method: 'PATCH', url: `/api/social/posts/${id}`, headers: author.headers, payload: { text: 'A perfectly polite text now' } });
    expect(edit.json()).toMatchObject({ moderationStatus: 'PendingReview' });
    const item = (await pending(admin, '?pageSize=100')).json().find((i: { contentId: string }) => i.contentId === id);
    expect(item).toMatchObject({ heldBecause: 'EditedAfterRejection', text: 'A perfectly polite text now' });
    await approve(admin, 'post', id);
    const again = await t.app.inject({ method: 'PATCH', url: `/api/social/posts/${id}`, headers: author.headers, payload: { text: 'Polite and edited again' } });
    expect(again.json().moderationStatus).toBe('Published');
  });

  it('answers 404 for unknown content and 400 for a missing reason or bad id', async () => {
    const missing = await approve(admin, 'post', MISSING_ID);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('moderation.post_not_found');
    const id = await flagged();
    const noReason = await t.app.inject({ method: 'POST', url: `/api/admin/moderation/post/${id}/reject`, headers: admin.headers, payload: {} });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toEqual([{ pointer: '/reason', in: 'body', detail: 'is required' }]);
    expect((await reject(admin, 'post', id, '  ')).statusCode).toBe(400);
    expect((await approve(admin, 'post', 'nope')).statusCode).toBe(400);
    expect((await approve(admin, 'post', id, { note: 'ok', extra: true })).statusCode).toBe(400);
  });
});

describe('decisions on comments', () => {
  it('approve and reject comments, keeping the comment count in step', async () => {
    const postId = (await createPost(t, author, { text: 'Comment here', visibility: 'Public' })).id;
    const held = await t.app.inject({ method: 'POST', url: `/api/social/posts/${postId}/comments`, headers: friend.headers, payload: { text: 'Nice one, dickhead' } });
    const commentId = held.json().id;
    expect(held.json().moderationStatus).toBe('PendingReview');
    const count = async () => (await view(author, postId)).json().commentCount;
    expect(await count()).toBe(0);
    const approved = await approve(modGranted, 'comment', commentId);
    expect(approved.json()).toMatchObject({ contentType: 'Comment', contentId: commentId, moderationStatus: 'Published' });
    expect(await count()).toBe(1);
    const comments = await t.app.inject({ method: 'GET', url: `/api/social/posts/${postId}/comments`, headers: standard.headers });
    expect(comments.json().map((c: { id: string }) => c.id)).toEqual([commentId]);
    const rejected = await reject(admin, 'comment', commentId, 'Name-calling');
    expect(rejected.json()).toMatchObject({ moderationStatus: 'Rejected', moderationReason: 'Name-calling' });
    expect(await count()).toBe(0);
    const own = await t.app.inject({ method: 'GET', url: `/api/social/posts/${postId}/comments`, headers: friend.headers });
    expect(own.json()).toEqual([expect.objectContaining({ id: commentId, moderationStatus: 'Rejected', moderationReason: 'Name-calling' })]);
    expect((await auditEntries(t, 'moderation.comment_approved')).some((e) => e.target_id === commentId)).toBe(true);
    expect((await auditEntries(t, 'moderation.comment_rejected')).some((e) => e.target_id === commentId && e.reason === 'Name-calling')).toBe(true);
    expect((await approve(modNone, 'comment', commentId)).statusCode).toBe(403);
    expect((await approve(admin, 'comment', MISSING_ID)).json().code).toBe('moderation.comment_not_found');
  });
});
