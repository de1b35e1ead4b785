import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { type TestUser, MISSING_ID, auditCount, lastAudit, createStaff } from '../../../test/factories.js';

import { brandId } from './brands.seeds.js';

let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let deniedAdmin: TestUser;
let moderator: TestUser;
let grantedModerator: TestUser;
let standard: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  // The dotted spelling grants the same permission.
  ({ owner, admin, deniedAdmin, moderator, grantedModerator, standard } = await createStaff(t, 'brands.manage', { otherPermission: 'Species.Manage' }));
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
const names = (body: Array<{ name: string }>) => body.map((b) => b.name);

describe('GET /api/brands', () => {
  it('lists active brands by name with country and website, paginated', async () => {
    const res = await call('GET', '/api/brands?pageSize=100', standard);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.length).toBeGreaterThanOrEqual(40);
    expect(Number(res.headers['x-total-count'])).toBe(body.length);
    const ordered = await t.database.pool.query('SELECT name FROM brands WHERE is_active ORDER BY name, id');
    expect(names(body)).toEqual(ordered.rows.map((r) => r.name));
    expect(body.find((b: { name: string }) => b.name === 'Shimano')).toEqual({
      id: brandId('Shimano'),
      name: 'Shimano',
      country: 'JP',
      countryName: 'Japan',
      website: 'https://fish.shimano.com',
      description: expect.any(String),
      gearKinds: expect.arrayContaining(['Rod', 'Reel']),
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const page = await call('GET', '/api/brands?pageSize=10&page=2', standard);
    expect(page.json()).toHaveLength(10);
    expect(page.headers.link).toContain('rel="prev"');
  });

  it('searches by name with typos and filters by country and kind', async () => {
    expect(names((await call('GET', '/api/brands?q=shimanno', standard)).json())[0]).toBe('Shimano');
    expect(names((await call('GET', '/api/brands?q=st%20croix', standard)).json())[0]).toBe('St. Croix');
    const swedish = names((await call('GET', '/api/brands?country=SE', standard)).json());
    expect(swedish).toEqual(['Abu Garcia', 'Grundéns']);
    const lines = (await call('GET', '/api/brands?kind=Line&pageSize=100', standard)).json();
    expect(names((await call('GET', '/api/brands?kind=line&pageSize=100', standard)).json())).toEqual(names(lines)); // the older spelling
    expect(names(lines)).toEqual(expect.arrayContaining(['Berkley', 'Seaguar', 'PowerPro']));
    expect(lines.every((b: { gearKinds: string[] }) => b.gearKinds.includes('Line'))).toBe(true);
    expect((await call('GET', '/api/brands?country=Japan', standard)).statusCode).toBe(400);
    expect((await call('GET', '/api/brands?kind=boat', standard)).statusCode).toBe(400);
    expect((await call('GET', '/api/brands', null)).statusCode).toBe(401);
  });
});

describe('GET /api/brands/{id}', () => {
  it('shows usage statistics: catalog items by kind and setups using them', async () => {
    const id = brandId('Shimano');
    const before = (await call('GET', `/api/brands/${id}`, standard)).json();
    expect(before.usage.catalogItems).toMatchObject({ rod: expect.any(Number), reel: expect.any(Number), line: expect.any(Number), lure: 0, apparel: 0 });
    expect(before.usage.catalogItems.reel).toBeGreaterThan(10);
    expect(before.usage.catalogItems.total).toBe(before.usage.catalogItems.rod + before.usage.catalogItems.reel + before.usage.catalogItems.line);
    const reel = (await call('GET', `/api/gear/reels?brandId=${id}&pageSize=1`, standard)).json()[0];
    const rod = (await call('GET', `/api/gear/rods?brandId=${id}&pageSize=1`, standard)).json()[0];
    await call('POST', '/api/gear/setups', standard, { name: 'Bass', rodId: rod.id, reelId: reel.id });
    await call('POST', '/api/gear/setups', admin, { name: 'Inshore', reelId: reel.id });
    const after = (await call('GET', `/api/brands/${id}`, standard)).json();
    expect(after.usage.setups).toBe(before.usage.setups + 2);
  });

  it('answers 404 for an unknown brand, 400 for a bad id, 401 without a token', async () => {
    const missing = await call('GET', `/api/brands/${MISSING_ID}`, standard);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('brands.not_found');
    expect((await call('GET', '/api/brands/shimano', standard)).statusCode).toBe(400);
    expect((await call('GET', `/api/brands/${MISSING_ID}`, null)).statusCode).toBe(401);
  });
});

describe('who may manage brands (Brands.Manage)', () => {
  const target = brandId('Okuma');
  const endpoints = (): Array<[Method, string, unknown?]> => [
    ['GET', '/api/admin/brands'],
    ['GET', `/api/admin/brands/${target}`],
    ['POST', '/api/admin/brands', { name: 'Tica', country: 'TW' }],
    ['PATCH', `/api/admin/brands/${target}`, { description: 'Changed' }],
    ['POST', `/api/admin/brands/${target}/deactivate`, {}],
    ['POST', `/api/admin/brands/${target}/reactivate`, {}],
  ];

  it('needs a token, and refuses Standard, a Moderator without the grant and an Admin denied it (403)', async () => {
    for (const [method, url, payload] of endpoints()) expect((await call(method, url, null, payload)).statusCode).toBe(401);
    for (const user of [standard, moderator, deniedAdmin]) {
      for (const [method, url, payload] of endpoints()) {
        const before = await auditCount(t);
        const res = await call(method, url, user, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'access.permission_denied', detail: expect.stringContaining('Brands.Manage') });
        expect(await auditCount(t)).toBe(before);
      }
    }
  });

  it('lets the Owner, an Admin and a granted Moderator in', async () => {
    for (const user of [owner, admin, grantedModerator]) expect((await call('GET', `/api/admin/brands/${target}`, user)).statusCode).toBe(200);
    const created = await call('POST', '/api/admin/brands', grantedModerator, { name: 'Tica', country: 'TW', gearKinds: ['rod', 'reel'] });
    expect(created.statusCode).toBe(201);
    expect(created.json().gearKinds).toEqual(['Rod', 'Reel']); // the older spelling is accepted, the new one answered
  });
});

describe('brand administration', () => {
  it('creates a brand (audit-logged), refuses duplicates and unknown countries', async () => {
    const before = await auditCount(t);
    const res = await call('POST', '/api/admin/brands', admin, { name: 'Tsunami', country: 'US', website: 'https://www.tsunamitackle.example', gearKinds: ['rod', 'reel', 'lure'] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Tsunami',
      country: 'US',
      countryName: 'United States',
      isActive: true,
      deactivatedAt: null,
      usage: { catalogItems: { total: 0 }, setups: 0, inactiveCatalogItems: 0 },
    });
    expect(await auditCount(t)).toBe(before + 1);
    expect(await lastAudit(t)).toMatchObject({ action: 'brands.created', target_type: 'brand', target_id: res.json().id, actor_user_id: admin.userId });
    const duplicate = await call('POST', '/api/admin/brands', admin, { name: 'shimano', country: 'JP' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().code).toBe('brands.duplicate');
    const country = await call('POST', '/api/admin/brands', admin, { name: 'Nowhere Tackle', country: 'XX' });
    expect(country.statusCode).toBe(400);
    expect(country.json()).toMatchObject({ code: 'brands.unknown_country', errors: [{ pointer: '/country' }] });
    const bad = await call('POST', '/api/admin/brands', admin, { name: 'X', country: 'us', website: 'ftp://x', gearKinds: ['boat'] });
    expect(bad.json().errors.map((e: { pointer: string }) => e.pointer)).toEqual(expect.arrayContaining(['/country', '/website', '/gearKinds/0']));
  });

  it('updates given fields and re-indexes the items of a renamed brand', async () => {
    const id = brandId('Fenwick');
    const res = await call('PATCH', `/api/admin/brands/${id}`, admin, { name: 'Fenwick Rods', reason: 'rebrand' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Fenwick Rods', country: 'US', website: 'https://www.fenwickfishing.com' });
    expect(await lastAudit(t)).toMatchObject({ action: 'brands.updated', reason: 'rebrand', before: expect.objectContaining({ name: 'Fenwick' }), after: expect.objectContaining({ name: 'Fenwick Rods' }) });
    const rods = (await call('GET', '/api/gear/rods?q=fenwick%20rods%20hmg', standard)).json();
    expect(rods.length).toBeGreaterThan(0);
    expect(rods[0].brand).toEqual({ id, name: 'Fenwick Rods', isActive: true });
    const clash = await call('PATCH', `/api/admin/brands/${id}`, admin, { name: 'Penn' });
    expect(clash.statusCode).toBe(409);
    expect((await call('PATCH', `/api/admin/brands/${MISSING_ID}`, admin, { name: 'Ghost' })).statusCode).toBe(404);
    expect((await call('PATCH', `/api/admin/brands/${id}`, admin, {})).statusCode).toBe(400);
  });

  it('takes application/merge-patch+json: null clears website and gear kinds, null on the name is a 400 naming it, an unknown country a 400', async () => {
    const created = (await call('POST', '/api/admin/brands', admin, { name: 'Patch Tackle', country: 'US', website: 'https://patch.example', gearKinds: ['Lure'] })).json();
    const patch = (payload: unknown) =>
      t.app.inject({ method: 'PATCH', url: `/api/admin/brands/${created.id}`, headers: { ...admin.headers, 'content-type': 'application/merge-patch+json' }, payload: JSON.stringify(payload) });
    const cleared = await patch({ website: null, gearKinds: null, reason: 'Site closed' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ name: 'Patch Tackle', country: 'US', website: null, gearKinds: [] });
    const name = await patch({ name: null });
    expect(name.json()).toMatchObject({ status: 400, code: 'request.required_field_cleared', errors: [{ pointer: '/name' }] });
    const country = await patch({ country: 'XX' });
    expect(country.json()).toMatchObject({ status: 400, code: 'brands.unknown_country' });
    expect((await call('GET', `/api/admin/brands/${created.id}`, admin)).json()).toMatchObject({ name: 'Patch Tackle', country: 'US' });
  });

  it('deactivates a brand: it and its items leave the lists but stay readable; reactivation restores them', async () => {
    const id = brandId('Pflueger');
    const reel = (await call('GET', `/api/gear/reels?brandId=${id}&pageSize=1`, standard)).json()[0];
    const res = await call('POST', `/api/admin/brands/${id}/deactivate`, admin, { reason: 'discontinued' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isActive: false, deactivatedAt: expect.any(String) });
    expect(await lastAudit(t)).toMatchObject({ action: 'brands.deactivated', reason: 'discontinued' });
    expect(names((await call('GET', '/api/brands?pageSize=100', standard)).json())).not.toContain('Pflueger');
    expect((await call('GET', `/api/brands/${id}`, standard)).json()).toMatchObject({ isActive: false });
    expect((await call('GET', `/api/gear/reels?brandId=${id}`, standard)).json()).toEqual([]);
    expect((await call('GET', `/api/gear/reels/${reel.id}`, standard)).json()).toMatchObject({ isActive: true, brand: { id, isActive: false } });
    const setup = await call('POST', '/api/gear/setups', standard, { name: 'Panfish', reelId: reel.id });
    expect(setup.statusCode).toBe(400);
    expect(setup.json().errors[0]).toMatchObject({ pointer: '/reelId', detail: 'refers to a deactivated catalog item' });
    const inactive = names((await call('GET', '/api/admin/brands?status=inactive', admin)).json());
    expect(inactive).toContain('Pflueger');
    expect((await call('POST', `/api/admin/brands/${id}/deactivate`, admin)).statusCode).toBe(409);
    expect((await call('POST', `/api/admin/brands/${id}/reactivate`, admin)).json().isActive).toBe(true);
    expect((await call('GET', `/api/gear/reels?brandId=${id}`, standard)).json().length).toBeGreaterThan(0);
    expect((await call('POST', `/api/admin/brands/${MISSING_ID}/deactivate`, admin)).statusCode).toBe(404);
  });

  it('lists brands with usage statistics for admins, including deactivated items', async () => {
    const res = await call('GET', '/api/admin/brands?q=rapala', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()[0]).toMatchObject({ name: 'Rapala', usage: { catalogItems: { lure: expect.any(Number) }, setups: expect.any(Number), inactiveCatalogItems: 0 } });
  });
});
