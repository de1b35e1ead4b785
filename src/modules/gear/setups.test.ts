import { serviceDeps } from '../../core/service-deps.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID, createEntryWithCatch } from '../../../test/factories.js';
import { speciesId } from '../species/species.seeds.js';
import { gearItemId } from './gear.seeds.js';
import { assertOwnGearSetup } from './setups.service.js';

let t: TestApp;
let jo: TestUser;
let sam: TestUser;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  jo = await createUser(t);
  sam = await createUser(t);
  owner = await createUser(t, { role: 'Owner' });
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

const rod = gearItemId('st-croix-mojo-bass-spinning-7ft1in-medium-light-extra-fast');
const reel = gearItemId('shimano-stradic-fl-2500hg');
const line = gearItemId('seaguar-invizx-8-lb-200-yd-clear');
const senko = gearItemId('gary-yamamoto-custom-baits-senko-5-in-green-pumpkin');
const dropShot = { name: 'Drop shot', rodId: rod, reelId: reel, lineId: line, lureIds: [senko, gearItemId('zoom-trick-worm-6-5-in-junebug')], technique: 'Drop shot', notes: 'Size 1 hook, 3/16 oz weight' };

describe('gear setups', () => {
  it('creates a setup whose full view includes the catalog items, lures in the given order', async () => {
    const res = await call('POST', '/api/gear/setups', jo, dropShot);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name: 'Drop shot',
      technique: 'Drop shot',
      notes: 'Size 1 hook, 3/16 oz weight',
      rod: { id: rod, kind: 'Rod', brand: { name: 'St. Croix' }, power: 'Medium-light', action: 'Extra-fast' },
      reel: { id: reel, kind: 'Reel', name: 'Stradic FL 2500HG', gearRatio: 6 },
      line: { id: line, kind: 'Line', lineType: 'Fluorocarbon', testLb: 8 },
      lures: [
        { id: senko, kind: 'Lure', productLine: 'Senko', targetSpecies: expect.arrayContaining([expect.objectContaining({ commonName: 'Largemouth bass' })]) },
        { id: gearItemId('zoom-trick-worm-6-5-in-junebug'), productLine: 'Trick Worm' },
      ],
    });
    expect((await call('GET', `/api/gear/setups/${body.id}`, jo)).json()).toEqual(body);
  });

  it('lists only the caller’s setups, by name, with their items', async () => {
    await call('POST', '/api/gear/setups', jo, { name: 'Minimal' });
    await call('POST', '/api/gear/setups', sam, { name: 'Sam only', reelId: reel });
    const mine = await call('GET', '/api/gear/setups', jo);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().map((s: { name: string }) => s.name)).toEqual(['Drop shot', 'Minimal']);
    expect(mine.json()[1]).toMatchObject({ rod: null, reel: null, line: null, lures: [], technique: null });
    expect(mine.json()[0].lures).toHaveLength(2);
    expect((await call('GET', '/api/gear/setups', sam)).json().map((s: { name: string }) => s.name)).toEqual(['Sam only']);
    expect((await call('GET', '/api/gear/setups', null)).statusCode).toBe(401);
  });

  it('refuses missing, wrong-kind and deactivated catalog items (400 naming the field)', async () => {
    const missing = await call('POST', '/api/gear/setups', jo, { name: 'x', rodId: MISSING_ID });
    expect(missing.json()).toMatchObject({ code: 'gear.invalid_catalog_reference', errors: [{ pointer: '/rodId', in: 'body', detail: 'refers to no catalog item' }] });
    const wrongKind = await call('POST', '/api/gear/setups', jo, { name: 'x', rodId: reel });
    expect(wrongKind.json().errors).toEqual([{ pointer: '/rodId', in: 'body', detail: 'refers to a reel, not a rod' }]);
    const lure = await call('POST', '/api/gear/setups', jo, { name: 'x', lureIds: [senko, line] });
    expect(lure.json().errors).toEqual([{ pointer: '/lureIds/1', in: 'body', detail: 'refers to a line, not a lure' }]);
    const apparel = await call('POST', '/api/gear/setups', jo, { name: 'x', lineId: gearItemId('simms-g3-guide-stockingfoot-waders') });
    expect(apparel.json().errors[0]).toMatchObject({ pointer: '/lineId', detail: 'refers to an apparel item, not a line' });
    const badBody = await call('POST', '/api/gear/setups', jo, { name: 'x', lureIds: [senko, senko], boatId: MISSING_ID });
    expect(badBody.json().errors.map((e: { pointer: string }) => e.pointer)).toEqual(expect.arrayContaining(['/lureIds', '/boatId']));
  });

  it('keeps an item deactivated since, but refuses to add one', async () => {
    const setup = (await call('POST', '/api/gear/setups', jo, { name: 'Cold front', rodId: rod, lureIds: [senko] })).json();
    await t.database.pool.query('UPDATE gear_items SET is_active = false WHERE id = $1', [senko]);
    try {
      const view = (await call('GET', `/api/gear/setups/${setup.id}`, jo)).json();
      expect(view.lures).toEqual([expect.objectContaining({ id: senko, isActive: false })]);
      const kept = await call('PUT', `/api/gear/setups/${setup.id}`, jo, { name: 'Cold front, renamed', rodId: rod, lureIds: [senko] });
      expect(kept.statusCode).toBe(200);
      expect(kept.json()).toMatchObject({ name: 'Cold front, renamed', lures: [{ id: senko }] });
      const added = await call('PUT', `/api/gear/setups/${setup.id}`, jo, { name: 'Other', lureIds: [] });
      expect(added.json().lures).toEqual([]);
      const again = await call('PUT', `/api/gear/setups/${setup.id}`, jo, { name: 'Other', lureIds: [senko] });
      expect(again.json().errors).toEqual([{ pointer: '/lureIds/0', in: 'body', detail: 'refers to a deactivated catalog item' }]);
    } finally {
      await t.database.pool.query('UPDATE gear_items SET is_active = true WHERE id = $1', [senko]);
    }
  });

  it('lets only the owner see, replace or delete a setup (403 for others, even the Owner role), 404 when missing', async () => {
    const setup = (await call('POST', '/api/gear/setups', jo, { name: 'Topwater', rodId: rod })).json();
    for (const other of [sam, owner]) {
      for (const [method, payload] of [['GET'], ['PUT', { name: 'Mine now' }], ['DELETE']] as const) {
        const res = await call(method, `/api/gear/setups/${setup.id}`, other, payload);
        expect(res.statusCode, `${method}`).toBe(403);
        expect(res.json().code).toBe('gear.setup_not_owned');
      }
    }
    const replaced = await call('PUT', `/api/gear/setups/${setup.id}`, jo, { name: 'Topwater', reelId: reel });
    expect(replaced.json()).toMatchObject({ rod: null, reel: { id: reel } });
    expect((await call('PUT', `/api/gear/setups/${setup.id}`, jo, { rodId: rod })).statusCode).toBe(400);
    expect((await call('PUT', `/api/gear/setups/${MISSING_ID}`, jo, { name: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/gear/setups/${setup.id}`, jo)).statusCode).toBe(204);
    expect((await call('GET', `/api/gear/setups/${setup.id}`, jo)).json().code).toBe('gear.setup_not_found');
    expect((await call('DELETE', `/api/gear/setups/${setup.id}`, jo)).statusCode).toBe(404);
    expect((await call('GET', '/api/gear/setups/42', jo)).statusCode).toBe(400);
  });

  it('unlinks catches from a deleted setup (ON DELETE SET NULL)', async () => {
    const setup = (await call('POST', '/api/gear/setups', jo, { name: 'Walleye jig', lureIds: [gearItemId('northland-fishing-tackle-fire-ball-jig-1-8-oz-orange')] })).json();
    const catchId = (await createEntryWithCatch(t, jo, {}, { speciesId: speciesId('Sander vitreus'), released: true, gearSetupId: setup.id })).catch.id;
    expect((await call('DELETE', `/api/gear/setups/${setup.id}`, jo)).statusCode).toBe(204);
    const row = await t.database.pool.query('SELECT gear_setup_id, species_id FROM catches WHERE id = $1', [catchId]);
    expect(row.rows[0]).toEqual({ gear_setup_id: null, species_id: speciesId('Sander vitreus') });
  });
});

describe('assertOwnGearSetup (for modules that reference setups)', () => {
  it('passes for the owner and throws a 400 naming the field otherwise', async () => {
    const setup = (await call('POST', '/api/gear/setups', jo, { name: 'Checked' })).json();
    await expect(assertOwnGearSetup(serviceDeps(t), jo.userId, setup.id, 'gearSetupId')).resolves.toBeUndefined();
    for (const [ownerId, setupId] of [
      [sam.userId, setup.id],
      [jo.userId, MISSING_ID],
    ]) {
      await expect(assertOwnGearSetup(serviceDeps(t), ownerId!, setupId!, 'gearSetupId')).rejects.toMatchObject({
        status: 400,
        code: 'gear.invalid_setup_reference',
        errors: [{ pointer: '/gearSetupId', in: 'body', detail: 'is not one of your gear setups' }],
      });
    }
  });
});
