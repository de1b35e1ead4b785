import { serviceDeps } from '../../core/service-deps.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID, befriend, createEntryWithCatch, WALLEYE, createPost, addToCircle, requestFriendship } from '../../../test/factories.js';
import type { Db } from '../../core/db/client.js';
import { MAX_FEED_OFFSET } from '../../core/http/pagination.js';
import { like as likePost, unlike as unlikePost } from './likes.service.js';
import { PgDialect } from 'drizzle-orm/pg-core';
import { relationshipsOf } from '../../core/access/visibility.js';
import { placeholder } from '../../core/db/prepared.js';
import { friendsFeedQuery } from './posts.repository.js';

let t: TestApp;
let author: TestUser;
let stranger: TestUser;
let pendingFriend: TestUser;
let friend: TestUser;
let circleMember: TestUser;
const posts = {} as Record<'Public' | 'Private' | 'Friends' | 'Circle' | 'Pending', string>;

beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t, { username: 'olivia_angler' });
  stranger = await createUser(t);
  pendingFriend = await createUser(t);
  friend = await createUser(t);
  circleMember = await createUser(t);
  await requestFriendship(t, pendingFriend, author);
  await befriend(t, author, friend);
  await befriend(t, author, circleMember);
  await addToCircle(t, author, circleMember);
  for (const visibility of ['Public', 'Private', 'Friends', 'Circle'] as const) {
    posts[visibility] = (await createPost(t, author, { text: `A ${visibility} pike at dawn`, visibility })).id;
  }
  const held = await createPost(t, author, { text: 'This fucking pike got away', visibility: 'Public' });
  expect(held.moderationStatus).toBe('PendingReview');
  posts.Pending = held.id;
});
afterAll(async () => {
  await t?.close();
});

const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });

describe('POST /api/social/posts', () => {
  it('publishes a clean post and answers it with counts, author and status', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/social/posts',
      headers: author.headers,
      payload: { text: 'First walleye of the season!', photoUrls: ['https://img.example.com/walleye.jpg'], visibility: 'Friends' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      author: { id: author.userId, username: 'olivia_angler' },
      text: 'First walleye of the season!',
      photoUrls: ['https://img.example.com/walleye.jpg'],
      photos: [],
      visibility: 'Friends',
      linkedEntry: null,
      linkedCatch: null,
      likeCount: 0,
      commentCount: 0,
      likedByMe: false,
      moderationStatus: 'Published',
      moderationReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.body).not.toContain(author.email);
  });

  it('defaults visibility to Public', async () => {
    const post = await createPost(t, author, { text: 'Default visibility' });
    expect(post.visibility).toBe('Public');
  });

  it('holds a flagged post for review: its author sees it with that status', async () => {
    const res = await get(author, `/api/social/posts/${posts.Pending}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ moderationStatus: 'PendingReview', moderationReason: null });
  });

  it('needs a token (401)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/social/posts', payload: { text: 'x' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_missing');
  });

  it.each([
    [{}, '/text'],
    [{ text: '   ' }, '/text'],
    [{ text: 'x'.repeat(5001) }, '/text'],
    [{ text: 'ok', visibility: 'Everyone' }, '/visibility'],
    [{ text: 'ok', photoUrls: ['ftp://x.example/a.jpg'] }, '/photoUrls/0'],
    [{ text: 'ok', photoUrls: Array.from({ length: 11 }, (_, i) => `https://x.example/${i}.jpg`) }, '/photoUrls'],
    [{ text: 'ok', status: 'Published' }, '/status'],
    [{ text: 'ok', logEntryId: 'not-a-uuid' }, '/logEntryId'],
  ])('refuses a bad body %j naming %s (400)', async (payload, pointer) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/social/posts', headers: author.headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });
});

describe('visibility of one post (GET /api/social/posts/{id})', () => {
  const viewers = () => ({ stranger, pendingFriend, friend, circleMember, author });
  const expected: Record<keyof typeof posts, Array<'stranger' | 'pendingFriend' | 'friend' | 'circleMember' | 'author'>> = {
    Public: ['stranger', 'pendingFriend', 'friend', 'circleMember', 'author'],
    Private: ['author'],
    Friends: ['friend', 'circleMember', 'author'],
    Circle: ['circleMember', 'author'],
    Pending: ['author'],
  };
  const cells = (Object.keys(expected) as Array<keyof typeof posts>).flatMap((post) =>
    (['stranger', 'pendingFriend', 'friend', 'circleMember', 'author'] as const).map((viewer) => [post, viewer] as const),
  );

  it.each(cells)('%s post seen by %s', async (post, viewer) => {
    const res = await get(viewers()[viewer], `/api/social/posts/${posts[post]}`);
    if (expected[post].includes(viewer)) {
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBe(posts[post]);
    } else {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'social.post_not_visible' });
    }
  });

  it('answers 404 for an unknown post and 400 for a malformed id', async () => {
    expect((await get(friend, `/api/social/posts/${MISSING_ID}`)).json()).toMatchObject({ status: 404, code: 'social.post_not_found' });
    const bad = await get(friend, '/api/social/posts/42');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ pointer: '/id', in: 'path', detail: 'must be a UUID' }]);
  });

  it('needs a token (401)', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/api/social/posts/${posts.Public}` })).statusCode).toBe(401);
  });
});

describe('GET /api/social/posts (feed)', () => {
  const feedIds = async (user: TestUser) => ((await get(user, `/api/social/posts?authorId=${author.userId}&pageSize=100`)).json() as Array<{ id: string }>).map((p) => p.id);

  it('shows each viewer exactly the posts the visibility rule lets them see', async () => {
    const visible = async (user: TestUser) => new Set((await feedIds(user)).filter((id) => Object.values(posts).includes(id)));
    expect(await visible(stranger)).toEqual(new Set([posts.Public]));
    expect(await visible(pendingFriend)).toEqual(new Set([posts.Public]));
    expect(await visible(friend)).toEqual(new Set([posts.Public, posts.Friends]));
    expect(await visible(circleMember)).toEqual(new Set([posts.Public, posts.Friends, posts.Circle]));
    expect(await visible(author)).toEqual(new Set(Object.values(posts)));
  });

  it('lists newest first, paginated by the cursor of the Link next header (no X-Total-Count)', async () => {
    const poster = await createUser(t);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createPost(t, poster, { text: `Post number ${i}` })).id);
    const page1 = await get(stranger, `/api/social/posts?authorId=${poster.userId}&pageSize=2`);
    expect(page1.statusCode).toBe(200);
    expect(page1.json().map((p: { id: string }) => p.id)).toEqual([ids[4], ids[3]]);
    expect(page1.headers['x-total-count']).toBeUndefined();
    const next = /<([^>]+)>; rel="next"/.exec(String(page1.headers.link))![1]!;
    expect(next).toContain('cursor=');
    const page2 = await get(stranger, next);
    expect(page2.json().map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    const page3 = await get(stranger, `/api/social/posts?authorId=${poster.userId}&pageSize=2&page=3`);
    expect(page3.json().map((p: { id: string }) => p.id)).toEqual([ids[0]]);
  });

  it('mixes authors in one feed, newest first', async () => {
    const res = await get(circleMember, '/api/social/posts?pageSize=100');
    const times = (res.json() as Array<{ createdAt: string }>).map((p) => p.createdAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('refuses bad query parameters (400) and needs a token (401)', async () => {
    expect((await get(friend, '/api/social/posts?authorId=nope')).statusCode).toBe(400);
    expect((await get(friend, '/api/social/posts?sort=old')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/social/posts' })).statusCode).toBe(401);
  });
});

describe('links to the fishing log', () => {
  /** An entry of `owner` with one catch, to link a post to. */
  const morning = async (owner: TestUser, visibility: 'Public' | 'Private' | 'Friends') => {
    const { entry, catch: caught } = await createEntryWithCatch(
      t,
      owner,
      { visibility, occurredAt: new Date('2026-05-01T06:00:00Z'), timeZone: 'Europe/Berlin', waterBody: 'Lake Tegel', stateCode: null },
      { speciesId: WALLEYE, lengthCm: 62.5, weightKg: 3.2, released: true, caughtAt: '2026-05-01T06:30:00Z' },
    );
    return { entryId: entry.id, catchId: caught.id, speciesId: caught.speciesId };
  };

  it('shows a linked entry only to viewers who may see the entry', async () => {
    const { entryId } = await morning(author, 'Friends');
    const post = await createPost(t, author, { text: 'Read about my morning', logEntryId: entryId });
    const asFriend = (await get(friend, `/api/social/posts/${post.id}`)).json();
    expect(asFriend.linkedEntry).toEqual({ id: entryId, title: 'Morning on the lake', occurredAt: '2026-05-01T06:00:00.000Z', waterBody: 'Lake Tegel' });
    const asStranger = (await get(stranger, `/api/social/posts/${post.id}`)).json();
    expect(asStranger.linkedEntry).toBeNull();
    expect(asStranger.text).toBe('Read about my morning');
  });

  it('shows a linked catch only as far as its entry is visible', async () => {
    const { catchId, entryId, speciesId } = await morning(author, 'Private');
    const post = await createPost(t, author, { text: 'Look at this one', catchId });
    const own = (await get(author, `/api/social/posts/${post.id}`)).json();
    expect(own.linkedCatch).toEqual({
      id: catchId,
      entryId,
      species: { id: speciesId, commonName: 'Walleye' },
      lengthCm: 62.5,
      weightKg: 3.2,
      count: 1,
      released: true,
      caughtAt: '2026-05-01T06:30:00.000Z',
    });
    expect((await get(friend, `/api/social/posts/${post.id}`)).json().linkedCatch).toBeNull();
    const feed = (await get(friend, `/api/social/posts?authorId=${author.userId}&pageSize=100`)).json();
    expect(feed.find((p: { id: string }) => p.id === post.id).linkedCatch).toBeNull();
  });

  it("refuses someone else's entry or catch, unknown ones, and both at once (400 naming the field)", async () => {
    const theirs = await morning(friend, 'Public');
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ logEntryId: theirs.entryId }, '/logEntryId', 'social.link_not_owned'],
      [{ catchId: theirs.catchId }, '/catchId', 'social.link_not_owned'],
      [{ logEntryId: MISSING_ID }, '/logEntryId', 'social.link_not_found'],
      [{ catchId: MISSING_ID }, '/catchId', 'social.link_not_found'],
    ];
    for (const [link, pointer, code] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/social/posts', headers: author.headers, payload: { text: 'mine?', ...link } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code, errors: [{ pointer, in: 'body' }] });
    }
    const mine = await morning(author, 'Public');
    const both = await t.app.inject({ method: 'POST', url: '/api/social/posts', headers: author.headers, payload: { text: 'both', logEntryId: mine.entryId, catchId: mine.catchId } });
    expect(both.statusCode).toBe(400);
    expect(both.json().code).toBe('social.one_link_only');
  });

  it('switches and removes links on update', async () => {
    const mine = await morning(author, 'Public');
    const post = await createPost(t, author, { text: 'links', logEntryId: mine.entryId });
    const switched = await t.app.inject({ method: 'PATCH', url: `/api/social/posts/${post.id}`, headers: author.headers, payload: { catchId: mine.catchId } });
    expect(switched.json()).toMatchObject({ linkedEntry: null, linkedCatch: { id: mine.catchId } });
    const removed = await t.app.inject({ method: 'PATCH', url: `/api/social/posts/${post.id}`, headers: author.headers, payload: { catchId: null } });
    expect(removed.json()).toMatchObject({ linkedEntry: null, linkedCatch: null });
  });
});

describe('PATCH /api/social/posts/{id}', () => {
  it('lets the author change visibility without moderating again', async () => {
    const post = await createPost(t, author, { text: 'Change who sees me', visibility: 'Private' });
    expect((await get(friend, `/api/social/posts/${post.id}`)).statusCode).toBe(403);
    const res = await t.app.inject({ method: 'PATCH', url: `/api/social/posts/${post.id}`, headers: author.headers, payload: { visibility: 'Friends' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ visibility: 'Friends', moderationStatus: 'Published', text: 'Change who sees me' });
    expect((await get(friend, `/api/social/posts/${post.id}`)).statusCode).toBe(200);
  });

  it('moderates a new text again: a flagged edit hides the post from others until reviewed', async () => {
    const post = await createPost(t, author, { text: 'Nice day' });
    const res = await t.app.inject({ method: 'PATCH', url: `/api/social/posts/${post.id}`, headers: author.headers, payload: { text: 'Nice day, you asshole' } });
    expect(res.json()).toMatchObject({ moderationStatus: 'PendingReview', text: 'Nice day, you asshole' });
    expect((await get(stranger, `/api/social/posts/${post.id}`)).statusCode).toBe(403);
    const clean = await t.app.inject({ method: 'PATCH', url: `/api/social/posts/${post.id}`, headers: author.headers, payload: { text: 'Nice day after all' } });
    expect(clean.json()).toMatchObject({ moderationStatus: 'Published' });
    expect((await get(stranger, `/api/social/posts/${post.id}`)).statusCode).toBe(200);
    const queued = await t.database.pool.query('SELECT count(*)::int AS n FROM moderation_queue WHERE post_id = $1', [post.id]);
    expect(queued.rows[0].n).toBe(0);
  });

  it('is for the author only (403), answers 404 and refuses empty or bad bodies (400)', async () => {
    const forbidden = await t.app.inject({ method: 'PATCH', url: `/api/social/posts/${posts.Public}`, headers: friend.headers, payload: { text: 'hijack' } });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe('social.not_post_author');
    expect((await t.app.inject({ method: 'PATCH', url: `/api/social/posts/${MISSING_ID}`, headers: author.headers, payload: { text: 'x' } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PATCH', url: `/api/social/posts/${posts.Public}`, headers: author.headers, payload: {} })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'PATCH', url: `/api/social/posts/${posts.Public}`, headers: author.headers, payload: { likeCount: 99 } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'PATCH', url: `/api/social/posts/${posts.Public}`, payload: { text: 'x' } })).statusCode).toBe(401);
  });
});

describe('DELETE /api/social/posts/{id}', () => {
  it('lets the author delete, with its likes and comments', async () => {
    const post = await createPost(t, author, { text: 'Short-lived' });
    await t.app.inject({ method: 'POST', url: `/api/social/posts/${post.id}/like`, headers: friend.headers });
    await t.app.inject({ method: 'POST', url: `/api/social/posts/${post.id}/comments`, headers: friend.headers, payload: { text: 'Nice!' } });
    const forbidden = await t.app.inject({ method: 'DELETE', url: `/api/social/posts/${post.id}`, headers: friend.headers });
    expect(forbidden.statusCode).toBe(403);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/social/posts/${post.id}`, headers: author.headers });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await get(author, `/api/social/posts/${post.id}`)).statusCode).toBe(404);
    const left = await t.database.pool.query('SELECT (SELECT count(*) FROM post_likes WHERE post_id = $1)::int + (SELECT count(*) FROM post_comments WHERE post_id = $1)::int AS n', [post.id]);
    expect(left.rows[0].n).toBe(0);
  });

  it('answers 404, 400 and 401', async () => {
    expect((await t.app.inject({ method: 'DELETE', url: `/api/social/posts/${MISSING_ID}`, headers: author.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/social/posts/x', headers: author.headers })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/social/posts/${posts.Public}` })).statusCode).toBe(401);
  });
});

describe('likes', () => {
  const like = (user: TestUser, id: string, method: 'POST' | 'DELETE' = 'POST') => t.app.inject({ method, url: `/api/social/posts/${id}/like`, headers: user.headers });

  it('likes idempotently and shows likedByMe', async () => {
    const post = await createPost(t, author, { text: 'Like me' });
    const first = await like(friend, post.id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ postId: post.id, liked: true, likeCount: 1 });
    expect((await like(friend, post.id)).json()).toEqual({ postId: post.id, liked: true, likeCount: 1 });
    expect((await get(friend, `/api/social/posts/${post.id}`)).json()).toMatchObject({ likeCount: 1, likedByMe: true });
    expect((await get(stranger, `/api/social/posts/${post.id}`)).json()).toMatchObject({ likeCount: 1, likedByMe: false });
    expect((await like(friend, post.id, 'DELETE')).json()).toEqual({ postId: post.id, liked: false, likeCount: 0 });
    expect((await like(friend, post.id, 'DELETE')).json()).toEqual({ postId: post.id, liked: false, likeCount: 0 });
  });

  it('keeps the count right under concurrent likes', async () => {
    const post = await createPost(t, author, { text: 'Popular catch' });
    const fans = await Promise.all(Array.from({ length: 12 }, () => createUser(t)));
    const results = await Promise.all([...fans.map((fan) => like(fan, post.id)), ...Array.from({ length: 8 }, () => like(friend, post.id))]);
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const stored = await t.database.pool.query('SELECT like_count, (SELECT count(*)::int FROM post_likes WHERE post_id = $1) AS rows FROM posts WHERE id = $1', [post.id]);
    expect(stored.rows[0]).toEqual({ like_count: 13, rows: 13 });
    await Promise.all([...fans.slice(0, 6).map((fan) => like(fan, post.id, 'DELETE')), like(friend, post.id, 'DELETE'), like(friend, post.id, 'DELETE')]);
    expect((await get(author, `/api/social/posts/${post.id}`)).json().likeCount).toBe(6);
  });

  it('needs the post visible (403) and published (409)', async () => {
    const denied = await like(stranger, posts.Friends);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('social.post_not_visible');
    const held = await like(author, posts.Pending);
    expect(held.statusCode).toBe(409);
    expect(held.json().code).toBe('social.post_not_published');
    expect((await like(friend, MISSING_ID)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/social/posts/${posts.Public}/like` })).statusCode).toBe(401);
  });
});

describe('a post deleted between the visibility check and the like', () => {
  /** The db, with the post deleted just before the like's transaction starts (the race, made certain). */
  function deletingFirst(postId: string): Db {
    const db = t.database.db;
    return new Proxy(db, {
      get(target, prop, receiver) {
        if (prop !== 'transaction') return Reflect.get(target, prop, receiver);
        return async (work: Parameters<Db['transaction']>[0]) => {
          await t.database.pool.query('DELETE FROM posts WHERE id = $1', [postId]);
          return target.transaction(work);
        };
      },
    });
  }

  it.each([
    ['like', likePost],
    ['unlike', unlikePost],
  ])('%s answers the 404 of a missing post, not a 500 or a conflict', async (_name, action) => {
    const post = await createPost(t, author, { text: 'Here one moment' });
    expect((await t.app.inject({ method: 'POST', url: `/api/social/posts/${post.id}/like`, headers: friend.headers })).statusCode).toBe(200);
    const error = await action({ ...serviceDeps(t), db: deletingFirst(post.id) }, friend.userId, post.id).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'AppError', status: 404, code: 'social.post_not_found', detail: `No post has id ${post.id}.` });
    const left = await t.database.pool.query('SELECT count(*)::int AS n FROM post_likes WHERE post_id = $1', [post.id]);
    expect(left.rows[0].n).toBe(0);
  });
});

describe('a very large feed', () => {
  it(`pages by number through the first ${MAX_FEED_OFFSET} rows, then by cursor only`, async () => {
    const prolific = await createUser(t);
    await t.database.pool.query(
      `INSERT INTO posts (id, author_id, text, visibility, status, created_at)
       SELECT gen_random_uuid(), $1, 'bulk ' || i, 'Public', 'Published', now() - i * interval '1 second' FROM generate_series(1, $2::int) i`,
      [prolific.userId, MAX_FEED_OFFSET + 1],
    );
    const last = await get(stranger, `/api/social/posts?authorId=${prolific.userId}&pageSize=100&page=${MAX_FEED_OFFSET / 100}`);
    expect(last.statusCode).toBe(200);
    expect(last.json().at(-1).text).toBe(`bulk ${MAX_FEED_OFFSET}`);
    expect(last.headers['x-total-count']).toBeUndefined();
    const tooDeep = await get(stranger, `/api/social/posts?authorId=${prolific.userId}&pageSize=100&page=${MAX_FEED_OFFSET / 100 + 1}`);
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json()).toMatchObject({ code: 'pagination.too_deep', errors: [{ pointer: '/page', in: 'query' }] });
    const next = /<([^>]+)>; rel="next"/.exec(String(last.headers.link))![1]!;
    const beyond = await get(stranger, next);
    expect(beyond.json().map((p: { text: string }) => p.text)).toEqual([`bulk ${MAX_FEED_OFFSET + 1}`]);
    expect(beyond.headers.link).not.toContain('rel="next"');
  });

  it('refuses a cursor it did not hand out, and a cursor with a page (400 problem)', async () => {
    for (const cursor of ['bm9wZQ', 'djE6MTIzOm5vdC1hLXV1aWQ', 'a'.repeat(129), '%%%']) {
      const res = await get(stranger, `/api/social/posts?cursor=${cursor}`);
      expect(res.statusCode, cursor).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    const bad = await get(stranger, '/api/social/posts?cursor=bm9wZQ');
    expect(bad.json()).toMatchObject({ status: 400, code: 'pagination.invalid_cursor', errors: [{ pointer: '/cursor', in: 'query' }] });
    const both = await get(stranger, '/api/social/posts?page=2&cursor=djE6MTIzOjAwMDAwMDAwLTAwMDAtNDAwMC04MDAwLTAwMDAwMDAwMDAwMA');
    expect(both.json()).toMatchObject({ status: 400, code: 'pagination.cursor_with_page' });
  });
});

describe('query plans', () => {
  it('serves each branch of the feed from its index', async () => {
    const poster = await createUser(t);
    const values = Array.from({ length: 3000 }, (_, i) => `(gen_random_uuid(), '${poster.userId}', 'bulk ${i}', '${['Public', 'Friends', 'Circle', 'Private'][i % 4]}', 'Published', now() - interval '${i} minutes')`);
    await t.database.pool.query(`INSERT INTO posts (id, author_id, text, visibility, status, created_at) VALUES ${values.join(',')}`);
    await t.database.pool.query('ANALYZE posts');
    const plan = await t.database.pool.query(
      `EXPLAIN SELECT id FROM posts WHERE visibility = 'Public' AND status = 'Published' AND author_id <> $1 ORDER BY created_at DESC NULLS LAST, id DESC NULLS LAST LIMIT 20`,
      [stranger.userId],
    );
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('posts_public_time_idx');
    expect(text).not.toContain('Sort');
    const own = await t.database.pool.query(`EXPLAIN SELECT id FROM posts WHERE author_id = $1 ORDER BY created_at DESC NULLS LAST, id DESC NULLS LAST LIMIT 20`, [poster.userId]);
    expect(own.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('posts_author_time_idx');
  });

  it("reads at most a page of each friend's posts in the prepared friends-only feed (scope=friends), never everyone's Public posts", async () => {
    type Node = { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; 'Actual Rows'?: number; 'Actual Loops'?: number; Plans?: Node[] };
    // The circle member's friend (the author) with 1,200 older posts; a stranger's 10,000 Public posts are in the table too.
    await t.database.pool.query(
      `INSERT INTO posts (id, author_id, text, visibility, status, created_at)
       SELECT gen_random_uuid(), $1, 'old ' || i, CASE WHEN i % 2 = 0 THEN 'Public' ELSE 'Friends' END, 'Published', now() - interval '3 years' - i * interval '1 minute'
       FROM generate_series(1, 1200) i`,
      [author.userId],
    );
    await t.database.owner.pool.query('VACUUM (ANALYZE) posts');
    const client = await t.database.pool.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      const { sql, params } = new PgDialect({ casing: 'snake_case' }).sqlToQuery(friendsFeedQuery(relationshipsOf(t), placeholder('viewer'), { scope: 'friends' }, { limit: 20, offset: 0, after: undefined }));
      await client.query(`PREPARE posts_friends AS ${sql}`);
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE posts_friends(${params.map(() => client.escapeLiteral(circleMember.userId)).join(', ')})`);
      await client.query('DEALLOCATE posts_friends');
      const postScans: Node[] = [];
      const walk = (node: Node) => {
        if (node['Relation Name'] === 'posts' || node['Index Name']?.startsWith('posts_')) postScans.push(node);
        for (const child of node.Plans ?? []) walk(child);
      };
      walk((rows[0]['QUERY PLAN'] as Array<{ Plan: Node }>)[0]!.Plan);
      expect(postScans.map((n) => n['Index Name'])).not.toEqual([]);
      for (const node of postScans) {
        expect(node['Index Name']).toBe('posts_author_visibility_time_idx');
        expect(node['Actual Rows']).toBeLessThanOrEqual(20);
      }
      // Three branches (Public, Friends, Circle) of one friend: at most three pages read.
      expect(postScans.reduce((sum, n) => sum + (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1), 0)).toBeLessThanOrEqual(3 * 20);
    } finally {
      await client.query('RESET plan_cache_mode');
      client.release();
      await t.database.pool.query(`DELETE FROM posts WHERE author_id = $1 AND text LIKE 'old %'`, [author.userId]);
    }
  });
});
