import { serviceDeps } from '../../core/service-deps.js';
import { recordStatements } from '../../../test/statements.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createStaff, createUser, MISSING_ID, type Staff, type TestUser, createLoggedCatch, FISH_OHIO, inches, LAKE_OF_THE_WOODS_CLOSURE, MN, PLACES, SPECIES } from '../../../test/factories.js';
import { masterAnglerEligibility } from './master-angler.service.js';

let t: TestApp;
let angler: TestUser;
let other: TestUser;
let staff: Staff;

beforeAll(async () => {
  t = await createTestApp();
  angler = await createUser(t);
  other = await createUser(t);
  staff = await createStaff(t, 'Regulations.Edit', { otherPermission: 'Regulations.View' });
});
afterAll(async () => t?.close());

const inject = (method: 'GET' | 'POST', url: string, user: TestUser | null, payload?: object) =>
  t.app.inject({ method, url, headers: user ? user.headers : {}, ...(payload ? { payload } : {}) });
const ohioCatch = (owner: TestUser, options: Parameters<typeof createLoggedCatch>[2] = {}) =>
  createLoggedCatch(t, owner.userId, { ...PLACES.columbus, stateCode: 'US-OH', speciesId: SPECIES.muskie, lengthCm: inches(44), ...options });

describe('GET /api/regulations/master-angler/{stateId}', () => {
  it('US-OH and OH give Fish Ohio with its minimums and award levels; 404 for an unknown state; 401 without token', async () => {
    const long = await inject('GET', '/api/regulations/master-angler/US-OH', angler);
    const short = await inject('GET', '/api/regulations/master-angler/oh', angler);
    expect(long.statusCode).toBe(200);
    expect(short.json()).toEqual(long.json());
    const program = long.json().programs[0];
    expect(program).toMatchObject({ id: FISH_OHIO, name: 'Fish Ohio', measurement: 'Length', awardLevels: [{ name: 'Fish Ohio', speciesCount: 1 }, { name: 'Master Angler', speciesCount: 4 }] });
    expect(program.species.find((s: { speciesId: string }) => s.speciesId === SPECIES.muskie)).toMatchObject({ minLengthIn: 40, minLengthCm: 101.6 });
    expect((await inject('GET', '/api/regulations/master-angler/TX', angler)).json()).toMatchObject({ status: 404, code: 'regulations.jurisdiction_not_found' });
    expect((await inject('GET', '/api/regulations/master-angler/MN', null)).statusCode).toBe(401);
  });
  it('the MN, MI and IA programs carry their award levels and how they measure (reference data with sources)', async () => {
    const program = async (state: string) => (await inject('GET', `/api/regulations/master-angler/${state}`, angler)).json().programs[0];
    const levels = (p: { awardLevels: Array<{ name: string; speciesCount: number }> }) => p.awardLevels.map((l) => [l.name, l.speciesCount]);
    const mn = await program('MN');
    expect(mn).toMatchObject({ name: 'Minnesota Master Angler', measurement: 'Either' });
    expect(levels(mn)).toEqual([['Master Angler', 1], ['Expert Angler', 3], ['Grand Master Angler', 5]]);
    const mi = await program('MI');
    expect(mi).toMatchObject({ name: 'Michigan Master Angler', measurement: 'Length', lengthIncrementIn: 0.125 });
    expect(levels(mi)).toEqual([['Master Angler', 1]]);
    const ia = await program('IA');
    expect(ia).toMatchObject({ name: 'Iowa Master Angler Award', measurement: 'Length', lengthIncrementIn: 0.25 });
    expect(levels(ia)).toEqual([['Master Angler', 1], ['Silver Master Angler', 5], ['Gold Master Angler', 10]]);
  });

  it('Fish Ohio lists its minimums each with the year it is confirmed for and its source; Michigan’s are of 2013 (Outdated); Minnesota has none (Missing)', async () => {
    const program = async (state: string) => (await inject('GET', `/api/regulations/master-angler/${state}`, angler)).json().programs[0];
    const ohio = await program('OH');
    expect(ohio).toMatchObject({ dataYear: 2020, dataStatus: 'Outdated' });
    expect(ohio.species.length).toBeGreaterThanOrEqual(25);
    expect(ohio.species.every((s: { sourceUrl: string | null; dataYear: number | null }) => s.sourceUrl !== null && s.dataYear !== null)).toBe(true);
    expect(ohio.species.find((s: { speciesId: string }) => s.speciesId === SPECIES.walleye)).toMatchObject({
      minLengthIn: 28,
      dataYear: 2023,
      sourceUrl: 'https://www.outdoornews.com/2024/04/22/lake-erie-provided-majority-of-fish-ohio-catches-in-2023/',
    });
    expect(ohio.species.find((s: { speciesId: string }) => s.speciesId === SPECIES.muskie)).toMatchObject({
      minLengthIn: 40,
      dataYear: 2020,
      sourceUrl: 'https://www.dispatch.com/story/sports/outdoors/2020/08/02/outdoors-fish-ohio-catches-measure-up-in-different-lengths/112787394/',
    });
    const michigan = await program('MI');
    expect(michigan).toMatchObject({ dataYear: 2013, dataStatus: 'Outdated' });
    expect(michigan.species.find((s: { speciesId: string }) => s.speciesId === SPECIES.brookTrout)).toMatchObject({ minLengthIn: 15, dataYear: 2013 });
    expect(await program('MN')).toMatchObject({ species: [], dataYear: null, dataStatus: 'Missing' });
  });
});

describe('eligibility detection (for the fishing log)', () => {
  it('a 44" muskie in Ohio qualifies for Fish Ohio; a 38" one does not; the home state counts too', async () => {
    expect(await masterAnglerEligibility(serviceDeps(t), { speciesId: SPECIES.muskie, lengthCm: inches(44), weightKg: null, stateCode: 'US-OH' })).toEqual([
      { programId: FISH_OHIO, programName: 'Fish Ohio', state: 'US-OH', category: 'Any', qualifiesBy: 'Length', minLengthIn: 40, minWeightLb: null },
    ]);
    expect(await masterAnglerEligibility(serviceDeps(t), { speciesId: SPECIES.muskie, lengthCm: inches(38), weightKg: null, stateCode: 'US-OH' })).toEqual([]);
    expect(await masterAnglerEligibility(serviceDeps(t), { speciesId: SPECIES.muskie, lengthCm: inches(44), weightKg: null, stateCode: 'US-MN', homeState: 'OH' })).toHaveLength(1);
  });
});

describe('the cached minimums (catch writes check them)', () => {
  const muskie38 = { speciesId: SPECIES.muskie, lengthCm: inches(38), weightKg: null, stateCode: 'US-OH' };
  const statementsOf = async (work: () => Promise<unknown>) => (await recordStatements(work)).map((s) => s.text);

  it('are read once, then follow changes: at once after an admin change here, on NOTIFY after a change by another process', async () => {
    await masterAnglerEligibility(serviceDeps(t), muskie38);
    expect(await statementsOf(() => masterAnglerEligibility(serviceDeps(t), muskie38))).toEqual([]);
    // Another process (here: plain SQL on the owner's connection) lowers the minimum: the trigger notifies.
    await t.database.owner.pool.query(`UPDATE ma_program_species SET min_length_in = 36 WHERE program_id = $1 AND species_id = $2`, [FISH_OHIO, SPECIES.muskie]);
    await vi.waitFor(async () => expect(await masterAnglerEligibility(serviceDeps(t), muskie38)).toHaveLength(1), { timeout: 5000, interval: 20 });
    // An administrator deactivates the program through the API: gone from the next check at once.
    const off = await inject('POST', `/api/admin/regulations/programs/${FISH_OHIO}/deactivate`, staff.admin, { reason: 'Season review' });
    expect(off.statusCode, off.body).toBe(200);
    expect(await masterAnglerEligibility(serviceDeps(t), muskie38)).toEqual([]);
    const on = await inject('POST', `/api/admin/regulations/programs/${FISH_OHIO}/reactivate`, staff.admin, { reason: 'Season review done' });
    expect(on.statusCode, on.body).toBe(200);
    expect(await masterAnglerEligibility(serviceDeps(t), muskie38)).toHaveLength(1);
    await t.database.owner.pool.query(`UPDATE ma_program_species SET min_length_in = 40 WHERE program_id = $1 AND species_id = $2`, [FISH_OHIO, SPECIES.muskie]);
    await vi.waitFor(async () => expect(await masterAnglerEligibility(serviceDeps(t), muskie38)).toEqual([]), { timeout: 5000, interval: 20 });
  });
});

describe('submissions', () => {
  it('submit your own qualifying catch; list and read it with history', async () => {
    const { catchId } = await ohioCatch(angler);
    const res = await inject('POST', '/api/regulations/master-angler/submissions', angler, { programId: FISH_OHIO, catchId, witness: 'Jo' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ programName: 'Fish Ohio', catchId, status: 'Submitted', attempt: 1, witness: 'Jo', programYear: 2025, species: { id: SPECIES.muskie }, canResubmit: false });
    expect(body.history).toEqual([{ status: 'Submitted', reason: null, at: expect.any(String), byReviewer: false }]);
    const list = await inject('GET', '/api/regulations/master-angler/submissions', angler);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json()[0].id).toBe(body.id);
    expect((await inject('GET', `/api/regulations/master-angler/submissions/${body.id}`, angler)).json().id).toBe(body.id);
    // Another angler: 403 on it, and an empty list.
    expect((await inject('GET', `/api/regulations/master-angler/submissions/${body.id}`, other)).json()).toMatchObject({ status: 403, code: 'regulations.submission_not_yours' });
    expect((await inject('GET', '/api/regulations/master-angler/submissions', other)).json()).toEqual([]);
    expect((await inject('GET', `/api/regulations/master-angler/submissions/${MISSING_ID}`, angler)).json()).toMatchObject({ status: 404, code: 'regulations.submission_not_found' });
    // One entry per species per program year.
    const second = await ohioCatch(angler, { lengthCm: inches(46) });
    expect((await inject('POST', '/api/regulations/master-angler/submissions', angler, { programId: FISH_OHIO, catchId: second.catchId })).json()).toMatchObject({
      status: 409,
      code: 'regulations.already_submitted',
    });
  });

  it('refuses another angler’s public catch (403), a catch under the minimum (422), an unknown program (400), and 401 without a token', async () => {
    const theirs = await ohioCatch(other, { visibility: 'Public' });
    expect((await inject('POST', '/api/regulations/master-angler/submissions', angler, { programId: FISH_OHIO, catchId: theirs.catchId })).json()).toMatchObject({
      status: 403,
      code: 'regulations.not_your_catch',
    });
    const small = await ohioCatch(angler, { speciesId: SPECIES.largemouth, lengthCm: inches(18) });
    expect((await inject('POST', '/api/regulations/master-angler/submissions', angler, { programId: FISH_OHIO, catchId: small.catchId })).json()).toMatchObject({
      status: 422,
      code: 'regulations.below_program_minimum',
    });
    // Valid requests the program's rules refuse are 422 too: a species it does not list, a catch with no measurement.
    const brookTrout = await ohioCatch(angler, { speciesId: SPECIES.brookTrout, lengthCm: inches(20) });
    expect((await inject('POST', '/api/regulations/master-angler/submissions', angler, { programId: FISH_OHIO, catchId: brookTrout.catchId })).json()).toMatchObject({
      status: 422,
      code: 'regulations.species_not_in_program',
    });
    const unmeasured = await ohioCatch(angler, { lengthCm: null });
    expect((await inject('POST', '/api/regulations/master-angler/submissions', angler, { programId: FISH_OHIO, catchId: unmeasured.catchId })).json()).toMatchObject({
      status: 422,
      code: 'regulations.measure_missing',
      detail: expect.stringContaining('neither length nor weight'),
    });
    expect((await inject('POST', '/api/regulations/master-angler/submissions', angler, { programId: MISSING_ID, catchId: small.catchId })).statusCode).toBe(400);
    expect((await inject('POST', '/api/regulations/master-angler/submissions', null, { programId: FISH_OHIO, catchId: small.catchId })).statusCode).toBe(401);
  });

  it('Minnesota’s program has no minimums yet: a 30" walleye is refused with a message that submissions open once an administrator enters them', async () => {
    const mn = (await inject('GET', '/api/regulations/master-angler/MN', angler)).json().programs[0];
    const { catchId } = await createLoggedCatch(t, angler.userId, { speciesId: SPECIES.walleye, lengthCm: inches(30) });
    const res = await inject('POST', '/api/regulations/master-angler/submissions', angler, { programId: mn.id, catchId });
    expect(res.json()).toMatchObject({ status: 409, code: 'regulations.program_minimums_missing' });
    expect(res.json().detail).toContain('Submissions open once an administrator enters the minimums');
    expect(res.json().detail).not.toContain('not a qualifying species');
  });

  it('two parallel submissions of the same species and year: one wins', async () => {
    const a = await ohioCatch(other, { speciesId: SPECIES.walleye, lengthCm: inches(29) });
    const b = await ohioCatch(other, { speciesId: SPECIES.walleye, lengthCm: inches(30) });
    const results = await Promise.all([a, b].map((c) => inject('POST', '/api/regulations/master-angler/submissions', other, { programId: FISH_OHIO, catchId: c.catchId })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });
});

describe('review, resubmission and progress', () => {
  it('Submitted → UnderReview → Rejected(reason) → resubmitted once → Approved; progress counts it', async () => {
    const { catchId } = await ohioCatch(angler, { speciesId: SPECIES.pike, lengthCm: inches(34) });
    const submitted = (await inject('POST', '/api/regulations/master-angler/submissions', angler, { programId: FISH_OHIO, catchId })).json();
    const base = `/api/admin/regulations/master-angler/submissions/${submitted.id}`;
    expect((await inject('POST', `${base}/start-review`, staff.admin, {})).json().status).toBe('UnderReview');
    const rejected = await inject('POST', `${base}/reject`, staff.grantedModerator, { reason: 'No measuring board in the photo' });
    expect(rejected.json()).toMatchObject({ status: 'Rejected', rejectionReason: 'No measuring board in the photo', canResubmit: true });
    expect((await auditEntries(t, 'regulations.submission_rejected')).at(-1)).toMatchObject({ target_id: submitted.id, reason: 'No measuring board in the photo' });
    // Only the submitter resubmits, once.
    expect((await inject('POST', `/api/regulations/master-angler/submissions/${submitted.id}/resubmit`, other, { photoUrl: 'https://p.example.com/2.jpg' })).statusCode).toBe(403);
    const again = await inject('POST', `/api/regulations/master-angler/submissions/${submitted.id}/resubmit`, angler, { photoUrl: 'https://p.example.com/2.jpg' });
    expect(again.json()).toMatchObject({ status: 'Submitted', attempt: 2, photoUrl: 'https://p.example.com/2.jpg' });
    expect((await inject('POST', `${base}/approve`, staff.owner, {})).json().status).toBe('Approved');
    expect((await inject('POST', `${base}/approve`, staff.owner, {})).json()).toMatchObject({ status: 409, code: 'regulations.invalid_transition' });
    const mine = (await inject('GET', `/api/regulations/master-angler/submissions/${submitted.id}`, angler)).json();
    expect(mine.history.map((h: { status: string }) => h.status)).toEqual(['Submitted', 'UnderReview', 'Rejected', 'Submitted', 'Approved']);
    const progress = (await inject('GET', '/api/regulations/master-angler/progress?year=2025', angler)).json();
    expect(progress).toEqual([{ programId: FISH_OHIO, programName: 'Fish Ohio', programYear: 2025, approvedSpecies: 1, level: 'Fish Ohio', nextLevel: { name: 'Master Angler', speciesNeeded: 3 } }]);
  });

  it('a rejected resubmission cannot be resubmitted again', async () => {
    const { catchId } = await ohioCatch(angler, { speciesId: SPECIES.perch, lengthCm: inches(14) });
    const s = (await inject('POST', '/api/regulations/master-angler/submissions', angler, { programId: FISH_OHIO, catchId })).json();
    const base = `/api/admin/regulations/master-angler/submissions/${s.id}`;
    await inject('POST', `${base}/reject`, staff.admin, { reason: 'blurry' });
    await inject('POST', `/api/regulations/master-angler/submissions/${s.id}/resubmit`, angler, { witness: 'Sam' });
    await inject('POST', `${base}/reject`, staff.admin, { reason: 'still blurry' });
    expect((await inject('POST', `/api/regulations/master-angler/submissions/${s.id}/resubmit`, angler, { witness: 'Sam' })).json()).toMatchObject({ status: 409, code: 'regulations.resubmission_used' });
  });
});

describe('admin: who may and who may not', () => {
  it('review list: Regulations.View — admin and owner yes, denied admin / plain moderator / standard no', async () => {
    const url = '/api/admin/regulations/master-angler/submissions';
    expect((await inject('GET', url, staff.admin)).statusCode).toBe(200);
    expect((await inject('GET', url, staff.moderator)).statusCode).toBe(200); // granted Regulations.View
    expect((await inject('GET', url, staff.standard)).json()).toMatchObject({ status: 403, code: 'access.permission_denied' });
    expect((await inject('GET', url, null)).statusCode).toBe(401);
  });

  it('decisions need Regulations.Edit: denied admin and the View-only moderator get 403; 404 for a missing id', async () => {
    const url = `/api/admin/regulations/master-angler/submissions/${MISSING_ID}/approve`;
    expect((await inject('POST', url, staff.deniedAdmin, {})).json()).toMatchObject({ status: 403, code: 'access.permission_denied' });
    expect((await inject('POST', url, staff.moderator, {})).statusCode).toBe(403);
    expect((await inject('POST', url, staff.grantedModerator, {})).json()).toMatchObject({ status: 404, code: 'regulations.submission_not_found' });
  });

  it('zone upload: validated GeoJSON, then the new water is found by location; deactivation with reason removes it', async () => {
    const ring = [
      [-93.9, 46.1],
      [-93.4, 46.1],
      [-93.4, 46.45],
      [-93.9, 46.45],
      [-93.9, 46.1],
    ];
    const bowTie = [
      [-93.9, 46.1],
      [-93.4, 46.45],
      [-93.4, 46.1],
      [-93.9, 46.45],
      [-93.9, 46.1],
    ];
    // kind: the older spelling water_body is still accepted (answered WaterBody)
    const body = (coordinates: number[][]) => ({ jurisdictionId: MN, kind: 'water_body', name: 'Test water', boundary: { type: 'Polygon', coordinates: [coordinates] }, reason: 'test' });
    expect((await inject('POST', '/api/admin/regulations/zones', staff.standard, body(ring))).statusCode).toBe(403);
    const bad = await inject('POST', '/api/admin/regulations/zones', staff.admin, body(bowTie));
    expect(bad.json()).toMatchObject({ status: 400, code: 'regulations.invalid_boundary', errors: [{ pointer: '/boundary/coordinates/0/0', in: 'body' }] });
    const open = await inject('POST', '/api/admin/regulations/zones', staff.admin, body(ring.slice(0, 4)));
    expect(open.json().errors[0].detail).toContain('not closed');
    const created = await inject('POST', '/api/admin/regulations/zones', staff.admin, body(ring));
    expect(created.statusCode).toBe(201);
    const zone = created.json();
    expect(zone).toMatchObject({ kind: 'WaterBody', name: 'Test water', pointCount: 5, isActive: true });
    const at = (await inject('GET', `/api/regulations/by-location?lat=${PLACES.milleLacs.lat}&lon=${PLACES.milleLacs.lon}&date=2025-06-01`, angler)).json();
    expect(at.areas.map((a: { name: string }) => a.name)).toContain('Test water');
    const off = await inject('POST', `/api/admin/regulations/zones/${zone.id}/deactivate`, staff.admin, { reason: 'Uploaded by mistake' });
    expect(off.json()).toEqual({ id: zone.id, isActive: false, deactivationReason: 'Uploaded by mistake' });
    expect((await inject('POST', `/api/admin/regulations/zones/${zone.id}/deactivate`, staff.admin, { reason: 'again' })).statusCode).toBe(409);
    expect((await inject('POST', `/api/admin/regulations/zones/${zone.id}/deactivate`, staff.admin, {})).statusCode).toBe(400);
    expect((await auditEntries(t, 'regulations.reg_zone_deactivated')).at(-1)).toMatchObject({ target_id: zone.id, reason: 'Uploaded by mistake' });
    const after = (await inject('GET', `/api/regulations/by-location?lat=${PLACES.milleLacs.lat}&lon=${PLACES.milleLacs.lon}&date=2025-06-01`, angler)).json();
    expect(after.areas.map((a: { name: string }) => a.name)).not.toContain('Test water');
  });

  it('emergency order: created with a reason, shown by location; deactivating a rule-set version falls back', async () => {
    const res = await inject('POST', '/api/admin/regulations/emergency-orders', staff.grantedModerator, LAKE_OF_THE_WOODS_CLOSURE);
    expect(res.statusCode).toBe(201);
    const at = (await inject('GET', `/api/regulations/by-location?lat=${PLACES.lakeOfTheWoods.lat}&lon=${PLACES.lakeOfTheWoods.lon}&date=2025-09-10&species=${SPECIES.walleye}`, angler)).json();
    expect(at.rules[0]).toMatchObject({ seasonStatus: 'Closed', emergencyOrders: [{ reason: 'Test closure' }] });
    expect((await inject('POST', '/api/admin/regulations/emergency-orders', staff.deniedAdmin, { jurisdictionId: MN, startsOn: '2025-09-01', endsOn: '2025-09-30', reason: 'x', overrides: { closed: true } })).statusCode).toBe(403);
    // Deactivate the Lake of the Woods walleye version: the statewide rule applies again.
    const lowRule = at.rules[0].ruleSetId;
    expect((await inject('POST', `/api/admin/regulations/rule-sets/${lowRule}/deactivate`, staff.admin, { reason: 'test' })).json().isActive).toBe(false);
    const fallback = (await inject('GET', `/api/regulations/by-location?lat=${PLACES.lakeOfTheWoods.lat}&lon=${PLACES.lakeOfTheWoods.lon}&date=2025-06-10&species=${SPECIES.walleye}`, angler)).json();
    expect(fallback.rules[0]).toMatchObject({ appliesIn: { level: 'Statewide' }, dailyBag: 6 });
    expect((await inject('POST', `/api/admin/regulations/rule-sets/${MISSING_ID}/deactivate`, staff.admin, { reason: 'test' })).statusCode).toBe(404);
  });
});
