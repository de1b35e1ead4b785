import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { type TestUser, MISSING_ID, auditCount, lastAudit, createStaff, createEntryWithCatch } from '../../../test/factories.js';
import { brandId } from '../brands/brands.seeds.js';
import { speciesId } from '../species/species.seeds.js';
import { gearItemId } from './gear.seeds.js';

let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let deniedAdmin: TestUser;
let speciesModerator: TestUser;
let gearModerator: TestUser;
let standard: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({
    owner,
    admin,
    deniedAdmin,
    moderator: speciesModerator,
    grantedModerator: gearModerator,
    standard,
  } = await createStaff(t, 'Brands.Manage', { otherPermission: 'Species.Manage' }));
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

const stCroix = brandId('St. Croix');
const castingRod = { brandId: stCroix, name: `Bass X Casting 7'1" Medium-heavy Fast`, productLine: 'Bass X', rodType: 'Casting', lengthIn: 85, power: 'Medium-heavy', action: 'Fast', pieces: 1, material: 'Graphite', lineMinLb: 12, lineMaxLb: 20, lureMinG: 10.6, lureMaxG: 28.3, priceUsd: 150 };

describe('who may manage the gear catalog (Brands.Manage)', () => {
  const reel = gearItemId('penn-battle-iii-3000');
  const endpoints = (): Array<[Method, string, unknown?]> => [
    ['GET', '/api/admin/gear/reels'],
    ['GET', `/api/admin/gear/reels/${reel}`],
    ['POST', '/api/admin/gear/rods', { ...castingRod, name: 'Forbidden rod' }],
    ['PATCH', `/api/admin/gear/reels/${reel}`, { priceUsd: 1 }],
    ['POST', `/api/admin/gear/reels/${reel}/deactivate`, {}],
    ['POST', `/api/admin/gear/reels/${reel}/reactivate`, {}],
  ];

  it('needs a token, and refuses Standard, a Moderator granted only Species.Manage and an Admin denied Brands.Manage (403)', async () => {
    for (const [method, url, payload] of endpoints()) expect((await call(method, url, null, payload)).statusCode).toBe(401);
    for (const user of [standard, speciesModerator, deniedAdmin]) {
      for (const [method, url, payload] of endpoints()) {
        const before = await auditCount(t);
        const res = await call(method, url, user, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'access.permission_denied', detail: expect.stringContaining('Brands.Manage') });
        expect(await auditCount(t)).toBe(before);
      }
    }
  });

  it('lets the Owner, an Admin and a Moderator granted Brands.Manage in', async () => {
    for (const user of [owner, admin, gearModerator]) {
      const res = await call('GET', `/api/admin/gear/reels/${reel}`, user);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ kind: 'Reel', usage: { setups: 0, anglers: 0, catches: 0 }, deactivatedAt: null });
    }
  });
});

describe('adding catalog items', () => {
  it('adds a rod, audit-logged, with a slug from brand and name; it is listed at once', async () => {
    const before = await auditCount(t);
    const res = await call('POST', '/api/admin/gear/rods', gearModerator, castingRod);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ kind: 'Rod', slug: 'st-croix-bass-x-casting-7ft1in-medium-heavy-fast', brand: { id: stCroix, name: 'St. Croix' }, lengthLabel: `7'1"`, power: 'Medium-heavy', isActive: true });
    expect(await auditCount(t)).toBe(before + 1);
    expect(await lastAudit(t)).toMatchObject({ action: 'gear.item_created', target_type: 'gear_rod', target_id: body.id, actor_user_id: gearModerator.userId });
    const listed = (await call('GET', '/api/gear/rods?q=bass%20x%20casting', standard)).json();
    expect(listed[0].id).toBe(body.id);
    const duplicate = await call('POST', '/api/admin/gear/rods', admin, { ...castingRod, name: castingRod.name.toUpperCase() });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().code).toBe('gear.duplicate_item');
    const slug = await call('POST', '/api/admin/gear/rods', admin, { ...castingRod, name: 'Other name', slug: body.slug });
    expect(slug.statusCode).toBe(409);
    expect(slug.json().code).toBe('gear.slug_taken');
  });

  it('applies the kind rules: fly rods need a line weight, other rods a power, ranges must be ordered (400 naming the field)', async () => {
    const fly = await call('POST', '/api/admin/gear/rods', admin, { brandId: stCroix, name: `Fly X 9'0" 5-weight`, rodType: 'Fly', lengthIn: 108, action: 'Fast', pieces: 4 });
    expect(fly.statusCode).toBe(400);
    expect(fly.json()).toMatchObject({ code: 'gear.field_required', errors: [{ pointer: '/flyLineWeight', in: 'body' }] });
    expect((await call('POST', '/api/admin/gear/rods', admin, { brandId: stCroix, name: `Fly X 9'0" 5-weight`, rodType: 'Fly', lengthIn: 108, action: 'Fast', pieces: 4, flyLineWeight: 5 })).statusCode).toBe(201);
    const { power: _power, ...noPower } = castingRod;
    const powerless = await call('POST', '/api/admin/gear/rods', admin, { ...noPower, name: 'Powerless' });
    expect(powerless.json().errors).toEqual([expect.objectContaining({ pointer: '/power' })]);
    const range = await call('POST', '/api/admin/gear/rods', admin, { ...castingRod, name: 'Backwards', lineMinLb: 20, lineMaxLb: 10 });
    expect(range.json()).toMatchObject({ code: 'gear.invalid_range', errors: [{ pointer: '/lineMaxLb' }] });
    const schema = await call('POST', '/api/admin/gear/rods', admin, { ...castingRod, name: 'Bad', power: 'Mighty', lengthIn: 5, reelType: 'Spinning' });
    expect(schema.json().errors.map((e: { pointer: string }) => e.pointer)).toEqual(expect.arrayContaining(['/power', '/lengthIn', '/reelType']));
  });

  it('refuses an unknown or deactivated brand (400 naming brandId)', async () => {
    const unknown = await call('POST', '/api/admin/gear/rods', admin, { ...castingRod, brandId: MISSING_ID });
    expect(unknown.json()).toMatchObject({ code: 'brands.invalid_reference', errors: [{ pointer: '/brandId', detail: 'refers to no brand' }] });
    const tsunami = (await call('POST', '/api/admin/brands', admin, { name: 'Tsunami', country: 'US' })).json();
    await call('POST', `/api/admin/brands/${tsunami.id}/deactivate`, admin, {});
    const inactive = await call('POST', '/api/admin/gear/rods', admin, { ...castingRod, brandId: tsunami.id });
    expect(inactive.json()).toMatchObject({ errors: [{ pointer: '/brandId', detail: 'refers to a deactivated brand' }] });
  });

  it('adds lures with their target species; hard baits need a weight, soft plastics not', async () => {
    const lure = { brandId: brandId('Rapala'), name: 'Test Minnow 07 Silver', lureType: 'Minnow', weightG: 4, lengthCm: 7, colour: 'Silver', targetSpeciesIds: [speciesId('Sander vitreus'), speciesId('Esox lucius')] };
    const res = await call('POST', '/api/admin/gear/lures', admin, lure);
    expect(res.statusCode).toBe(201);
    expect(res.json().targetSpecies.map((s: { commonName: string }) => s.commonName).sort()).toEqual(['Northern pike', 'Walleye']);
    const walleyeLures = (await call('GET', `/api/gear/lures?speciesId=${speciesId('Sander vitreus')}&q=test%20minnow`, standard)).json();
    expect(walleyeLures[0].id).toBe(res.json().id);
    const weightless = await call('POST', '/api/admin/gear/lures', admin, { ...lure, name: 'No weight', weightG: undefined });
    expect(weightless.json()).toMatchObject({ code: 'gear.field_required', errors: [{ pointer: '/weightG' }] });
    const soft = await call('POST', '/api/admin/gear/lures', admin, { brandId: brandId('Zoom'), name: 'Test Worm 6 in Junebug', lureType: 'Soft plastic', colour: 'Junebug', lengthCm: 15.2 });
    expect(soft.statusCode).toBe(201);
    expect(soft.json()).toMatchObject({ weightG: null, targetSpecies: [] });
    const unknownSpecies = await call('POST', '/api/admin/gear/lures', admin, { ...lure, name: 'Ghost lure', targetSpeciesIds: [speciesId('Sander vitreus'), MISSING_ID] });
    expect(unknownSpecies.json()).toMatchObject({ code: 'species.invalid_reference', errors: [{ pointer: '/targetSpeciesIds/1' }] });
  });

  it('adds reels, lines and apparel', async () => {
    const reel = await call('POST', '/api/admin/gear/reels', admin, { brandId: brandId('Daiwa'), name: 'Test LT 2500', reelType: 'Spinning', size: '2500', gearRatio: 5.2, weightG: 210, maxDragKg: 10, bearings: '6+1' });
    expect(reel.statusCode).toBe(201);
    expect(reel.json()).toMatchObject({ maxDragKg: 10, maxDragLb: 22 });
    const line = await call('POST', '/api/admin/gear/lines', admin, { brandId: brandId('Seaguar'), name: 'Test Fluoro 10 lb', lineType: 'Fluorocarbon', testLb: 10, diameterMm: 0.28 });
    expect(line.json()).toMatchObject({ testLb: 10, testKg: 4.5, spoolLengthM: null });
    const apparel = await call('POST', '/api/admin/gear/apparel', admin, { brandId: brandId('Simms'), name: 'Test Hoodie', apparelType: 'Hoodie', sizes: ['S', 'M', 'L'] });
    expect(apparel.json()).toMatchObject({ sizes: ['S', 'M', 'L'], colours: [], gender: null });
    const noSizes = await call('POST', '/api/admin/gear/apparel', admin, { brandId: brandId('Simms'), name: 'Test Cap', apparelType: 'Hat', sizes: [] });
    expect(noSizes.json().errors[0].pointer).toBe('/sizes');
  });
});

describe('changing and deactivating catalog items', () => {
  it('changes given fields, clears with null, audit-logs before and after', async () => {
    const id = gearItemId('penn-battle-iii-4000');
    const res = await call('PATCH', `/api/admin/gear/reels/${id}`, admin, { priceUsd: 129.99, description: null, reason: '2026 price list' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Battle III 4000', priceUsd: 129.99, description: null, gearRatio: 6.2 });
    expect(await lastAudit(t)).toMatchObject({ action: 'gear.item_updated', target_type: 'gear_reel', target_id: id, reason: '2026 price list', before: expect.objectContaining({ priceUsd: 120 }), after: expect.objectContaining({ priceUsd: 129.99 }) });
    const renamed = await call('PATCH', `/api/admin/gear/reels/${id}`, admin, { name: 'Battle III 4000 (2026)' });
    expect(renamed.json().slug).toBe('penn-battle-iii-4000');
    expect((await call('GET', '/api/gear/reels?q=battle%20iii%202026', standard)).json()[0].id).toBe(id);
    const fly = await call('PATCH', `/api/admin/gear/rods/${gearItemId(`st-croix-mojo-bass-casting-7ft1in-medium-heavy-fast`)}`, admin, { flyLineWeight: 5 });
    expect(fly.json()).toMatchObject({ code: 'gear.field_not_allowed', errors: [{ pointer: '/flyLineWeight' }] });
  });

  it('takes application/merge-patch+json: null clears a lure\'s target species and length, null on a required field is a 400 naming it', async () => {
    const lure = { brandId: brandId('Rapala'), name: 'Patch Minnow 05 Gold', lureType: 'Minnow', weightG: 3, lengthCm: 5, colour: 'Gold', targetSpeciesIds: [speciesId('Sander vitreus')] };
    const created = (await call('POST', '/api/admin/gear/lures', admin, lure)).json();
    const patch = (payload: unknown) =>
      t.app.inject({ method: 'PATCH', url: `/api/admin/gear/lures/${created.id}`, headers: { ...admin.headers, 'content-type': 'application/merge-patch+json' }, payload: JSON.stringify(payload) });
    const cleared = await patch({ targetSpeciesIds: null, lengthCm: null, reason: 'Made for any fish' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ name: 'Patch Minnow 05 Gold', colour: 'Gold', lengthCm: null, targetSpecies: [] });
    for (const field of ['colour', 'slug', 'name']) {
      const refused = await patch({ [field]: null });
      expect(refused.json()).toMatchObject({ status: 400, code: 'request.required_field_cleared', errors: [{ pointer: `/${field}` }] });
    }
    expect((await call('GET', `/api/admin/gear/lures/${created.id}`, admin)).json()).toMatchObject({ colour: 'Gold', slug: created.slug });
  });

  it('answers 404 for an unknown item or one of another kind, 400 for an empty body', async () => {
    expect((await call('PATCH', `/api/admin/gear/reels/${MISSING_ID}`, admin, { priceUsd: 1 })).statusCode).toBe(404);
    const wrongKind = await call('PATCH', `/api/admin/gear/rods/${gearItemId('penn-battle-iii-3000')}`, admin, { priceUsd: 1 });
    expect(wrongKind.statusCode).toBe(404);
    expect(wrongKind.json().code).toBe('gear.item_not_found');
    expect((await call('PATCH', `/api/admin/gear/reels/${gearItemId('penn-battle-iii-3000')}`, admin, {})).statusCode).toBe(400);
    expect((await call('GET', `/api/admin/gear/lines/${MISSING_ID}`, admin)).statusCode).toBe(404);
  });

  it('deactivates: the item leaves the lists, stays readable and in setups, and cannot be picked anew; reactivates', async () => {
    const id = gearItemId('penn-battle-iii-3000');
    const setup = (await call('POST', '/api/gear/setups', standard, { name: 'Pier', reelId: id })).json();
    await createEntryWithCatch(t, standard, {}, { speciesId: speciesId('Pomatomus saltatrix'), released: true, gearSetupId: setup.id });
    const res = await call('POST', `/api/admin/gear/reels/${id}/deactivate`, admin, { reason: 'recalled' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isActive: false, deactivatedAt: expect.any(String), usage: { setups: 1, anglers: 1, catches: 1 } });
    expect(await lastAudit(t)).toMatchObject({ action: 'gear.item_deactivated', reason: 'recalled', target_type: 'gear_reel' });
    expect((await call('GET', '/api/gear/reels?q=battle%20iii%203000', standard)).json().map((r: { id: string }) => r.id)).not.toContain(id);
    expect((await call('GET', `/api/gear/reels/${id}`, standard)).json().isActive).toBe(false);
    expect((await call('GET', `/api/gear/setups/${setup.id}`, standard)).json().reel).toMatchObject({ id, isActive: false });
    const picked = await call('POST', '/api/gear/setups', standard, { name: 'New', reelId: id });
    expect(picked.json().errors[0]).toMatchObject({ pointer: '/reelId', detail: 'refers to a deactivated catalog item' });
    const inactive = (await call('GET', '/api/admin/gear/reels?status=inactive', admin)).json();
    expect(inactive.map((r: { id: string }) => r.id)).toContain(id);
    expect((await call('POST', `/api/admin/gear/reels/${id}/deactivate`, admin)).statusCode).toBe(409);
    expect((await call('POST', `/api/admin/gear/reels/${id}/reactivate`, admin)).json().isActive).toBe(true);
    expect((await call('POST', `/api/admin/gear/reels/${id}/reactivate`, admin)).statusCode).toBe(409);
    expect((await call('POST', `/api/admin/gear/reels/${MISSING_ID}/deactivate`, admin)).statusCode).toBe(404);
  });
});
