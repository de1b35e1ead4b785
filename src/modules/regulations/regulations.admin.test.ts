import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createRegulationsStaff, expectStaffRefused, MISSING_ID, type Staff, type TestUser, LAKE_ERIE, LAKE_OF_THE_WOODS, LAKE_OF_THE_WOODS_CLOSURE, MN, MN_OUTLINE, OH, PLACES, ruleVersionBody, SPECIES } from '../../../test/factories.js';

let t: TestApp;
let edit: Staff;
let view: Staff;
let angler: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ edit, view, angler } = await createRegulationsStaff(t));
});
afterAll(async () => t?.close());

type Method = 'GET' | 'POST' | 'PATCH';
const inject = (method: Method, url: string, user: TestUser | null, payload?: object) =>
  t.app.inject({ method, url, headers: user ? user.headers : {}, ...(payload ? { payload } : {}) });


const rulesOn = async (place: { lat: number; lon: number }, date: string, species: string) =>
  (await inject('GET', `/api/regulations/by-location?lat=${place.lat}&lon=${place.lon}&date=${date}&species=${species}`, angler)).json().rules;

describe('admin lists (Regulations.View)', () => {
  it('jurisdictions: usage statistics, search and active filter; who may and who may not', async () => {
    const url = '/api/admin/regulations/jurisdictions?q=minn';
    await expectStaffRefused(t, 'GET', url, view);
    for (const user of [view.admin, view.grantedModerator, view.owner]) {
      const res = await inject('GET', url, user);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('1');
      expect(res.json()).toEqual([
        {
          id: MN,
          code: 'US-MN',
          name: 'Minnesota',
          agencyName: 'Minnesota Department of Natural Resources',
          agencyUrl: 'https://www.dnr.state.mn.us/regulations/fishing/index.html',
          licenseYearStartMonth: 3,
          licenseYearStartDay: 1,
          isActive: true,
          deactivationReason: null,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          usage: { zones: 2, ruleSets: expect.any(Number), emergencyOrders: 0, programs: 1, licenseYears: 1 },
        },
      ]);
    }
    const all = (await inject('GET', '/api/admin/regulations/jurisdictions?pageSize=100', view.admin)).json();
    expect(all.map((j: { code: string }) => j.code)).toEqual(['US-IA', 'US-MI', 'US-MN', 'US-OH', 'US-WI']);
    expect(all.find((j: { code: string }) => j.code === 'US-IA').usage).toEqual({ zones: 0, ruleSets: 0, emergencyOrders: 0, programs: 1, licenseYears: 0 });
    expect((await inject('GET', '/api/admin/regulations/jurisdictions?active=false', view.admin)).json()).toEqual([]);
  });

  it('zones: filters by jurisdiction and kind, with the rules and orders of each', async () => {
    const url = `/api/admin/regulations/zones?jurisdictionId=${MN}&kind=water_body`;
    await expectStaffRefused(t, 'GET', url, view);
    const res = await inject('GET', url, view.grantedModerator);
    expect(res.statusCode).toBe(200);
    const lotw = res.json().find((z: { id: string }) => z.id === LAKE_OF_THE_WOODS);
    expect(lotw).toMatchObject({ jurisdictionCode: 'US-MN', kind: 'WaterBody', name: 'Lake of the Woods (Minnesota waters)', isActive: true, pointCount: 9 });
    expect(lotw.usage.ruleSets).toBeGreaterThan(0);
    expect(lotw).not.toHaveProperty('geojson');
    const states = (await inject('GET', '/api/admin/regulations/zones?kind=state&q=ohio', view.admin)).json();
    expect(states).toEqual([expect.objectContaining({ kind: 'State', name: 'Ohio', jurisdictionCode: 'US-OH', usage: { ruleSets: 0, emergencyOrders: 0 } })]);
  });

  it('rule sets: filter by jurisdiction, species, license year and active; the seeded Lake Erie versions are chained', async () => {
    const url = `/api/admin/regulations/rule-sets?jurisdictionId=${OH}&speciesId=${SPECIES.walleye}&licenseYear=2025&active=true`;
    await expectStaffRefused(t, 'GET', url, view);
    const res = await inject('GET', url, view.admin);
    expect(res.statusCode).toBe(200);
    const erie = res.json().filter((r: { zoneId: string | null }) => r.zoneId === LAKE_ERIE);
    expect(erie.map((r: { version: number; effectiveFrom: string; effectiveTo: string | null; dailyBag: number }) => [r.version, r.effectiveFrom, r.effectiveTo, r.dailyBag])).toEqual([
      [2, '2025-05-01', null, 6],
      [1, '2025-03-01', '2025-04-30', 4],
    ]);
    expect(erie[0]).toMatchObject({ jurisdictionCode: 'US-OH', zoneName: 'Lake Erie (Ohio waters)', species: { id: SPECIES.walleye, commonName: 'Walleye' }, licenseYear: 2025, usage: { versions: 2, emergencyOrders: 0 } });
    expect((await inject('GET', `/api/admin/regulations/rule-sets?jurisdictionId=${OH}&licenseYear=2024`, view.admin)).json()).toEqual([]);
    const statewide = (await inject('GET', `/api/admin/regulations/rule-sets?jurisdictionId=${OH}&statewide=true&speciesId=${SPECIES.walleye}`, view.admin)).json();
    expect(statewide.every((r: { zoneId: string | null }) => r.zoneId === null)).toBe(true);
  });

  it('emergency orders: filter by date in force, with the rule sets each overrides', async () => {
    const created = await inject('POST', '/api/admin/regulations/emergency-orders', edit.admin, LAKE_OF_THE_WOODS_CLOSURE);
    const url = `/api/admin/regulations/emergency-orders?jurisdictionId=${MN}&on=2025-09-15`;
    await expectStaffRefused(t, 'GET', url, view);
    const res = await inject('GET', url, view.grantedModerator);
    expect(res.json()).toEqual([
      {
        id: created.json().id,
        jurisdictionId: MN,
        jurisdictionCode: 'US-MN',
        speciesId: SPECIES.walleye,
        zoneId: LAKE_OF_THE_WOODS,
        startsOn: '2025-09-01',
        endsOn: '2025-09-30',
        reason: 'Test closure',
        overrides: { closed: true },
        sourceUrl: null,
        isActive: true,
        deactivationReason: null,
        createdAt: expect.any(String),
        usage: { ruleSetsAffected: 1 },
      },
    ]);
    expect((await inject('GET', `/api/admin/regulations/emergency-orders?jurisdictionId=${MN}&on=2025-10-01`, view.admin)).json()).toEqual([]);
  });
});

describe('jurisdictions: create and update (Regulations.Edit)', () => {
  const body = (code: string) => ({ code, name: `Test ${code}`, agencyName: 'Test agency', agencyUrl: 'https://example.org/rules', licenseYearStartMonth: 4, licenseYearStartDay: 1, reason: 'Adding a province' });

  it('who may and who may not; the code is unique; audit-logged with the reason', async () => {
    await expectStaffRefused(t, 'POST', '/api/admin/regulations/jurisdictions', edit, body('CA-ON'));
    const res = await inject('POST', '/api/admin/regulations/jurisdictions', edit.grantedModerator, body('ca-on'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      code: 'CA-ON',
      name: 'Test ca-on',
      agencyName: 'Test agency',
      agencyUrl: 'https://example.org/rules',
      licenseYearStartMonth: 4,
      licenseYearStartDay: 1,
      isActive: true,
      deactivationReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      usage: { zones: 0, ruleSets: 0, emergencyOrders: 0, programs: 0, licenseYears: 0 },
    });
    expect((await auditEntries(t, 'regulations.reg_jurisdiction_created')).at(-1)).toMatchObject({ target_id: res.json().id, reason: 'Adding a province' });
    expect((await inject('POST', '/api/admin/regulations/jurisdictions', edit.admin, body('CA-ON'))).json()).toMatchObject({ status: 409, code: 'regulations.duplicate_jurisdiction' });
    expect((await inject('POST', '/api/admin/regulations/jurisdictions', edit.admin, { ...body('CA-QC'), licenseYearStartMonth: 2, licenseYearStartDay: 29 })).json()).toMatchObject({
      status: 400,
      code: 'regulations.invalid_reference',
      errors: [{ pointer: '/licenseYearStartDay', in: 'body' }],
    });
    expect((await inject('POST', '/api/admin/regulations/jurisdictions', edit.admin, { ...body('CA-QC'), reason: undefined })).statusCode).toBe(400);
  });

  it('update: given fields only, 404 for a missing id, before/after in the audit log', async () => {
    const url = `/api/admin/regulations/jurisdictions/${MN}`;
    await expectStaffRefused(t, 'PATCH', url, edit, { name: 'x', reason: 'y' });
    expect((await inject('PATCH', `/api/admin/regulations/jurisdictions/${MISSING_ID}`, edit.admin, { name: 'x', reason: 'y' })).json()).toMatchObject({
      status: 404,
      code: 'regulations.jurisdiction_not_found',
    });
    expect((await inject('PATCH', url, edit.admin, { reason: 'nothing to change' })).statusCode).toBe(400);
    const res = await inject('PATCH', url, edit.admin, { agencyName: 'Minnesota DNR', reason: 'Shorter name' });
    expect(res.json()).toMatchObject({ id: MN, code: 'US-MN', name: 'Minnesota', agencyName: 'Minnesota DNR', usage: { programs: 1 } });
    expect((await auditEntries(t, 'regulations.reg_jurisdiction_updated')).at(-1)).toMatchObject({
      target_id: MN,
      reason: 'Shorter name',
      before: { agencyName: 'Minnesota Department of Natural Resources' },
      after: { agencyName: 'Minnesota DNR' },
    });
  });

  it('update takes a JSON Merge Patch: the fields sent change, null on a required field is a 400 naming it, the reason is required', async () => {
    const url = `/api/admin/regulations/jurisdictions/${OH}`;
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url, headers: { ...edit.admin.headers, 'content-type': 'application/merge-patch+json' }, payload: JSON.stringify(payload) });
    const res = await patch({ agencyUrl: 'https://ohiodnr.gov/fishing', reason: 'The agency moved its page' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: OH, code: 'US-OH', name: 'Ohio', agencyUrl: 'https://ohiodnr.gov/fishing' });
    expect((await patch({ name: null, reason: 'x' })).json()).toMatchObject({ status: 400, errors: [expect.objectContaining({ pointer: '/name' })] });
    expect((await patch({ name: 'Ohio State' })).json()).toMatchObject({ status: 400 });
    expect((await patch({ licenseYearStartMonth: 2, licenseYearStartDay: 30, reason: 'x' })).json()).toMatchObject({ status: 400 });
    expect((await inject('GET', '/api/admin/regulations/jurisdictions?q=US-OH', view.admin)).json()[0]).toMatchObject({ name: 'Ohio', agencyUrl: 'https://ohiodnr.gov/fishing' });
  });
});

describe('rule-set versions (Regulations.Edit): a new version closes the previous one', () => {
  it('who may and who may not; the previous range closes the day before; by-location follows the dates', async () => {
    await expectStaffRefused(t, 'POST', '/api/admin/regulations/rule-sets', edit, ruleVersionBody());
    const res = await inject('POST', '/api/admin/regulations/rule-sets', edit.grantedModerator, ruleVersionBody({ dailyBag: 5, reason: 'Mid-season cut' }));
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      jurisdictionId: MN,
      jurisdictionCode: 'US-MN',
      zoneId: null,
      zoneName: null,
      species: { id: SPECIES.bluegill, commonName: 'Bluegill' },
      licenseYear: 2025,
      version: 2,
      effectiveFrom: '2025-07-01',
      effectiveTo: null,
      dailyBag: 5,
      source: { url: 'https://www.dnr.state.mn.us/regulations/fishing/index.html', bookletYear: 2025 },
      isActive: true,
      usage: { versions: 2, emergencyOrders: 0 },
    });
    const chain = (await inject('GET', `/api/admin/regulations/rule-sets?jurisdictionId=${MN}&statewide=true&speciesId=${SPECIES.bluegill}`, edit.admin)).json();
    expect(chain.map((r: { version: number; effectiveTo: string | null }) => [r.version, r.effectiveTo])).toEqual([
      [2, null],
      [1, '2025-06-30'],
    ]);
    expect((await auditEntries(t, 'regulations.reg_rule_set_version_created')).at(-1)).toMatchObject({
      target_id: created.id,
      reason: 'Mid-season cut',
      before: { id: chain[1].id, version: 1, effectiveTo: null },
    });
    expect((await rulesOn(PLACES.centralMinnesota, '2025-06-30', SPECIES.bluegill))[0]).toMatchObject({ version: 1, effectiveTo: '2025-06-30' });
    expect((await rulesOn(PLACES.centralMinnesota, '2025-07-01', SPECIES.bluegill))[0]).toMatchObject({ version: 2, dailyBag: 5, effectiveTo: null });

    // Deactivating the new version re-opens the previous one; reactivating it closes it again.
    await inject('POST', `/api/admin/regulations/rule-sets/${created.id}/deactivate`, edit.admin, { reason: 'Wrong date' });
    expect((await rulesOn(PLACES.centralMinnesota, '2025-08-01', SPECIES.bluegill))[0]).toMatchObject({ version: 1, effectiveTo: null });
    await inject('POST', `/api/admin/regulations/rule-sets/${created.id}/reactivate`, edit.admin, { reason: 'Date was right' });
    expect((await rulesOn(PLACES.centralMinnesota, '2025-08-01', SPECIES.bluegill))[0]).toMatchObject({ version: 2 });
    expect((await rulesOn(PLACES.centralMinnesota, '2025-06-01', SPECIES.bluegill))[0]).toMatchObject({ version: 1, effectiveTo: '2025-06-30' });
  });

  it('refuses a version not after the current one (409), inconsistent limits (400), a state outline or foreign zone (400)', async () => {
    expect((await inject('POST', '/api/admin/regulations/rule-sets', edit.admin, ruleVersionBody({ speciesId: SPECIES.perch, effectiveFrom: '2025-03-01' }))).json()).toMatchObject({
      status: 409,
      code: 'regulations.version_not_after_current',
    });
    const bad = await inject('POST', '/api/admin/regulations/rule-sets', edit.admin, ruleVersionBody({ slotFromIn: 20, slotToIn: 18, oneOverIn: 28 }));
    expect(bad.json()).toMatchObject({
      status: 400,
      code: 'regulations.invalid_rule',
      errors: [
        { pointer: '/oneOverCount', in: 'body', detail: 'is required with oneOverIn' },
        { pointer: '/slotToIn', in: 'body', detail: 'must be greater than slotFromIn' },
      ],
    });
    expect((await inject('POST', '/api/admin/regulations/rule-sets', edit.admin, ruleVersionBody({ zoneId: MN_OUTLINE }))).json()).toMatchObject({
      status: 400,
      errors: [{ pointer: '/zoneId' }],
    });
    expect((await inject('POST', '/api/admin/regulations/rule-sets', edit.admin, ruleVersionBody({ zoneId: LAKE_ERIE }))).json()).toMatchObject({
      status: 400,
      errors: [{ pointer: '/zoneId', detail: 'refers to no zone of the jurisdiction' }],
    });
    expect((await inject('POST', '/api/admin/regulations/rule-sets', edit.admin, ruleVersionBody({ speciesId: MISSING_ID }))).json()).toMatchObject({
      status: 400,
      errors: [{ pointer: '/speciesId' }],
    });
  });

  it('the license year is created when a version starts in one not recorded yet', async () => {
    const res = await inject('POST', '/api/admin/regulations/rule-sets', edit.admin, ruleVersionBody({ effectiveFrom: '2026-03-01', openSeasons: [{ from: '2026-03-01', to: '2027-02-28' }] }));
    expect(res.json()).toMatchObject({ licenseYear: 2026, version: 1, effectiveFrom: '2026-03-01' });
    const rules = await rulesOn(PLACES.centralMinnesota, '2026-04-01', SPECIES.bluegill);
    expect(rules[0]).toMatchObject({ version: 1, dailyBag: 10 });
  });

  it('new versions sent in parallel from the same date: one wins, the others see it (the license-year row lock)', async () => {
    const body = (dailyBag: number) => ruleVersionBody({ speciesId: SPECIES.lakeTrout, effectiveFrom: '2025-06-01', dailyBag });
    const results = await Promise.all([1, 2, 3, 4].map((n) => inject('POST', '/api/admin/regulations/rule-sets', edit.admin, body(n))));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    // The losers read the winner under the lock: a conflict naming it, never a unique-index failure.
    expect(results.filter((r) => r.statusCode === 409).map((r) => r.json().code)).toEqual(Array(3).fill('regulations.version_not_after_current'));
  });

  it('new versions from different dates sent in parallel never overlap', async () => {
    const dates = ['2025-05-01', '2025-06-01', '2025-07-01', '2025-08-01', '2025-09-01'];
    const results = await Promise.all(dates.map((effectiveFrom) => inject('POST', '/api/admin/regulations/rule-sets', edit.admin, ruleVersionBody({ speciesId: SPECIES.brookTrout, effectiveFrom }))));
    expect(results.every((r) => r.statusCode === 201 || r.json().code === 'regulations.version_not_after_current')).toBe(true);
    const created = results.filter((r) => r.statusCode === 201).length;
    expect(created).toBeGreaterThanOrEqual(1);
    const chain = (await inject('GET', `/api/admin/regulations/rule-sets?jurisdictionId=${MN}&speciesId=${SPECIES.brookTrout}&active=true`, edit.admin)).json() as Array<{
      version: number;
      effectiveFrom: string;
      effectiveTo: string | null;
    }>;
    expect(chain).toHaveLength(created);
    const ordered = [...chain].sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom));
    expect(ordered.map((v) => v.version)).toEqual(ordered.map((_v, i) => i + 1));
    ordered.forEach((v, i) => {
      const next = ordered[i + 1];
      if (!next) return expect(v.effectiveTo).toBeNull();
      const dayBefore = new Date(`${next.effectiveFrom}T00:00:00Z`);
      dayBefore.setUTCDate(dayBefore.getUTCDate() - 1);
      expect(v.effectiveTo).toBe(dayBefore.toISOString().slice(0, 10));
    });
  });
});
