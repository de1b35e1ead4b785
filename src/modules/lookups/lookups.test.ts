import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, banUser, createLookupValue, createStaff, createUser, grant, lookupValueBody, MISSING_ID, setLookupValueActive, type Staff, type TestUser, createEvent, createFishingReport } from '../../../test/factories.js';

let t: TestApp;
let staff: Staff;
let banned: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  // staff.deniedAdmin is an Admin denied Lookups.Manage; staff.grantedModerator a Moderator granted it.
  staff = await createStaff(t, 'Lookups.Manage');
  banned = await createUser(t);
  await banUser(t, staff.owner, banned, { durationDays: 7 });
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
const codes = async (category: string, user: TestUser) => (await call('GET', `/api/lookups/${category}`, user)).json().map((v: { code: string }) => v.code);

describe('reading a vocabulary', () => {
  it('gives any signed-in user the active values in display order, with labels; 404 for an unknown category; 401 without a token', async () => {
    const res = await call('GET', '/api/lookups/WaterClarity', staff.standard);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { code: 'Clear', label: 'Clear', description: expect.any(String), sortOrder: 10 },
      { code: 'Stained', label: 'Stained', description: expect.any(String), sortOrder: 20 },
      { code: 'Murky', label: 'Murky', description: expect.any(String), sortOrder: 30 },
      { code: 'Muddy', label: 'Muddy', description: expect.any(String), sortOrder: 40 },
    ]);
    expect(await codes('EventType', staff.standard)).toEqual(['Expo', 'SwapMeet', 'Seminar', 'Tournament', 'Other']);
    expect((await call('GET', '/api/lookups/NoSuchThing', staff.standard)).json()).toMatchObject({ status: 404, code: 'lookups.unknown_category' });
    expect((await call('GET', '/api/lookups/not-pascal', staff.standard)).statusCode).toBe(400);
    expect((await call('GET', '/api/lookups/Sky', null)).statusCode).toBe(401);
    expect((await call('GET', '/api/lookups/Sky', banned)).json()).toMatchObject({ status: 403, code: 'auth.banned' });
  });
});

describe('who may manage lookup values', () => {
  it('lets the Owner, an Admin and a Moderator granted Lookups.Manage (either spelling) add values, audit-logged with the reason', async () => {
    for (const user of [staff.owner, staff.admin, staff.grantedModerator]) {
      const body = lookupValueBody({ category: 'BaitType', label: `Bait by ${user.username}` });
      const res = await call('POST', '/api/admin/lookups/values', user, body);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ category: 'BaitType', code: body.code, label: `Bait by ${user.username}`, isActive: true, usage: { records: null, validated: false } });
      const [entry] = (await auditEntries(t, 'lookups.created')).filter((e) => e.target_id === res.json().id);
      expect(entry).toMatchObject({ actor_user_id: user.userId, reason: 'Needed for a test', target_type: 'lookup_value' });
    }
    const moderator = await createUser(t, { role: 'Moderator' });
    await grant(t, staff.owner, moderator, 'lookups.manage', true);
    expect((await call('POST', '/api/admin/lookups/values', moderator, lookupValueBody())).statusCode).toBe(201);
  });

  it('refuses an Admin denied Lookups.Manage, a Moderator without it, a standard user and a banned one — reads included', async () => {
    for (const user of [staff.deniedAdmin, staff.moderator, staff.standard]) {
      const create = await call('POST', '/api/admin/lookups/values', user, lookupValueBody());
      expect(create.json()).toMatchObject({ status: 403 });
      expect((await call('GET', '/api/admin/lookups/values', user)).statusCode).toBe(403);
      expect((await call('GET', '/api/admin/lookups/categories', user)).statusCode).toBe(403);
    }
    expect((await call('GET', '/api/admin/lookups/values', banned)).json()).toMatchObject({ code: 'auth.banned' });
    expect((await call('GET', '/api/admin/lookups/values', null)).statusCode).toBe(401);
  });

  it('needs a reason, a PascalCase code, and a code new to its category (409); parallel creates of one code make one value', async () => {
    const { reason: _reason, ...noReason } = lookupValueBody();
    expect((await call('POST', '/api/admin/lookups/values', staff.admin, noReason)).json().errors).toEqual([expect.objectContaining({ pointer: '/reason' })]);
    expect((await call('POST', '/api/admin/lookups/values', staff.admin, lookupValueBody({ code: 'lower-case' }))).json().errors).toEqual([expect.objectContaining({ pointer: '/code' })]);
    const duplicate = await call('POST', '/api/admin/lookups/values', staff.admin, lookupValueBody({ category: 'WaterClarity', code: 'Clear' }));
    expect(duplicate.json()).toMatchObject({ status: 409, code: 'lookups.duplicate_code', errors: [{ pointer: '/code' }] });
    const body = lookupValueBody({ category: 'Sky', code: 'Hail', label: 'Hail' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => call('POST', '/api/admin/lookups/values', staff.admin, body)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const rows = await t.database.pool.query(`SELECT count(*)::int AS n FROM lookup_values WHERE category = 'Sky' AND code = 'Hail'`);
    expect(rows.rows).toEqual([{ n: 1 }]);
  });

  it('changes label and order but never the code or category; lists filter by category, active and text with X-Total-Count', async () => {
    const value = await createLookupValue(t, staff.admin, { category: 'ListTest', code: 'Alpha', label: 'Alpha', sortOrder: 5 });
    await createLookupValue(t, staff.admin, { category: 'ListTest', code: 'Beta', label: 'Beta', sortOrder: 1 });
    const changed = await call('PATCH', `/api/admin/lookups/values/${value.id}`, staff.admin, { label: 'Alpha (first)', sortOrder: 0, reason: 'Reordered' });
    expect(changed.json()).toMatchObject({ code: 'Alpha', label: 'Alpha (first)', sortOrder: 0 });
    const [audit] = (await auditEntries(t, 'lookups.updated')).filter((e) => e.target_id === value.id);
    expect(audit).toMatchObject({ reason: 'Reordered', before: expect.objectContaining({ label: 'Alpha' }), after: expect.objectContaining({ label: 'Alpha (first)' }) });
    const immutable = await call('PATCH', `/api/admin/lookups/values/${value.id}`, staff.admin, { code: 'Gamma', reason: 'Rename' });
    expect(immutable.json()).toMatchObject({ status: 400, code: 'lookups.immutable', errors: [{ pointer: '/code' }] });
    expect((await call('PATCH', `/api/admin/lookups/values/${MISSING_ID}`, staff.admin, { label: 'x', reason: 'r' })).statusCode).toBe(404);
    const merge = (payload: unknown) =>
      t.app.inject({ method: 'PATCH', url: `/api/admin/lookups/values/${value.id}`, headers: { ...staff.admin.headers, 'content-type': 'application/merge-patch+json' }, payload: JSON.stringify(payload) });
    expect((await merge({ description: 'First of the list', reason: 'Explain' })).json()).toMatchObject({ label: 'Alpha (first)', description: 'First of the list' });
    expect((await merge({ description: null, reason: 'Not needed' })).json()).toMatchObject({ label: 'Alpha (first)', description: null, sortOrder: 0 });
    expect((await merge({ label: null, reason: 'Oops' })).json()).toMatchObject({ status: 400, code: 'request.required_field_cleared', errors: [{ pointer: '/label' }] });
    expect((await merge({ label: 'No reason' })).json()).toMatchObject({ status: 400, errors: expect.arrayContaining([expect.objectContaining({ pointer: '/reason', detail: 'is required' })]) });
    const list = await call('GET', '/api/admin/lookups/values?category=ListTest', staff.admin);
    expect(list.headers['x-total-count']).toBe('2');
    expect(list.json().map((v: { code: string }) => v.code)).toEqual(['Alpha', 'Beta']);
    expect((await call('GET', '/api/admin/lookups/values?category=ListTest&q=bet', staff.admin)).json().map((v: { code: string }) => v.code)).toEqual(['Beta']);
    await setLookupValueActive(t, staff.admin, value.id, false);
    expect((await call('GET', '/api/admin/lookups/values?category=ListTest&active=false', staff.admin)).json().map((v: { code: string }) => v.code)).toEqual(['Alpha']);
    const categories = (await call('GET', '/api/admin/lookups/categories', staff.admin)).json();
    expect(categories).toContainEqual({ category: 'ListTest', values: 2, activeValues: 1, validated: false });
    expect(categories).toContainEqual(expect.objectContaining({ category: 'WaterClarity', validated: true }));
  });
});

describe('the modules check their fields against the active values', () => {
  it('a fishing report with an unknown clarity or sky is a 400 naming each field and the values allowed; a value added by an admin is accepted at once', async () => {
    const author = await createUser(t);
    const bad = await call('POST', '/api/reports', author, {
      waterBody: 'Lake Vermilion',
      location: { latitude: 47.85, longitude: -92.3 },
      fishedOn: '2026-06-02',
      text: 'Slow bite.',
      conditions: { clarity: 'Milky', sky: 'Drizzle' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'lookups.unknown_value' });
    expect(bad.json().errors).toEqual([
      { pointer: '/conditions/clarity', in: 'body', detail: expect.stringContaining('use one of Clear, Stained, Murky, Muddy') },
      { pointer: '/conditions/sky', in: 'body', detail: expect.stringContaining('Drizzle is not a Sky value') },
    ]);
    await createLookupValue(t, staff.admin, { category: 'Sky', code: 'Drizzle', label: 'Drizzle' });
    const report = await createFishingReport(t, author, { conditions: { clarity: 'Stained', sky: 'Drizzle' } });
    expect(report.conditions).toMatchObject({ clarity: 'Stained', sky: 'Drizzle' });
  });

  it('a deactivated value is refused on new records, old records keep and show it, and usage counts them', async () => {
    const author = await createUser(t);
    const value = await createLookupValue(t, staff.admin, { category: 'WaterClarity', code: 'TeaStained', label: 'Tea-stained' });
    const old = await createFishingReport(t, author, { conditions: { clarity: 'TeaStained' } });
    expect((await call('GET', `/api/admin/lookups/values/${value.id}`, staff.admin)).json().usage).toEqual({ records: 1, validated: true });
    const off = await setLookupValueActive(t, staff.admin, value.id, false);
    expect(off).toMatchObject({ isActive: false, usage: { records: 1 } });
    const [audit] = (await auditEntries(t, 'lookups.deactivated')).filter((e) => e.target_id === value.id);
    expect(audit).toMatchObject({ reason: 'Test', actor_user_id: staff.admin.userId });
    expect(await codes('WaterClarity', author)).not.toContain('TeaStained');
    const refused = await call('POST', '/api/reports', author, { waterBody: 'Bog lake', location: { latitude: 47.5, longitude: -92.5 }, fishedOn: '2026-06-03', text: 'Dark water.', conditions: { clarity: 'TeaStained' } });
    expect(refused.json()).toMatchObject({ status: 400, code: 'lookups.unknown_value', errors: [{ pointer: '/conditions/clarity', detail: expect.stringContaining('no longer in use') }] });
    const reread = await call('GET', `/api/reports/${old.id}`, author);
    expect(reread.json().conditions.clarity).toBe('TeaStained');
    expect((await call('POST', `/api/admin/lookups/values/${value.id}/deactivate`, staff.admin, { reason: 'again' })).json().code).toBe('lookups.already_inactive');
    await setLookupValueActive(t, staff.admin, value.id, true);
    expect(await codes('WaterClarity', author)).toContain('TeaStained');
  });

  it('event types: a new type is usable in proposals and filters; an unknown one is a 400; a deactivated one still filters old events', async () => {
    const creator = await createUser(t);
    const unknown = await call('POST', '/api/events', creator, { ...(await eventBody()), type: 'Workshop' });
    expect(unknown.json()).toMatchObject({ status: 400, code: 'lookups.unknown_value', errors: [{ pointer: '/type', detail: expect.stringContaining('Expo, SwapMeet, Seminar, Tournament, Other') }] });
    const workshop = await createLookupValue(t, staff.admin, { category: 'EventType', code: 'Workshop', label: 'Workshop' });
    const event = await createEvent(t, creator, { type: 'Workshop' }, staff.admin);
    expect(event.type).toBe('Workshop');
    const filtered = await call('GET', '/api/events?type=Workshop', creator);
    expect(filtered.json().map((e: { id: string }) => e.id)).toContain(event.id);
    expect((await call('GET', '/api/events?type=Regatta', creator)).json()).toMatchObject({ status: 400, errors: [{ pointer: '/type', in: 'query' }] });
    await setLookupValueActive(t, staff.admin, workshop.id, false);
    expect((await call('GET', '/api/events?type=Workshop', creator)).json().map((e: { id: string }) => e.id)).toContain(event.id);
    expect((await call('GET', `/api/admin/lookups/values/${workshop.id}`, staff.admin)).json().usage).toEqual({ records: 1, validated: true });
  });
});

async function eventBody() {
  const start = Date.now() + 30 * 86_400_000;
  return { title: 'Fly tying night', startsAt: new Date(start).toISOString(), endsAt: new Date(start + 3 * 3_600_000).toISOString(), venueName: 'Library', location: { latitude: 46.36, longitude: -94.2 } };
}
