import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID } from '../../../test/factories.js';

let t: TestApp;
let ann: TestUser;
let ben: TestUser;
let cy: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ann = await createUser(t, { username: 'ann' });
  ben = await createUser(t, { username: 'ben' });
  cy = await createUser(t, { username: 'cy' });
});
afterAll(async () => {
  await t?.close();
});

const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });
const post = (user: TestUser, url: string) => t.app.inject({ method: 'POST', url, headers: user.headers });
const del = (user: TestUser, url: string) => t.app.inject({ method: 'DELETE', url, headers: user.headers });

describe('friends', () => {
  it('needs a token', async () => {
    for (const [method, url] of [
      ['GET', '/api/social/friends'],
      ['POST', `/api/social/friends/${ben.userId}`],
      ['DELETE', `/api/social/friends/${ben.userId}`],
      ['GET', '/api/social/circle'],
      ['POST', `/api/social/circle/${ben.userId}`],
      ['DELETE', `/api/social/circle/${ben.userId}`],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('makes a pending request, idempotently, seen from both sides', async () => {
    const first = await post(ann, `/api/social/friends/${ben.userId}`);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ userId: ben.userId, username: 'ben', status: 'PendingOutgoing', since: expect.any(String), inCircle: false });
    const again = await post(ann, `/api/social/friends/${ben.userId}`);
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe('PendingOutgoing');

    expect((await get(ann, '/api/social/friends')).json()).toEqual([]);
    const outgoing = await get(ann, '/api/social/friends?status=pending-outgoing');
    expect(outgoing.json().map((f: { username: string }) => f.username)).toEqual(['ben']);
    const incoming = await get(ben, '/api/social/friends?status=pending-incoming');
    expect(incoming.json()).toEqual([{ userId: ann.userId, username: 'ann', status: 'PendingIncoming', since: expect.any(String), inCircle: false }]);
    expect(incoming.headers['x-total-count']).toBe('1');
  });

  it('puts the friendship in force when the other side adds back', async () => {
    const accept = await post(ben, `/api/social/friends/${ann.userId}`);
    expect(accept.statusCode).toBe(201);
    expect(accept.json().status).toBe('Friends');
    expect((await get(ann, '/api/social/friends')).json().map((f: { username: string }) => f.username)).toEqual(['ben']);
    expect((await get(ben, '/api/social/friends')).json().map((f: { username: string }) => f.username)).toEqual(['ann']);
    expect((await get(ben, '/api/social/friends?status=pending-incoming')).json()).toEqual([]);
    // Neither side leaks email or role.
    expect(Object.keys((await get(ann, '/api/social/friends')).json()[0]).sort()).toEqual(['inCircle', 'since', 'status', 'userId', 'username']);
  });

  it('refuses yourself (400), unknown users (404) and bad ids (400)', async () => {
    const self = await post(ann, `/api/social/friends/${ann.userId}`);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ code: 'social.cannot_befriend_self', errors: [{ pointer: '/friendId', in: 'path', detail: 'is your own id' }] });
    const unknown = await post(ann, `/api/social/friends/${MISSING_ID}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('social.user_not_found');
    expect((await post(ann, '/api/social/friends/not-a-uuid')).statusCode).toBe(400);
    expect((await get(ann, '/api/social/friends?status=blocked')).statusCode).toBe(400);
  });
});

describe('circle', () => {
  it('takes friends only', async () => {
    const stranger = await post(ann, `/api/social/circle/${cy.userId}`);
    expect(stranger.statusCode).toBe(409);
    expect(stranger.json()).toMatchObject({ code: 'social.not_a_friend', detail: expect.stringContaining('both of you') });
    // A pending request is not enough either.
    await post(ann, `/api/social/friends/${cy.userId}`);
    expect((await post(ann, `/api/social/circle/${cy.userId}`)).statusCode).toBe(409);
    expect((await post(ann, `/api/social/circle/${ann.userId}`)).statusCode).toBe(400);
    expect((await post(ann, `/api/social/circle/${MISSING_ID}`)).statusCode).toBe(404);
  });

  it('adds, lists and removes a friend', async () => {
    const added = await post(ann, `/api/social/circle/${ben.userId}`);
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({ userId: ben.userId, username: 'ben', since: expect.any(String) });
    expect((await post(ann, `/api/social/circle/${ben.userId}`)).statusCode).toBe(200);
    const list = await get(ann, '/api/social/circle');
    expect(list.json().map((m: { username: string }) => m.username)).toEqual(['ben']);
    expect((await get(ann, '/api/social/friends')).json()[0].inCircle).toBe(true);
    // Ben's circle is his own.
    expect((await get(ben, '/api/social/circle')).json()).toEqual([]);
    expect((await del(ann, `/api/social/circle/${ben.userId}`)).statusCode).toBe(204);
    expect((await del(ann, `/api/social/circle/${ben.userId}`)).statusCode).toBe(404);
    expect((await get(ann, '/api/social/circle')).json()).toEqual([]);
  });

  it('loses a friend who is removed, on both sides, and the circle with it', async () => {
    await post(ann, `/api/social/circle/${ben.userId}`);
    await post(ben, `/api/social/circle/${ann.userId}`);
    expect((await del(ben, `/api/social/friends/${ann.userId}`)).statusCode).toBe(204);
    expect((await get(ann, '/api/social/friends')).json()).toEqual([]);
    expect((await get(ben, '/api/social/friends')).json()).toEqual([]);
    expect((await get(ann, '/api/social/circle')).json()).toEqual([]);
    expect((await get(ben, '/api/social/circle')).json()).toEqual([]);
    // Removing again is idempotent; an unknown user is a 404.
    expect((await del(ben, `/api/social/friends/${ann.userId}`)).statusCode).toBe(204);
    expect((await del(ben, `/api/social/friends/${MISSING_ID}`)).statusCode).toBe(404);
  });

  it('declines an incoming request by removing it', async () => {
    expect((await get(cy, '/api/social/friends?status=pending-incoming')).json().map((f: { username: string }) => f.username)).toEqual(['ann']);
    expect((await del(cy, `/api/social/friends/${ann.userId}`)).statusCode).toBe(204);
    expect((await get(cy, '/api/social/friends?status=pending-incoming')).json()).toEqual([]);
    expect((await get(ann, '/api/social/friends?status=pending-outgoing')).json()).toEqual([]);
  });
});
