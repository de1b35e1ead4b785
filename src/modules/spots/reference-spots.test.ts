import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySeeds } from '../../core/db/seeds.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createUser, type TestUser } from '../../../test/factories.js';
import { boatRampsSeed, loadBoatRamps, referenceSpotId } from './spots.seeds.js';

/** The public boat ramps seeded as reference spots (USGS Boat Ramp Locations, CC0). */

let t: TestApp;
let angler: TestUser;
let admin: TestUser;
let moderator: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  angler = await createUser(t);
  admin = await createUser(t, { role: 'Admin' });
  moderator = await createUser(t, { role: 'Moderator' });
});
afterAll(async () => t?.close());

const call = (method: 'GET' | 'POST', url: string, user: TestUser | null, payload?: object) =>
  t.app.inject({ method, url, headers: user ? user.headers : {}, ...(payload ? { payload } : {}) });
const SCIENCEBASE = 'https://www.sciencebase.gov/catalog/item/63b81b50d34e92aad3cc004d';
const FATHER_HENNEPIN = referenceSpotId('USGS_BoatRamps.csv OID_=24414');
const NORTH_GARRISON = referenceSpotId('USGS_BoatRamps.csv OID_=24584');
const near = async () => (await call('GET', '/api/spots/nearby?lat=46.23&lon=-93.65&radiusKm=30&kind=BoatRamp', angler)).json() as Array<Record<string, unknown>>;
const reseed = () => applySeeds(t.database.pool, [boatRampsSeed], { force: true });

describe('boat ramps seeded with the service', () => {
  it('the 111 Minnesota and Wisconsin ramps of the file, each once', async () => {
    const { rows } = await t.database.pool.query("SELECT state_code, count(*)::int AS n FROM spots WHERE source_record_id IS NOT NULL AND kind = 'BoatRamp' GROUP BY state_code ORDER BY state_code");
    expect(rows).toEqual([
      { state_code: 'US-MN', n: 72 },
      { state_code: 'US-WI', n: 39 },
    ]);
    expect(loadBoatRamps().ramps).toHaveLength(111);
  });

  it('the Mille Lacs accesses within 30 km, exact, verified, owned by nobody, with agency, county and source', async () => {
    const ramps = await near();
    expect(ramps.map((r) => r.name)).toEqual(['Cedar Creek', 'North Garrison Bay', '4th Street West', 'Father Hennepin State Park (East)']);
    expect(ramps.find((r) => r.id === FATHER_HENNEPIN)).toMatchObject({
      kind: 'BoatRamp',
      privacy: 'Public',
      location: { latitude: 46.1484007916, longitude: -93.4849793514, precision: 'Exact' },
      waterBody: 'Mille Lacs Lake',
      stateCode: 'US-MN',
      county: 'Mille Lacs County',
      agency: 'Minnesota Department of Natural Resources',
      sourceUrl: SCIENCEBASE,
      status: 'Verified',
      createdBy: null,
    });
    expect(ramps.find((r) => r.id === FATHER_HENNEPIN)!.description).toContain('OID_=24414');
    // Anyone may rate it; nobody needs to confirm a verified agency record.
    expect((await call('POST', `/api/spots/${FATHER_HENNEPIN}/rate`, angler, { stars: 5 })).statusCode).toBe(200);
    expect((await call('POST', `/api/spots/${FATHER_HENNEPIN}/confirm`, angler)).json()).toMatchObject({ status: 409, code: 'spots.already_verified' });
  });

  it('administrators correct and deactivate them (audit-logged with the reason); a re-seed neither undoes that nor duplicates a ramp', async () => {
    const correction = { waterBody: 'Mille Lacs Lake', reason: 'The source spells it MIlle Lacs Lake' };
    expect((await call('POST', `/api/admin/spots/${NORTH_GARRISON}/correct`, null, correction)).statusCode).toBe(401);
    for (const user of [angler, moderator]) expect((await call('POST', `/api/admin/spots/${NORTH_GARRISON}/correct`, user, correction)).statusCode).toBe(403);
    expect((await call('POST', `/api/admin/spots/${NORTH_GARRISON}/correct`, admin, { reason: 'nothing' })).statusCode).toBe(400);
    const corrected = await call('POST', `/api/admin/spots/${NORTH_GARRISON}/correct`, admin, correction);
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json()).toMatchObject({ id: NORTH_GARRISON, waterBody: 'Mille Lacs Lake', sourceUrl: SCIENCEBASE });
    expect((await auditEntries(t, 'spots.corrected')).at(-1)).toMatchObject({ target_id: NORTH_GARRISON, reason: correction.reason, before: { waterBody: 'MIlle Lacs Lake' }, after: { waterBody: 'Mille Lacs Lake' } });
    const moved = await call('POST', `/api/admin/spots/${FATHER_HENNEPIN}/correct`, admin, { location: { latitude: 46.1485, longitude: -93.485 }, reason: 'Surveyed' });
    expect(moved.json().location).toEqual({ latitude: 46.1485, longitude: -93.485, precision: 'Exact' });
    // One coordinate alone, in the older spelling (deprecated): the other stays.
    const nudged = await call('POST', `/api/admin/spots/${FATHER_HENNEPIN}/correct`, admin, { lat: 46.1486, reason: 'Surveyed again' });
    expect(nudged.json().location).toEqual({ latitude: 46.1486, longitude: -93.485, precision: 'Exact' });
    const back = await call('POST', `/api/admin/spots/${FATHER_HENNEPIN}/correct`, admin, { location: { latitude: 46.1485 }, reason: 'Survey error' });
    expect(back.json().location).toEqual({ latitude: 46.1485, longitude: -93.485, precision: 'Exact' });
    expect((await call('POST', `/api/admin/spots/${FATHER_HENNEPIN}/correct`, admin, { location: {}, reason: 'Nothing' })).statusCode).toBe(400);
    const off = await call('POST', `/api/admin/spots/${referenceSpotId('USGS_BoatRamps.csv OID_=24576')}/deactivate`, admin, { reason: 'Closed for reconstruction' });
    expect(off.json()).toMatchObject({ isActive: false });
    await reseed();
    const ramps = await near();
    expect(ramps.map((r) => r.name)).toEqual(['Cedar Creek', 'North Garrison Bay', 'Father Hennepin State Park (East)']);
    expect(ramps.find((r) => r.id === NORTH_GARRISON)!.waterBody).toBe('Mille Lacs Lake');
    expect(ramps.find((r) => r.id === FATHER_HENNEPIN)!.location).toEqual({ latitude: 46.1485, longitude: -93.485, precision: 'Exact' });
    const { rows } = await t.database.pool.query('SELECT count(*)::int AS n FROM spots WHERE source_record_id IS NOT NULL');
    expect(rows[0].n).toBe(111);
  });
});
