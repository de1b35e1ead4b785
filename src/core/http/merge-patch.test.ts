import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { befriend, createUser, MISSING_ID, WALLEYE, type TestUser } from '../../../test/factories.js';

/**
 * PATCH is a JSON Merge Patch (RFC 7396) on every resource with a PUT, through the one mechanism of
 * merge-patch.ts; PUT stays a full replacement whose required fields must be sent. The fishing-log
 * resources (entries, catches, sessions) are covered in src/modules/fishing-log/editing.test.ts.
 */

let t: TestApp;
let owner: TestUser;
let friend: TestUser;
let stranger: TestUser;
let admin: TestUser;

const MERGE = { 'content-type': 'application/merge-patch+json' };
const send = (user: TestUser, method: 'POST' | 'PUT' | 'PATCH', url: string, payload: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  t.app.inject({ method, url, headers: { ...user.headers, ...headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
const patch = (user: TestUser, url: string, body: unknown) => send(user, 'PATCH', url, body, MERGE);

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t);
  friend = await createUser(t);
  stranger = await createUser(t);
  admin = await createUser(t, { role: 'Admin' });
  await befriend(t, owner, friend);
});
afterAll(async () => {
  await t?.close();
});

interface Case {
  name: string;
  create: () => Promise<string>;
  /** PUT body without one required field, and that field. */
  putMissing: [Record<string, unknown>, string];
  /** A patch of one field, the field kept, a nullable field to clear, a required field. */
  patch: Record<string, unknown>;
  kept: Record<string, unknown>;
  /** A nullable field to clear, and how the answer shows it cleared. */
  cleared: [string, Record<string, unknown>];
  required: string;
  /** Who else is refused, with the code. */
  refusedCode: string;
}

const cases: Case[] = [
  {
    name: 'boats',
    create: async () => (await send(owner, 'POST', '/api/gear/boats', { name: 'Old Blue', make: 'Lund', motor: 'Mercury 90', notes: 'leaks' })).json().id,
    putMissing: [{ make: 'Lund' }, 'name'],
    patch: { motor: 'Mercury 115' },
    kept: { name: 'Old Blue', make: 'Lund' },
    cleared: ['notes', { notes: null }],
    required: 'name',
    refusedCode: 'gear.boat_not_owned',
  },
  {
    name: 'setups',
    create: async () => (await send(owner, 'POST', '/api/gear/setups', { name: 'Jig rod', technique: 'Jigging', notes: 'light line' })).json().id,
    putMissing: [{ technique: 'Ned rig' }, 'name'],
    patch: { technique: 'Ned rig' },
    kept: { name: 'Jig rod' },
    cleared: ['notes', { notes: null }],
    required: 'name',
    refusedCode: 'gear.setup_not_owned',
  },
  {
    name: 'social/posts',
    create: async () => {
      const entry = (await send(owner, 'POST', '/api/fishinglog/entries', { title: 'Evening', occurredAt: '2026-06-01T19:00:00Z', timeZone: 'America/Chicago' })).json();
      return (await send(owner, 'POST', '/api/social/posts', { text: 'Calm morning on the lake', visibility: 'Friends', logEntryId: entry.id })).json().id;
    },
    putMissing: [{ text: 'Only the text' }, 'visibility'],
    patch: { text: 'Calm morning, three walleyes' },
    kept: { visibility: 'Friends' },
    cleared: ['logEntryId', { linkedEntry: null }],
    required: 'visibility',
    refusedCode: 'social.not_post_author',
  },
];

const urlOf = (c: Case, id: string) => (c.name === 'social/posts' ? `/api/social/posts/${id}` : `/api/gear/${c.name}/${id}`);

describe.each(cases)('PUT and PATCH /…/$name/{id}', (c) => {
  it('PATCH changes only the fields sent and clears a nullable one with null', async () => {
    const id = await c.create();
    const res = await patch(owner, urlOf(c, id), { ...c.patch, [c.cleared[0]]: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, ...c.patch, ...c.kept, ...c.cleared[1] });
    // Plain application/json is a merge patch too.
    const plain = await send(owner, 'PATCH', urlOf(c, id), c.patch);
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toMatchObject(c.kept);
  });

  it('PATCH: null on a required field is a 400 naming it; another content type a 415; others 403; a missing record 404', async () => {
    const id = await c.create();
    const cleared = await patch(owner, urlOf(c, id), { [c.required]: null });
    expect(cleared.statusCode).toBe(400);
    expect(cleared.json()).toMatchObject({ code: 'request.required_field_cleared', errors: [{ pointer: `/${c.required}`, in: 'body', detail: 'is required and cannot be cleared with null' }] });
    const text = await send(owner, 'PATCH', urlOf(c, id), 'name=x', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ code: 'request.unsupported_media_type' });
    for (const user of [friend, stranger, admin]) {
      const refused = await patch(user, urlOf(c, id), c.patch);
      expect(refused.statusCode, `${c.name} ${refused.body}`).toBe(403);
      expect(refused.json().code).toBe(c.refusedCode);
    }
    expect((await patch(owner, urlOf(c, MISSING_ID), c.patch)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PATCH', url: urlOf(c, id), headers: MERGE, payload: JSON.stringify(c.patch) })).statusCode).toBe(401);
  });

  it('PUT is a full replacement: a missing required field is a 400 naming it, nothing changes', async () => {
    const id = await c.create();
    const [body, field] = c.putMissing;
    const res = await send(owner, 'PUT', urlOf(c, id), body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'request.validation_failed', errors: [{ pointer: `/${field}`, in: 'body', detail: 'is required' }] });
  });
});

describe('PUT and PATCH /api/userprofile/me', () => {
  it('PATCH changes only the fields sent; null clears; null on a required field is a 400 naming it', async () => {
    const user = await createUser(t);
    await patch(user, '/api/userprofile/me', { displayName: 'Wendy', bio: 'Jigging since 1998.', visibility: 'Friends', unitsPreference: 'Metric' });
    const res = await patch(user, '/api/userprofile/me', { bio: null, homeState: 'us-mn' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ displayName: 'Wendy', bio: null, homeState: 'US-MN', visibility: 'Friends', unitsPreference: 'Metric' });
    const cleared = await patch(user, '/api/userprofile/me', { visibility: null });
    expect(cleared.statusCode).toBe(400);
    expect(cleared.json().errors).toEqual([{ pointer: '/visibility', in: 'body', detail: 'is required and cannot be cleared with null' }]);
  });

  it('PUT replaces the whole profile: visibility is required (400 naming it, nothing reset); omitted texts become null', async () => {
    const user = await createUser(t);
    await patch(user, '/api/userprofile/me', { displayName: 'Pete', visibility: 'Private', researchConsent: 'Anonymized' });
    const missing = await send(user, 'PUT', '/api/userprofile/me', { displayName: 'Pete', unitsPreference: 'Imperial' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ pointer: '/visibility', in: 'body', detail: 'is required' }]);
    expect((await t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: user.headers })).json()).toMatchObject({ visibility: 'Private', displayName: 'Pete' });
    const res = await send(user, 'PUT', '/api/userprofile/me', { bio: 'New bio', visibility: 'Public', unitsPreference: 'Imperial' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ displayName: null, bio: 'New bio', visibility: 'Public', researchConsent: { level: 'Anonymized' } });
  });
});

describe('PATCH of a post switches its link', () => {
  it('linking a catch unlinks the entry; PUT with both links is a 400', async () => {
    const entry = (await send(owner, 'POST', '/api/fishinglog/entries', { title: 'Evening', occurredAt: '2026-06-01T19:00:00Z', timeZone: 'America/Chicago' })).json();
    const fish = (await send(owner, 'POST', `/api/fishinglog/entries/${entry.id}/catches`, { speciesId: WALLEYE, released: true })).json();
    const post = (await send(owner, 'POST', '/api/social/posts', { text: 'Linked', logEntryId: entry.id })).json();
    expect(post.linkedEntry).toMatchObject({ id: entry.id });
    const switched = await patch(owner, `/api/social/posts/${post.id}`, { catchId: fish.id });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json()).toMatchObject({ text: 'Linked', visibility: 'Public', linkedEntry: null, linkedCatch: { id: fish.id } });
    const both = await send(owner, 'PUT', `/api/social/posts/${post.id}`, { text: 'x', visibility: 'Public', logEntryId: entry.id, catchId: fish.id });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ code: 'social.one_link_only' });
  });
});
