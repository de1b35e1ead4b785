import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createStaff, createUser, MISSING_ID, type Staff, type TestUser, createFishingReport, walleyeId } from '../../../test/factories.js';

let t: TestApp;
let jo: TestUser;
let sam: TestUser;
let staff: Staff;
let walleye: string;

beforeAll(async () => {
  t = await createTestApp();
  [jo, sam] = await Promise.all([createUser(t), createUser(t)]);
  staff = await createStaff(t, 'moderation.reject', { otherPermission: 'Users.View' });
  walleye = await walleyeId(t);
  // Reports mentioning "guide service" are held for a moderator (a flag rule for posts).
  const rule = await t.app.inject({
    method: 'POST',
    url: '/api/admin/moderation-rules',
    headers: staff.admin.headers,
    payload: { name: 'Guides', kind: 'keyword', pattern: 'guide service', action: 'flag', category: 'spam', appliesTo: ['post'] },
  });
  if (rule.statusCode !== 201) throw new Error(rule.body);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

describe('POST /api/reports', () => {
  it('publishes a clean report with conditions and species; others see the location rounded, the author exact', async () => {
    const res = await call('POST', '/api/reports', jo, {
      waterBody: 'Mille Lacs Lake',
      stateCode: 'US-MN',
      location: { latitude: 46.23456, longitude: -93.65432 },
      fishedOn: '2026-06-01',
      conditions: { waterTempC: 18.5, clarity: 'Clear', sky: 'PartlyCloudy', windKmh: 12, windDirection: 'NW' },
      species: [{ speciesId: walleye, bite: 'Good' }],
      text: 'Leeches on slip bobbers at dusk, 9 m.',
    });
    expect(res.statusCode).toBe(201);
    const report = res.json();
    expect(report).toEqual({
      photos: [],
      id: expect.any(String),
      author: { userId: jo.userId, username: jo.username },
      waterBody: 'Mille Lacs Lake',
      stateCode: 'US-MN',
      location: { latitude: 46.23456, longitude: -93.65432, precision: 'Exact' },
      fishedOn: '2026-06-01',
      conditions: { waterTempC: 18.5, clarity: 'Clear', sky: 'PartlyCloudy', windKmh: 12, windDirection: 'NW' },
      species: [{ speciesId: walleye, commonName: 'Walleye', bite: 'Good' }],
      text: 'Leeches on slip bobbers at dusk, 9 m.',
      status: 'Published',
      moderationReason: null,
      helpfulCount: 0,
      markedHelpful: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const seen = await call('GET', `/api/reports/${report.id}`, sam);
    expect(seen.json().location).toEqual({ latitude: 46.23, longitude: -93.65, precision: 'Approximate' });
    expect(JSON.stringify(seen.json())).not.toContain('46.23456');
    const calls = await t.database.pool.query('SELECT content_type, outcome FROM moderation_calls WHERE content_id = $1', [report.id]);
    expect(calls.rows).toEqual([{ content_type: 'fishing_report', outcome: 'clean' }]);
  });

  it('shows the exact point to everyone when the author chooses exactLocation', async () => {
    const report = await createFishingReport(t, jo, { exactLocation: true, location: { latitude: 46.1111, longitude: -93.2222 } });
    expect((await call('GET', `/api/reports/${report.id}`, sam)).json().location).toEqual({ latitude: 46.1111, longitude: -93.2222, precision: 'Exact' });
  });

  it('still takes the older top-level lat/lon (deprecated) and answers location; both spellings at once are a 400', async () => {
    const old = await call('POST', '/api/reports', jo, { waterBody: 'Old client lake', exactLocation: true, lat: 46.4321, lon: -93.4321, fishedOn: '2026-06-01', text: 'Slow.' });
    expect(old.statusCode).toBe(201);
    expect(old.json().location).toEqual({ latitude: 46.4321, longitude: -93.4321, precision: 'Exact' });
    const both = await call('POST', '/api/reports', jo, { waterBody: 'x', lon: -93, location: { latitude: 46, longitude: -93 }, fishedOn: '2026-06-01', text: 'x' });
    expect(both.json()).toMatchObject({ status: 400, errors: [{ pointer: '/lon' }] });
    const badOld = await call('POST', '/api/reports', jo, { waterBody: 'x', lat: 95, lon: -93, fishedOn: '2026-06-01', text: 'x' });
    expect(badOld.json()).toMatchObject({ status: 400, code: 'request.validation_failed', errors: [{ pointer: '/location/latitude' }] });
  });

  it('400 for an unknown species, a species twice, a future day or a bad field; 401 without a token', async () => {
    const unknown = await call('POST', '/api/reports', jo, { waterBody: 'x', location: { latitude: 46, longitude: -93 }, fishedOn: '2026-06-01', text: 'x', species: [{ speciesId: MISSING_ID, bite: 'Good' }] });
    expect(unknown.json()).toMatchObject({ status: 400, errors: [{ pointer: '/species/0' }] });
    const twice = await call('POST', '/api/reports', jo, {
      waterBody: 'x', location: { latitude: 46, longitude: -93 }, fishedOn: '2026-06-01', text: 'x',
      species: [{ speciesId: walleye, bite: 'Good' }, { speciesId: walleye, bite: 'Slow' }],
    });
    expect(twice.json()).toMatchObject({ code: 'reports.duplicate_species', errors: [{ pointer: '/species/1/speciesId' }] });
    const future = await call('POST', '/api/reports', jo, { waterBody: 'x', location: { latitude: 46, longitude: -93 }, fishedOn: '2999-01-01', text: 'x' });
    expect(future.json()).toMatchObject({ code: 'request.validation_failed', errors: [{ pointer: '/fishedOn', detail: expect.stringContaining('to at most 24 hours from now') }] });
    const early = await call('POST', '/api/reports', jo, { waterBody: 'x', location: { latitude: 46, longitude: -93 }, fishedOn: '1899-12-31', text: 'x' });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ errors: [{ pointer: '/fishedOn', detail: 'must be a calendar date YYYY-MM-DD (e.g. 2026-06-01), from 1900-01-01 to at most 24 hours from now' }] });
    const bad = await call('POST', '/api/reports', jo, { waterBody: 'x', location: { latitude: 95, longitude: -93 }, fishedOn: 'yesterday', text: 'x', conditions: { clarity: 'Green' } });
    expect(bad.json().errors.map((e: { pointer: string }) => e.pointer)).toEqual(expect.arrayContaining(['/location/latitude', '/fishedOn']));
    // Clarity is a lookup value, checked once the body is well formed.
    const clarity = await call('POST', '/api/reports', jo, { waterBody: 'x', location: { latitude: 46, longitude: -93 }, fishedOn: '2026-06-01', text: 'x', conditions: { clarity: 'Green' } });
    expect(clarity.json()).toMatchObject({ status: 400, code: 'lookups.unknown_value', errors: [{ pointer: '/conditions/clarity' }] });
    expect((await call('POST', '/api/reports', null, { waterBody: 'x', location: { latitude: 46, longitude: -93 }, fishedOn: '2026-06-01', text: 'x' })).statusCode).toBe(401);
  });
});

describe('moderation of reports', () => {
  it('a held report is seen by its author only, and a moderator with the grant publishes or rejects it (audit-logged)', async () => {
    const held = await createFishingReport(t, jo, { text: 'Call my guide service for the hot spots' });
    expect(held.status).toBe('PendingReview');
    expect((await call('GET', `/api/reports/${held.id}`, jo)).json()).toMatchObject({ status: 'PendingReview' });
    expect((await call('GET', `/api/reports/${held.id}`, sam)).json()).toMatchObject({ status: 403, code: 'reports.not_published' });
    const near = await call('GET', '/api/reports/by-location?lat=46.23&lon=-93.65&radiusKm=5', sam);
    expect(near.json().map((r: { id: string }) => r.id)).not.toContain(held.id);

    const queue = await call('GET', '/api/admin/fishing-reports', staff.admin);
    expect(queue.json().map((r: { id: string }) => r.id)).toContain(held.id);
    // Moderators see the point as everyone else does: location, rounded (the author did not choose exactLocation).
    const queued = queue.json().find((r: { id: string }) => r.id === held.id);
    expect(queued.location).toEqual({ latitude: 46.23, longitude: -93.65, precision: 'Approximate' });
    for (const key of ['lat', 'lon']) expect(queued).not.toHaveProperty(key);
    for (const user of [staff.standard, staff.moderator]) expect((await call('GET', '/api/admin/fishing-reports', user)).statusCode).toBe(403);

    for (const user of [staff.deniedAdmin, staff.moderator, staff.standard]) {
      const refused = await call('POST', `/api/admin/fishing-reports/${held.id}/reject`, user, { reason: 'Advertising' });
      expect(refused.json()).toMatchObject({ status: 403, code: 'access.permission_denied' });
    }
    const rejected = await call('POST', `/api/admin/fishing-reports/${held.id}/reject`, staff.grantedModerator, { reason: 'Advertising a guide service' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({ status: 'Rejected', moderationReason: 'Advertising a guide service', location: { latitude: 46.23, longitude: -93.65, precision: 'Approximate' } });
    expect((await call('GET', `/api/reports/${held.id}`, jo)).json()).toMatchObject({ status: 'Rejected', moderationReason: 'Advertising a guide service' });
    expect((await call('POST', `/api/admin/fishing-reports/${held.id}/reject`, staff.admin, { reason: 'again' })).json()).toMatchObject({ status: 409, code: 'reports.already_decided' });
    const approved = await call('POST', `/api/admin/fishing-reports/${held.id}/approve`, staff.admin);
    expect(approved.json()).toMatchObject({ status: 'Published', moderationReason: null, location: { latitude: 46.23, longitude: -93.65, precision: 'Approximate' } });
    for (const key of ['lat', 'lon']) expect(approved.json()).not.toHaveProperty(key);
    expect((await call('GET', `/api/reports/${held.id}`, sam)).statusCode).toBe(200);
    expect((await auditEntries(t, 'fishing_reports.rejected')).at(-1)).toMatchObject({ target_id: held.id, reason: 'Advertising a guide service', actor_user_id: staff.grantedModerator.userId });
    expect((await auditEntries(t, 'fishing_reports.approved')).at(-1)).toMatchObject({ target_id: held.id, actor_user_id: staff.admin.userId });
    expect((await call('POST', `/api/admin/fishing-reports/${MISSING_ID}/approve`, staff.admin)).statusCode).toBe(404);
    expect((await call('POST', `/api/admin/fishing-reports/${held.id}/approve`, null)).statusCode).toBe(401);
  });
});

describe('GET /api/reports/by-location and helpful marks', () => {
  it('lists published reports near a point, newest first, with helpful counts and distances', async () => {
    const older = await createFishingReport(t, sam, { location: { latitude: 44.001, longitude: -95.001 }, fishedOn: '2026-05-01', text: 'Older' });
    const newer = await createFishingReport(t, sam, { location: { latitude: 44.05, longitude: -95.0 }, fishedOn: '2026-05-20', text: 'Newer', species: [{ speciesId: walleye, bite: 'Hot' }] });
    await createFishingReport(t, sam, { location: { latitude: 45.5, longitude: -95.0 }, fishedOn: '2026-05-25', text: 'Too far' });
    const res = await call('GET', '/api/reports/by-location?lat=44&lon=-95&radiusKm=10', jo);
    expect(res.json().map((r: { id: string }) => r.id)).toEqual([newer.id, older.id]);
    expect(res.json()[0]).toMatchObject({ location: { latitude: 44.05, longitude: -95, precision: 'Approximate' }, distanceKm: expect.closeTo(5.56, 1), helpfulCount: 0 });
    for (const report of res.json()) for (const key of ['lat', 'lon']) expect(report).not.toHaveProperty(key);
    expect(res.headers['x-total-count']).toBe('2');
    const walleyeOnly = await call('GET', `/api/reports/by-location?lat=44&lon=-95&radiusKm=10&speciesId=${walleye}`, jo);
    expect(walleyeOnly.json().map((r: { id: string }) => r.id)).toEqual([newer.id]);
    expect((await call('GET', '/api/reports/by-location?lat=44&lon=-95&radiusKm=150', jo)).statusCode).toBe(400);
    expect((await call('GET', '/api/reports/by-location?lat=44&lon=-95', null)).statusCode).toBe(401);
  });

  it('marks a report helpful once per user, not one’s own; DELETE undoes it', async () => {
    const report = await createFishingReport(t, jo, { text: 'Helpful?' });
    expect((await call('POST', `/api/reports/${report.id}/rate`, jo)).json()).toMatchObject({ status: 409, code: 'reports.own_report' });
    expect((await call('POST', `/api/reports/${report.id}/rate`, sam)).json()).toEqual({ helpfulCount: 1, markedHelpful: true });
    expect((await call('POST', `/api/reports/${report.id}/rate`, sam)).json()).toMatchObject({ status: 409, code: 'reports.already_helpful' });
    expect((await call('POST', `/api/reports/${report.id}/rate`, staff.admin)).json()).toEqual({ helpfulCount: 2, markedHelpful: true });
    expect((await call('GET', `/api/reports/${report.id}`, sam)).json()).toMatchObject({ helpfulCount: 2, markedHelpful: true });
    expect((await call('DELETE', `/api/reports/${report.id}/rate`, sam)).json()).toEqual({ helpfulCount: 1, markedHelpful: false });
    expect((await call('DELETE', `/api/reports/${report.id}/rate`, sam)).json()).toMatchObject({ status: 409, code: 'reports.not_marked_helpful' });
    expect((await call('POST', `/api/reports/${MISSING_ID}/rate`, sam)).statusCode).toBe(404);
    expect((await call('POST', `/api/reports/${report.id}/rate`, null)).statusCode).toBe(401);
  });
});
