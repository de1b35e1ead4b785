import { serviceDeps } from '../../core/service-deps.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID, befriend, createPost, addToCircle, requestFriendship } from '../../../test/factories.js';
import type { Db } from '../../core/db/client.js';
import { addComment } from './comments.service.js';

let t: TestApp;
let author: TestUser;
let stranger: TestUser;
let pendingFriend: TestUser;
let friend: TestUser;
let circleMember: TestUser;
let admin: TestUser;
let friendsPost: string;
let circlePost: string;

beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t);
  stranger = await createUser(t);
  pendingFriend = await createUser(t);
  friend = await createUser(t);
  circleMember = await createUser(t);
  admin = await createUser(t, { role: 'Admin' });
  await requestFriendship(t, author, pendingFriend);
  await befriend(t, author, friend);
  await befriend(t, author, circleMember);
  await addToCircle(t, author, circleMember);
  friendsPost = (await createPost(t, author, { text: 'Friends only: the secret spot', visibility: 'Friends' })).id;
  circlePost = (await createPost(t, author, { text: 'Circle only: the secret lure', visibility: 'Circle' })).id;
});
afterAll(async () => {
  await t?.close();
});

const comment = (user: TestUser, postId: string, text: string) =>
  t.app.inject({ method: 'POST', url: `/api/social/posts/${postId}/comments`, headers: user.headers, payload: { text } });
const list = (user: TestUser, postId: string, query = '') => t.app.inject({ method: 'GET', url: `/api/social/posts/${postId}/comments${query}`, headers: user.headers });
const post = async (user: TestUser, id: string) => (await t.app.inject({ method: 'GET', url: `/api/social/posts/${id}`, headers: user.headers })).json();

describe('visibility of comments follows the post', () => {
  const who = () => ({ stranger, pendingFriend, friend, circleMember, author });
  const cases = [
    ['Friends', ['friend', 'circleMember', 'author']],
    ['Circle', ['circleMember', 'author']],
  ] as const;

  it.each(cases)('on a %s post, reading and commenting', async (visibility, allowed) => {
    const postId = visibility === 'Friends' ? friendsPost : circlePost;
    for (const [name, user] of Object.entries(who())) {
      const read = await list(user, postId);
      const write = await comment(user, postId, `Hello from ${name}`);
      if ((allowed as readonly string[]).includes(name)) {
        expect(read.statusCode, name).toBe(200);
        expect(write.statusCode, name).toBe(201);
      } else {
        expect(read.statusCode, name).toBe(403);
        expect(read.json().code).toBe('social.post_not_visible');
        expect(write.statusCode, name).toBe(403);
      }
    }
    const seen = await list(author, postId, '?pageSize=100');
    expect(seen.json().map((c: { text: string }) => c.text)).toEqual(allowed.map((name) => `Hello from ${name}`));
    expect((await post(author, postId)).commentCount).toBe(allowed.length);
  });
});

describe('POST /api/social/posts/{id}/comments', () => {
  it('answers the comment with its author and status', async () => {
    const res = await comment(friend, friendsPost, 'What lure?');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      postId: friendsPost,
      author: { id: friend.userId, username: friend.username },
      text: 'What lure?',
      moderationStatus: 'Published',
      moderationReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('holds a flagged comment: only its author sees it, it is not counted, and it waits in the queue', async () => {
    const target = (await createPost(t, author, { text: 'Comment on this' })).id;
    const res = await comment(friend, target, 'Go back to your country');
    expect(res.json()).toMatchObject({ moderationStatus: 'PendingReview' });
    const commentId = res.json().id;
    expect((await list(friend, target)).json().map((c: { id: string }) => c.id)).toEqual([commentId]);
    expect((await list(author, target)).json()).toEqual([]);
    expect((await list(stranger, target)).json()).toEqual([]);
    expect((await post(author, target)).commentCount).toBe(0);
    const queue = await t.app.inject({ method: 'GET', url: '/api/admin/moderation/pending?contentType=comment', headers: admin.headers });
    expect(queue.json()).toEqual(expect.arrayContaining([expect.objectContaining({ contentType: 'Comment', contentId: commentId, postId: target, categories: ['hate'] })]));
  });

  it('rejects a comment that breaks a rejecting rule, telling its author why', async () => {
    const rule = await t.app.inject({
      method: 'POST',
      url: '/api/admin/moderation-rules',
      headers: admin.headers,
      payload: { name: 'No phone numbers', kind: 'regex', pattern: '\\+?\\d{3}[ -]?\\d{3}[ -]?\\d{4}', appliesTo: ['comment'], action: 'reject', reason: 'Do not share phone numbers in comments.' },
    });
    expect(rule.statusCode).toBe(201);
    const target = (await createPost(t, author, { text: 'Call me maybe 555 123 4567' })).id;
    expect((await post(author, target)).moderationStatus).toBe('Published'); // the rule is for comments only
    const res = await comment(friend, target, 'Call me at 555-123-4567');
    expect(res.json()).toMatchObject({ moderationStatus: 'Rejected', moderationReason: 'Do not share phone numbers in comments.' });
    const forOthers = (await list(author, target)).json();
    expect(forOthers).toEqual([]);
    const own = (await list(friend, target)).json();
    expect(own).toEqual([expect.objectContaining({ moderationStatus: 'Rejected', moderationReason: 'Do not share phone numbers in comments.' })]);
    const stats = await t.app.inject({ method: 'GET', url: `/api/admin/moderation-rules/${rule.json().id}`, headers: admin.headers });
    expect(stats.json().usage.matchCount).toBe(1);
  });

  it('needs the post published (409), existing (404), a good body (400) and a token (401)', async () => {
    const held = await createPost(t, author, { text: 'buy followers here' });
    expect(held.moderationStatus).toBe('PendingReview');
    const res = await comment(author, held.id, 'bump');
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('social.post_not_published');
    expect((await comment(friend, MISSING_ID, 'hi')).statusCode).toBe(404);
    for (const payload of [{}, { text: '' }, { text: ' ' }, { text: 'x'.repeat(2001) }, { text: 'ok', extra: 1 }]) {
      const bad = await t.app.inject({ method: 'POST', url: `/api/social/posts/${friendsPost}/comments`, headers: friend.headers, payload });
      expect(bad.statusCode).toBe(400);
    }
    expect((await t.app.inject({ method: 'POST', url: `/api/social/posts/${friendsPost}/comments`, payload: { text: 'hi' } })).statusCode).toBe(401);
  });
});

describe('GET /api/social/posts/{id}/comments', () => {
  it('lists oldest first, paginated', async () => {
    const target = (await createPost(t, author, { text: 'Many comments' })).id;
    for (let i = 1; i <= 5; i++) await comment(friend, target, `Comment ${i}`);
    const res = await list(stranger, target, '?pageSize=2&page=2');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((c: { text: string }) => c.text)).toEqual(['Comment 3', 'Comment 4']);
    expect(res.headers['x-total-count']).toBe('5');
    expect(res.headers.link).toContain('rel="prev"');
  });

  it('answers 404, 400 and 401', async () => {
    expect((await list(friend, MISSING_ID)).statusCode).toBe(404);
    expect((await list(friend, 'abc')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/social/posts/${friendsPost}/comments` })).statusCode).toBe(401);
  });
});

describe('editing and deleting comments', () => {
  it('lets the author edit (moderated again) and nobody else (403)', async () => {
    const target = (await createPost(t, author, { text: 'Edit below' })).id;
    const created = (await comment(friend, target, 'Great fish')).json();
    const edit = (user: TestUser, text: string) => t.app.inject({ method: 'PUT', url: `/api/social/comments/${created.id}`, headers: user.headers, payload: { text } });
    expect((await edit(author, 'Not yours')).statusCode).toBe(403);
    const flagged = await edit(friend, 'Great fish, bitch');
    expect(flagged.json()).toMatchObject({ moderationStatus: 'PendingReview', text: 'Great fish, bitch' });
    expect((await post(author, target)).commentCount).toBe(0);
    const fixed = await edit(friend, 'Great fish!');
    expect(fixed.json()).toMatchObject({ moderationStatus: 'Published' });
    expect((await post(author, target)).commentCount).toBe(1);
    expect((await t.app.inject({ method: 'PUT', url: `/api/social/comments/${MISSING_ID}`, headers: friend.headers, payload: { text: 'x' } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: `/api/social/comments/${created.id}`, headers: friend.headers, payload: { text: '' } })).statusCode).toBe(400);
  });

  it("lets the comment's author or the post's author delete it, and nobody else", async () => {
    const target = (await createPost(t, author, { text: 'Delete below' })).id;
    const first = (await comment(friend, target, 'One')).json();
    const second = (await comment(stranger, target, 'Two')).json();
    const del = (user: TestUser, id: string) => t.app.inject({ method: 'DELETE', url: `/api/social/comments/${id}`, headers: user.headers });
    const denied = await del(stranger, first.id);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('social.cannot_delete_comment');
    expect((await del(friend, first.id)).statusCode).toBe(204);
    expect((await del(author, second.id)).statusCode).toBe(204);
    expect((await post(author, target)).commentCount).toBe(0);
    expect((await del(author, second.id)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/social/comments/${first.id}` })).statusCode).toBe(401);
  });
});

describe('a post deleted while a comment on it is moderated', () => {
  it('answers the 404 of a missing post, not a conflict, and stores nothing', async () => {
    const post = await createPost(t, author, { text: 'Gone soon', visibility: 'Public' });
    // The race made certain: the post disappears just before the comment's transaction.
    const db = new Proxy(t.database.db, {
      get(target, prop, receiver) {
        if (prop !== 'transaction') return Reflect.get(target, prop, receiver);
        return async (work: Parameters<Db['transaction']>[0]) => {
          await t.database.pool.query('DELETE FROM posts WHERE id = $1', [post.id]);
          return target.transaction(work);
        };
      },
    });
    const error = await addComment({ ...serviceDeps(t), db }, friend.userId, post.id, 'Nice fish!').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'AppError', status: 404, code: 'social.post_not_found' });
    const left = await t.database.pool.query('SELECT count(*)::int AS n FROM post_comments WHERE post_id = $1', [post.id]);
    expect(left.rows[0].n).toBe(0);
  });
});
