import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { upsertFromClaims, usernamePrefixQuery } from '../users/users.repository.js';

/** GET /api/social/users?username=: finding a friend's user id by username. */

describe('user search', () => {
  let t: TestApp;
  let jo: TestUser;
  let pat: TestUser;
  let friend: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    jo = await createUser(t, { username: 'jo_searcher' });
    pat = await createUser(t, { username: 'Walleye_Pat' });
    friend = await createUser(t, { username: 'walleye_friend' });
    for (let i = 0; i < 22; i++) await upsertFromClaims(t.database.db, { sub: `sub-bulk-${i}`, username: `bulk_${String(i).padStart(2, '0')}`, email: `bulk${i}@example.com` });
    await upsertFromClaims(t.database.db, { sub: 'sub-gone', username: 'walleye_gone', email: 'gone@example.com' });
    await t.database.pool.query("UPDATE users SET is_active = false, deactivated_at = now() WHERE username = 'walleye_gone'");
    await upsertFromClaims(t.database.db, { sub: 'sub-pct', username: 'per%cent', email: 'p@example.com' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const search = (user: TestUser | undefined, query: string) =>
    t.app.inject({ method: 'GET', url: `/api/social/users?${query}`, headers: user?.headers ?? {}, remoteAddress: user ? `127.0.0.${user === jo ? 2 : 3}` : '127.0.0.9' });

  it('needs a token (401)', async () => {
    const res = await search(undefined, 'username=wal');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_missing');
  });

  it('matches a username prefix case-insensitively, by username, with only id, username, display name and visibility', async () => {
    await t.app.inject({ method: 'PATCH', url: '/api/userprofile/me', headers: pat.headers, payload: { displayName: 'Pat the Walleye Guy' } });
    const res = await search(jo, 'username=WALL');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { userId: friend.userId, username: 'walleye_friend', displayName: null, profileVisible: true },
      { userId: pat.userId, username: 'Walleye_Pat', displayName: 'Pat the Walleye Guy', profileVisible: true },
    ]);
    for (const item of res.json()) expect(Object.keys(item).sort()).toEqual(['displayName', 'profileVisible', 'userId', 'username']);
    expect(res.body).not.toMatch(/email|role|example\.com/);
  });

  it('leaves out deactivated users and treats % and _ as plain characters', async () => {
    expect((await search(jo, 'username=walleye_g')).json()).toEqual([]);
    expect((await search(jo, 'username=per%25')).json().map((u: { username: string }) => u.username)).toEqual(['per%cent']);
    expect((await search(jo, 'username=%25')).json()).toEqual([]);
  });

  it('hides the display name of a profile the caller may not see, and says it is not visible', async () => {
    await t.app.inject({ method: 'PATCH', url: '/api/userprofile/me', headers: pat.headers, payload: { visibility: 'Friends' } });
    expect((await search(jo, 'username=walleye_p')).json()).toEqual([{ userId: pat.userId, username: 'Walleye_Pat', displayName: null, profileVisible: false }]);
    await t.app.inject({ method: 'POST', url: `/api/social/friends/${pat.userId}`, headers: friend.headers });
    await t.app.inject({ method: 'POST', url: `/api/social/friends/${friend.userId}`, headers: pat.headers });
    const asFriend = await t.app.inject({ method: 'GET', url: '/api/social/users?username=walleye_p', headers: friend.headers });
    expect(asFriend.json()).toEqual([{ userId: pat.userId, username: 'Walleye_Pat', displayName: 'Pat the Walleye Guy', profileVisible: true }]);
  });

  it('answers at most 20, fewer with limit', async () => {
    const all = await search(jo, 'username=bulk_');
    expect(all.json()).toHaveLength(20);
    expect(all.json()[0].username).toBe('bulk_00');
    expect((await search(jo, 'username=bulk_&limit=3')).json().map((u: { username: string }) => u.username)).toEqual(['bulk_00', 'bulk_01', 'bulk_02']);
  });

  it('refuses a missing or blank username and a limit above 20, naming the parameter', async () => {
    expect((await search(jo, '')).json().errors).toEqual([{ pointer: '/username', in: 'query', detail: 'is required' }]);
    expect((await search(jo, 'username=%20%20')).statusCode).toBe(400);
    expect((await search(jo, 'username=a&limit=21')).json().errors[0]).toMatchObject({ pointer: '/limit', in: 'query' });
  });

  it('is served by the lower(username) text_pattern_ops index (EXPLAIN)', async () => {
    const query = usernamePrefixQuery(t.database.db, 'wal', 20).toSQL();
    const client = await t.database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off'); // a tiny table is otherwise read whole
      const { rows } = await client.query(`EXPLAIN ${query.sql}`, query.params);
      const plan = rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      expect(plan).toContain('users_username_lower_prefix_idx');
      expect(plan).toMatch(/Index Cond: \(\(lower\(username\) ~>=~ 'wal'::text\) AND \(lower\(username\) ~<~ 'wam'::text\)\)/);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('is rate limited per client: 30 searches a minute, then 429 with Retry-After', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 31; i++) {
      last = await t.app.inject({ method: 'GET', url: '/api/social/users?username=wal', headers: jo.headers, remoteAddress: '127.0.0.50' });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(last!.statusCode).toBe(429);
    expect(last!.headers['retry-after']).toMatch(/^\d+$/);
    expect(last!.headers['ratelimit-limit']).toBe('30');
    expect(last!.json()).toMatchObject({ code: 'request.rate_limited', status: 429 });
    // The general limit of other routes is untouched.
    const other = await t.app.inject({ method: 'GET', url: '/api/social/friends', headers: jo.headers, remoteAddress: '127.0.0.50' });
    expect(other.statusCode).toBe(200);
    expect(other.headers['ratelimit-limit']).toBe('600');
  });
});
