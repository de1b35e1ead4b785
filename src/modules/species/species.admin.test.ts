import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { type TestUser, MISSING_ID, auditCount, lastAudit, createStaff, createEntryWithCatch } from '../../../test/factories.js';
import { speciesId } from './species.seeds.js';

let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let deniedAdmin: TestUser;
let moderator: TestUser;
let grantedModerator: TestUser;
let standard: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, admin, deniedAdmin, moderator, grantedModerator, standard } = await createStaff(t, 'Species.Manage', { otherPermission: 'Brands.Manage' }));
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

const floridaBass = { commonName: 'Florida bass', scientificName: 'Micropterus floridanus', otherNames: ['Florida largemouth'], waterTypes: ['Freshwater'] };

describe('who may manage species (Species.Manage)', () => {
  const bass = speciesId('Micropterus dolomieu');
  const endpoints = (): Array<[Method, string, unknown?]> => [
    ['GET', '/api/admin/species'],
    ['GET', `/api/admin/species/${bass}`],
    ['POST', '/api/admin/species', { commonName: 'Shoal bass', scientificName: 'Micropterus cataractae', waterTypes: ['Freshwater'] }],
    ['PATCH', `/api/admin/species/${bass}`, { otherNames: ['Smallie', 'Bronzeback', 'Brown bass'] }],
    ['POST', `/api/admin/species/${bass}/deactivate`, {}],
    ['POST', `/api/admin/species/${bass}/reactivate`, {}],
  ];

  it('needs a token (401)', async () => {
    for (const [method, url, payload] of endpoints()) {
      const res = await call(method, url, null, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('refuses Standard, a Moderator without the grant (even with Brands.Manage) and an Admin denied it (403), changing nothing', async () => {
    for (const user of [standard, moderator, deniedAdmin]) {
      for (const [method, url, payload] of endpoints()) {
        const before = await auditCount(t);
        const res = await call(method, url, user, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().code).toBe('access.permission_denied');
        expect(res.json().detail).toContain('Species.Manage');
        expect(await auditCount(t)).toBe(before);
      }
    }
    const row = await t.database.pool.query("SELECT 1 FROM fish_species WHERE scientific_name = 'Micropterus cataractae'");
    expect(row.rowCount).toBe(0);
  });

  it('lets the Owner, an Admin and a Moderator granted Species.Manage in', async () => {
    for (const user of [owner, admin, grantedModerator]) {
      expect((await call('GET', '/api/admin/species?pageSize=1', user)).statusCode).toBe(200);
    }
    const created = await call('POST', '/api/admin/species', grantedModerator, { commonName: 'Shoal bass', scientificName: 'Micropterus cataractae', waterTypes: ['Freshwater'] });
    expect(created.statusCode).toBe(201);
    const deactivated = await call('POST', `/api/admin/species/${created.json().id}/deactivate`, admin, {});
    expect(deactivated.statusCode).toBe(200);
    expect((await call('POST', `/api/admin/species/${created.json().id}/reactivate`, owner, {})).statusCode).toBe(200);
  });
});

describe('POST /api/admin/species', () => {
  it('adds a species to a known genus, audit-logged, and it is listed and found at once', async () => {
    const before = await auditCount(t);
    const res = await call('POST', '/api/admin/species', admin, floridaBass);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      ...floridaBass,
      isActive: true,
      deactivatedAt: null,
      taxonomy: { genus: { name: 'Micropterus' }, family: { name: 'Centrarchidae' }, order: { name: 'Perciformes' } },
      usage: { catches: 0, anglers: 0, lastCaughtAt: null, lures: 0 },
    });
    expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/); // UUIDv7: added, not seeded
    expect(await auditCount(t)).toBe(before + 1);
    expect(await lastAudit(t)).toMatchObject({ action: 'species.created', actor_user_id: admin.userId, target_type: 'fish_species', target_id: body.id, after: expect.objectContaining({ scientificName: 'Micropterus floridanus', genus: 'Micropterus' }) });
    const search = (await call('GET', '/api/fish-species?q=florida%20largemouth', standard)).json();
    expect(search[0].id).toBe(body.id);
    const related = (await call('GET', `/api/fish-species/${speciesId('Micropterus salmoides')}`, standard)).json();
    expect(related.relatedSpecies.sameGenus.map((s: { id: string }) => s.id)).toContain(body.id);
  });

  it('refuses a scientific name already in the catalogue (409)', async () => {
    const res = await call('POST', '/api/admin/species', admin, { commonName: 'Walleye again', scientificName: 'Sander vitreus', waterTypes: ['Freshwater'] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'species.duplicate', detail: expect.stringContaining(speciesId('Sander vitreus')) });
  });

  it('needs the family of a new genus and the order of a new family (400 naming the field), then creates them', async () => {
    const body = { commonName: 'Sea lamprey', scientificName: 'Petromyzon marinus', waterTypes: ['Freshwater', 'Saltwater'] };
    const noFamily = await call('POST', '/api/admin/species', admin, body);
    expect(noFamily.statusCode).toBe(400);
    expect(noFamily.json()).toMatchObject({ code: 'species.family_required', errors: [{ pointer: '/family', in: 'body' }] });
    const noOrder = await call('POST', '/api/admin/species', admin, { ...body, family: 'Petromyzontidae' });
    expect(noOrder.statusCode).toBe(400);
    expect(noOrder.json()).toMatchObject({ code: 'species.order_required', errors: [{ pointer: '/order', in: 'body' }] });
    const created = await call('POST', '/api/admin/species', admin, { ...body, family: 'Petromyzontidae', familyCommonName: 'Northern lampreys', order: 'Petromyzontiformes', orderCommonName: 'Lampreys' });
    expect(created.statusCode).toBe(201);
    expect(created.json().taxonomy).toMatchObject({
      genus: { name: 'Petromyzon' },
      family: { name: 'Petromyzontidae', commonName: 'Northern lampreys' },
      order: { name: 'Petromyzontiformes', commonName: 'Lampreys' },
    });
    const families = (await call('GET', '/api/fish-species/families?order=Petromyzontiformes', standard)).json();
    expect(families).toEqual([expect.objectContaining({ name: 'Petromyzontidae', speciesCount: 1 })]);
  });

  it('refuses a family or order that contradicts the catalogue (409)', async () => {
    const wrongFamily = await call('POST', '/api/admin/species', admin, { commonName: 'Shoal bass 2', scientificName: 'Micropterus henshalli', waterTypes: ['Freshwater'], family: 'Percidae' });
    expect(wrongFamily.statusCode).toBe(409);
    expect(wrongFamily.json()).toMatchObject({ code: 'species.taxonomy_conflict', detail: expect.stringContaining('Centrarchidae') });
    const wrongOrder = await call('POST', '/api/admin/species', admin, { commonName: 'X', scientificName: 'Newgenus novus', waterTypes: ['Freshwater'], family: 'Salmonidae', order: 'Perciformes' });
    expect(wrongOrder.statusCode).toBe(409);
  });

  it('validates the body (400 naming fields)', async () => {
    const res = await call('POST', '/api/admin/species', admin, { commonName: '', scientificName: 'walleye', waterTypes: [], isActive: false });
    expect(res.statusCode).toBe(400);
    const pointers = res.json().errors.map((e: { pointer: string }) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/commonName', '/scientificName', '/waterTypes', '/isActive']));
    const family = await call('POST', '/api/admin/species', admin, { ...floridaBass, scientificName: 'Micropterus nova', family: 'sunfishes' });
    expect(family.json().errors[0].pointer).toBe('/family');
  });
});

describe('PATCH /api/admin/species/{id}', () => {
  it('changes the given fields, keeps the others, re-indexes the search, audit-logs before and after', async () => {
    const id = speciesId('Sander canadensis');
    const res = await call('PATCH', `/api/admin/species/${id}`, admin, { otherNames: ['Sand pike', 'Spotfin pike', 'Jack salmon'], reason: 'Ohio River name' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ commonName: 'Sauger', otherNames: ['Sand pike', 'Spotfin pike', 'Jack salmon'], waterTypes: ['Freshwater'] });
    expect(await lastAudit(t)).toMatchObject({
      action: 'species.updated',
      target_id: id,
      reason: 'Ohio River name',
      before: expect.objectContaining({ otherNames: ['Sand pike', 'Spotfin pike'] }),
      after: expect.objectContaining({ otherNames: ['Sand pike', 'Spotfin pike', 'Jack salmon'] }),
    });
    const search = (await call('GET', '/api/fish-species?q=jack%20salmon', standard)).json();
    expect(search[0].id).toBe(id);
  });

  it('moves a species to another genus when its scientific name changes', async () => {
    const created = (await call('POST', '/api/admin/species', admin, { commonName: 'Test perch', scientificName: 'Perca testus', waterTypes: ['Freshwater'] })).json();
    const res = await call('PATCH', `/api/admin/species/${created.id}`, admin, { scientificName: 'Sander testus' });
    expect(res.statusCode).toBe(200);
    expect(res.json().taxonomy.genus.name).toBe('Sander');
    const clash = await call('PATCH', `/api/admin/species/${created.id}`, admin, { scientificName: 'Sander vitreus' });
    expect(clash.statusCode).toBe(409);
  });

  it('takes application/merge-patch+json: null clears the other names, null on a required field is a 400 naming it', async () => {
    const created = (await call('POST', '/api/admin/species', admin, { commonName: 'Patch perch', scientificName: 'Perca patchus', otherNames: ['Old name'], waterTypes: ['Freshwater'] })).json();
    const patch = (payload: unknown) =>
      t.app.inject({ method: 'PATCH', url: `/api/admin/species/${created.id}`, headers: { ...admin.headers, 'content-type': 'application/merge-patch+json' }, payload: JSON.stringify(payload) });
    const cleared = await patch({ otherNames: null, reason: 'Name not used' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ commonName: 'Patch perch', otherNames: [], waterTypes: ['Freshwater'] });
    const required = await patch({ waterTypes: null });
    expect(required.statusCode).toBe(400);
    expect(required.json()).toMatchObject({ code: 'request.required_field_cleared', errors: [{ pointer: '/waterTypes' }] });
    const bad = await patch({ waterTypes: [] });
    expect(bad.statusCode).toBe(400);
    expect((await call('GET', `/api/admin/species/${created.id}`, admin)).json().waterTypes).toEqual(['Freshwater']);
  });

  it('answers 404 for an unknown species and 400 for an empty body', async () => {
    expect((await call('PATCH', `/api/admin/species/${MISSING_ID}`, admin, { commonName: 'Ghost' })).statusCode).toBe(404);
    const empty = await call('PATCH', `/api/admin/species/${speciesId('Sander vitreus')}`, admin, {});
    expect(empty.statusCode).toBe(400);
  });
});

describe('deactivation and usage statistics', () => {
  it('deactivates (soft delete): out of lists, readable by id, refused twice; reactivates', async () => {
    const id = speciesId('Lepomis megalotis');
    const res = await t.app.inject({ method: 'POST', url: `/api/admin/species/${id}/deactivate`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isActive: false, deactivatedAt: expect.any(String) });
    expect(await lastAudit(t)).toMatchObject({ action: 'species.deactivated', target_id: id, before: { isActive: true }, after: { isActive: false } });
    expect((await call('GET', '/api/fish-species?q=longear%20sunfish', standard)).json().map((s: { id: string }) => s.id)).not.toContain(id);
    expect((await call('GET', `/api/fish-species/${id}`, standard)).json().isActive).toBe(false);
    const inactive = (await call('GET', '/api/admin/species?status=inactive&pageSize=100', admin)).json();
    expect(inactive.map((s: { id: string }) => s.id)).toContain(id);
    const again = await call('POST', `/api/admin/species/${id}/deactivate`, admin, { reason: 'twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('species.already_inactive');
    const back = await call('POST', `/api/admin/species/${id}/reactivate`, admin, { reason: 'it is a real species' });
    expect(back.json().isActive).toBe(true);
    expect(await lastAudit(t)).toMatchObject({ action: 'species.reactivated', reason: 'it is a real species' });
    expect((await call('POST', `/api/admin/species/${id}/reactivate`, admin, {})).statusCode).toBe(409);
    expect((await call('POST', `/api/admin/species/${MISSING_ID}/deactivate`, admin, {})).statusCode).toBe(404);
  });

  it('counts catches, anglers and catalog lures per species', async () => {
    const id = speciesId('Micropterus salmoides');
    await createEntryWithCatch(t, standard, {}, { speciesId: id, released: true });
    await createEntryWithCatch(t, standard, {}, { speciesId: id, released: true });
    await createEntryWithCatch(t, owner, {}, { speciesId: id, released: true });
    const res = await call('GET', `/api/admin/species/${id}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().usage).toEqual({ catches: 3, anglers: 2, lastCaughtAt: expect.any(String), lures: expect.any(Number) });
    expect(res.json().usage.lures).toBeGreaterThan(20);
    const list = (await call('GET', '/api/admin/species?q=largemouth', admin)).json();
    expect(list[0].usage.catches).toBe(3);
    expect((await call('GET', `/api/admin/species/${MISSING_ID}`, admin)).statusCode).toBe(404);
  });
});
