import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, MISSING_ID, type TestUser, createLoggedCatch, inches, LAKE_OF_THE_WOODS, MILLE_LACS, PLACES, SPECIES } from '../../../test/factories.js';
import { areasAtQuery } from './regulations.repository.js';

let t: TestApp;
let angler: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  angler = await createUser(t);
  other = await createUser(t);
});
afterAll(async () => t?.close());

const get = (url: string, user: TestUser | null = angler) => t.app.inject({ method: 'GET', url, headers: user ? user.headers : {} });
const byLocation = (place: { lat: number; lon: number }, extra = '') => get(`/api/regulations/by-location?lat=${place.lat}&lon=${place.lon}${extra}`);

describe('GET /api/regulations/by-location', () => {
  it('401 without a token', async () => {
    const res = await get('/api/regulations/by-location?lat=46&lon=-93', null);
    expect(res.statusCode).toBe(401);
  });

  it('statewide Minnesota rules on a summer day, with sources and the disclaimer', async () => {
    const res = await byLocation(PLACES.centralMinnesota, '&date=2025-06-01');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.jurisdiction.code).toBe('US-MN');
    expect(body.licenseYear).toEqual({ year: 2025, startsOn: '2025-03-01', endsOn: '2026-02-28' });
    expect(body.areas).toEqual([{ level: 'Statewide', zoneId: null, name: 'Minnesota' }]);
    expect(body.disclaimer).toContain('official regulation booklet');
    const walleye = body.rules.find((r: { species: { id: string } }) => r.species.id === SPECIES.walleye);
    expect(walleye).toMatchObject({
      appliesIn: { level: 'Statewide' },
      seasonStatus: 'Open',
      dailyBag: 6,
      oneOver: { over: { in: 20, cm: 50.8 }, count: 1 },
      combined: { group: 'walleye-sauger', bag: 6 },
      source: { url: 'https://www.dnr.state.mn.us/regulations/fishing/index.html', bookletYear: 2025 },
    });
    const muskie = body.rules.find((r: { species: { id: string } }) => r.species.id === SPECIES.muskie);
    expect(muskie).toMatchObject({ seasonStatus: 'Closed', minLength: { in: 54, cm: 137.2 }, dailyBag: 1 });
  });

  it('the water body wins for its species (Lake of the Woods walleye), the state for the others', async () => {
    const res = await byLocation(PLACES.lakeOfTheWoods, '&date=2026-02-25');
    const body = res.json();
    expect(body.areas.map((a: { level: string }) => a.level)).toEqual(['Statewide', 'WaterBody']);
    const walleye = body.rules.find((r: { species: { id: string } }) => r.species.id === SPECIES.walleye);
    expect(walleye).toMatchObject({
      appliesIn: { level: 'WaterBody', zoneId: LAKE_OF_THE_WOODS, name: 'Lake of the Woods (Minnesota waters)' },
      seasonStatus: 'Open', // statewide closed since Feb 22; the border-water season runs to April 14
      dailyBag: 4,
      protectedSlot: { from: { in: 19.5, cm: 49.5 }, to: { in: 28, cm: 71.1 } },
      combined: { group: 'walleye-sauger', bag: 6 },
    });
    const perch = body.rules.find((r: { species: { id: string } }) => r.species.id === SPECIES.perch);
    expect(perch.appliesIn.level).toBe('Statewide');
  });

  it('a past date returns the version in force then (Lake Erie walleye: 4 in April, 6 from May 1)', async () => {
    const april = (await byLocation(PLACES.lakeErie, `&date=2025-04-15&species=${SPECIES.walleye}`)).json();
    const june = (await byLocation(PLACES.lakeErie, `&date=2025-06-15&species=${SPECIES.walleye}`)).json();
    expect(april.rules).toHaveLength(1);
    expect(april.rules[0]).toMatchObject({ version: 1, dailyBag: 4, effectiveFrom: '2025-03-01', appliesIn: { level: 'WaterBody', name: 'Lake Erie (Ohio waters)' } });
    expect(june.rules[0]).toMatchObject({ version: 2, dailyBag: 6, effectiveFrom: '2025-05-01' });
  });

  it('404 outside every seeded state, 404 before our data, 404 for an unknown state, 400 for a bad date', async () => {
    const outside = await byLocation(PLACES.atlantic);
    expect(outside.statusCode).toBe(404);
    expect(outside.json().code).toBe('regulations.no_jurisdiction_here');
    const early = await byLocation(PLACES.centralMinnesota, '&date=2020-06-01');
    expect(early.json()).toMatchObject({ status: 404, code: 'regulations.no_license_year' });
    const unknown = await byLocation(PLACES.centralMinnesota, '&state=TX');
    expect(unknown.json()).toMatchObject({ status: 404, code: 'regulations.jurisdiction_not_found' });
    const bad = await byLocation(PLACES.centralMinnesota, '&date=2025-13-45');
    expect(bad.statusCode).toBe(400);
  });

  it('state= overrides the outline (near borders)', async () => {
    const res = await byLocation(PLACES.centralMinnesota, '&state=WI&date=2025-06-01');
    expect(res.json().jurisdiction.code).toBe('US-WI');
  });
});

describe('point-in-polygon lookup uses the GiST index', () => {
  it('EXPLAIN names reg_zone_rings_ring_gist', async () => {
    // Enough rings that a sequential scan is not the cheap plan: a grid of small squares.
    await t.database.pool.query(`
      INSERT INTO reg_zones (id, jurisdiction_id, kind, name, geojson, area_sq_deg, point_count)
      SELECT gen_random_uuid(), (SELECT id FROM reg_jurisdictions WHERE code = 'US-MN'), 'water_body', 'grid ' || g, '{}'::jsonb, 0.0001, 5
      FROM generate_series(1, 5000) g`);
    await t.database.pool.query(`
      INSERT INTO reg_zone_rings (id, zone_id, ring)
      SELECT gen_random_uuid(), z.id, polygon(box(point(-100 + (n % 100) * 0.05, 30 + (n / 100) * 0.05), point(-100 + (n % 100) * 0.05 + 0.01, 30 + (n / 100) * 0.05 + 0.01)))
      FROM (SELECT id, row_number() OVER () AS n FROM reg_zones WHERE name LIKE 'grid %') z`);
    await t.database.pool.query('ANALYZE reg_zone_rings');
    const query = areasAtQuery(-93.65, 46.25);
    const { sql, params } = new PgDialect().sqlToQuery(query);
    const plan = await t.database.pool.query(`EXPLAIN ${sql}`, params);
    const text = plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('reg_zone_rings_ring_gist');
    expect(text).not.toMatch(/Seq Scan on reg_zone_rings/);
  });
});

describe('Minnesota 2025 as the booklet states it', () => {
  const rule = async (place: { lat: number; lon: number }, date: string, species: string) => (await byLocation(place, `&date=${date}&species=${species}`)).json().rules[0];

  it('Mille Lacs open water 2025: 2 walleye, both at least 17", only 1 over 20" (news quoting the DNR, so marked); winter unknown; the lake outline says it is simplified', async () => {
    const summer = await byLocation(PLACES.milleLacs, '&date=2025-06-01');
    const body = summer.json();
    expect(body.areas).toContainEqual({ level: 'WaterBody', zoneId: MILLE_LACS, name: 'Mille Lacs Lake' });
    const walleye = body.rules.find((r: { species: { id: string } }) => r.species.id === SPECIES.walleye);
    expect(walleye).toMatchObject({
      appliesIn: { level: 'WaterBody', zoneId: MILLE_LACS },
      seasonStatus: 'Open',
      openSeasons: [{ from: '2025-05-10', to: '2025-11-30' }],
      dailyBag: 2,
      minLength: { in: 17 },
      oneOver: { over: { in: 20 }, count: 1 },
      source: { url: 'https://wjon.com/mille-lacs-walleye-bag-limit-set-for-2025-open-water-season/', bookletYear: 2025 },
    });
    expect(walleye.notes).toContain('news items quoting the Minnesota DNR');
    // Species without a Mille Lacs rule keep the statewide one.
    expect(body.rules.find((r: { species: { id: string } }) => r.species.id === SPECIES.perch).appliesIn.level).toBe('Statewide');
    expect(await rule(PLACES.milleLacs, '2025-12-15', SPECIES.walleye)).toMatchObject({ appliesIn: { zoneId: MILLE_LACS }, version: 2, seasonStatus: 'Unknown', dailyBag: null });
    const zone = await t.database.pool.query('SELECT description FROM reg_zones WHERE id = $1', [MILLE_LACS]);
    expect(zone.rows[0].description).toContain('hand-simplified');
  });

  it('corrected from the booklet: smallmouth release-only after Sept 7, muskie to Dec 1, perch possession 40, Lake of the Woods open in March', async () => {
    expect((await rule(PLACES.centralMinnesota, '2025-09-15', SPECIES.smallmouth)).seasonStatus).toBe('ReleaseOnly');
    expect((await rule(PLACES.centralMinnesota, '2025-07-15', SPECIES.smallmouth)).seasonStatus).toBe('Open');
    expect((await rule(PLACES.centralMinnesota, '2025-12-01', SPECIES.muskie)).seasonStatus).toBe('Open');
    expect((await rule(PLACES.centralMinnesota, '2025-12-02', SPECIES.muskie)).seasonStatus).toBe('Closed');
    expect(await rule(PLACES.centralMinnesota, '2025-06-01', SPECIES.perch)).toMatchObject({ dailyBag: 20, possessionLimit: 40 });
    expect(await rule(PLACES.lakeOfTheWoods, '2025-04-01', SPECIES.walleye)).toMatchObject({ seasonStatus: 'Open', appliesIn: { zoneId: LAKE_OF_THE_WOODS } });
    expect(await rule(PLACES.lakeOfTheWoods, '2025-04-20', SPECIES.walleye)).toMatchObject({ seasonStatus: 'Closed' });
    expect(await rule(PLACES.lakeOfTheWoods, '2025-04-20', SPECIES.pike)).toMatchObject({ seasonStatus: 'Open', dailyBag: 3 });
  });

  it('a Mille Lacs walleye under 17" must be released, an 18" one may be kept', async () => {
    const small = await createLoggedCatch(t, angler.userId, { ...PLACES.milleLacs, lengthCm: inches(16), caughtAt: '2025-06-14T15:00:00Z' });
    expect((await get(`/api/regulations/check?catchId=${small.catchId}`)).json()).toMatchObject({ legal: 'No', legalToKeep: false, reasons: [{ code: 'under_minimum' }], appliesIn: { zoneId: MILLE_LACS } });
    const keeper = await createLoggedCatch(t, angler.userId, { ...PLACES.milleLacs, lengthCm: inches(18), caughtAt: '2025-06-15T15:00:00Z' });
    expect((await get(`/api/regulations/check?catchId=${keeper.catchId}`)).json()).toMatchObject({ legal: 'Yes', legalToKeep: true, reasons: [] });
  });
});

describe('GET /api/regulations/check', () => {
  const check = (catchId: string, user: TestUser | null = angler) => get(`/api/regulations/check?catchId=${catchId}`, user);

  it('401 without a token; 404 for a missing catch; 403 for a private catch of another angler', async () => {
    const { catchId } = await createLoggedCatch(t, other.userId, { visibility: 'Private' });
    expect((await check(catchId, null)).statusCode).toBe(401);
    const missing = await check(MISSING_ID);
    expect(missing.json()).toMatchObject({ status: 404, code: 'regulations.catch_not_found' });
    const hidden = await check(catchId);
    expect(hidden.json()).toMatchObject({ status: 403, code: 'fishinglog.entry_not_visible' });
  });

  it('a public catch of another angler may be checked', async () => {
    const { catchId } = await createLoggedCatch(t, other.userId, { visibility: 'Public', lengthCm: inches(16) });
    const res = await check(catchId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ catchId, legalToKeep: true, reasons: [], jurisdiction: { code: 'US-MN' } });
  });

  it('inside the Lake of the Woods protected slot: must be released, and why', async () => {
    const { catchId } = await createLoggedCatch(t, angler.userId, { ...PLACES.lakeOfTheWoods, lengthCm: inches(24) });
    const body = (await check(catchId)).json();
    expect(body).toMatchObject({
      legalToKeep: false,
      reasons: [{ code: 'in_protected_slot' }],
      appliesIn: { level: 'WaterBody', zoneId: LAKE_OF_THE_WOODS },
      source: { bookletYear: 2025 },
    });
    expect(body.reasons[0].detail).toContain('19.5');
  });

  it('closed season (muskie before the June opener)', async () => {
    const { catchId } = await createLoggedCatch(t, angler.userId, { speciesId: SPECIES.muskie, lengthCm: inches(55), caughtAt: '2025-05-20T15:00:00Z' });
    expect((await check(catchId)).json()).toMatchObject({ legalToKeep: false, reasons: [{ code: 'closed_season' }] });
  });

  it('over the daily bag counting the angler’s other kept catches that day (not released ones, not other days)', async () => {
    const day = '2025-07-04T';
    const first = await createLoggedCatch(t, angler.userId, { lengthCm: inches(15), count: 5, caughtAt: `${day}13:00:00Z` });
    await createLoggedCatch(t, angler.userId, { lengthCm: inches(15), released: true, count: 3, caughtAt: `${day}14:00:00Z`, entryId: first.entryId });
    await createLoggedCatch(t, angler.userId, { lengthCm: inches(15), count: 5, caughtAt: '2025-07-05T14:00:00Z' });
    const sixth = await createLoggedCatch(t, angler.userId, { lengthCm: inches(15), caughtAt: `${day}15:00:00Z`, entryId: first.entryId });
    expect((await check(sixth.catchId)).json()).toMatchObject({ legalToKeep: true });
    const seventh = await createLoggedCatch(t, angler.userId, { lengthCm: inches(15), caughtAt: `${day}16:00:00Z`, entryId: first.entryId });
    const body = (await check(seventh.catchId)).json();
    expect(body.legalToKeep).toBe(false);
    expect(body.reasons.map((r: { code: string }) => r.code)).toEqual(['daily_bag_exceeded', 'combined_bag_exceeded']);
  });

  it('an emergency order applies in its date range', async () => {
    await t.database.pool.query(
      `INSERT INTO reg_emergency_orders (id, jurisdiction_id, species_id, starts_on, ends_on, reason, overrides)
       VALUES (gen_random_uuid(), (SELECT id FROM reg_jurisdictions WHERE code = 'US-MN'), $1, '2025-08-01', '2025-08-15', 'Test order: fish kill', '{"releaseOnly": true}')`,
      [SPECIES.bluegill],
    );
    const { catchId } = await createLoggedCatch(t, angler.userId, { speciesId: SPECIES.bluegill, lengthCm: 20, caughtAt: '2025-08-10T15:00:00Z' });
    const body = (await check(catchId)).json();
    expect(body).toMatchObject({ legalToKeep: false, reasons: [{ code: 'release_only' }], emergencyOrders: [{ reason: 'Test order: fish kill', overrides: { releaseOnly: true } }] });
  });

  it('422 when neither the catch nor its entry has a place', async () => {
    const { catchId } = await createLoggedCatch(t, angler.userId, { lat: null, lon: null, stateCode: null });
    const res = await check(catchId);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ status: 422, code: 'regulations.catch_without_location' });
  });

  it('a state without coordinates gives the statewide rules', async () => {
    const { catchId } = await createLoggedCatch(t, angler.userId, { lat: null, lon: null, stateCode: 'US-MN', lengthCm: inches(15) });
    expect((await check(catchId)).json()).toMatchObject({ legalToKeep: true, appliesIn: { level: 'Statewide' } });
  });
});

describe('rule sets are never edited in place', () => {
  it('the database refuses an UPDATE of a rule and a DELETE', async () => {
    await expect(t.database.pool.query('UPDATE reg_rule_sets SET daily_bag = 99 WHERE daily_bag = 6')).rejects.toThrow(/never edited in place/);
    await expect(t.database.pool.query('DELETE FROM reg_rule_sets')).rejects.toThrow(/never deleted/);
  });
});
