import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID } from '../../../test/factories.js';

import { brandId } from '../brands/brands.seeds.js';
import { speciesId } from '../species/species.seeds.js';
import { gearItemId } from './gear.seeds.js';

let t: TestApp;
let angler: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  angler = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

const get = async (url: string, user: TestUser | null = angler) => t.app.inject({ method: 'GET', url, ...(user ? { headers: user.headers } : {}) });
const list = async (url: string) => (await get(url)).json() as Array<Record<string, unknown>>;

describe('the catalog lists', () => {
  it.each([
    ['rods', 80],
    ['reels', 80],
    ['lines', 80],
    ['lures', 150],
    ['apparel', 40],
  ])('GET /api/gear/%s lists active items, paginated, by brand then name', async (segment, atLeast) => {
    const res = await get(`/api/gear/${segment}?pageSize=20`);
    expect(res.statusCode).toBe(200);
    const total = Number(res.headers['x-total-count']);
    expect(total).toBeGreaterThanOrEqual(atLeast);
    expect(res.headers.link).toContain(`</api/gear/${segment}?pageSize=20&page=${Math.ceil(total / 20)}>; rel="last"`);
    const body = res.json() as Array<{ brand: { name: string }; isActive: boolean }>;
    expect(body).toHaveLength(20);
    const all = (await get(`/api/gear/${segment}?pageSize=100`)).json() as Array<{ id: string; brand: { name: string }; isActive: boolean }>;
    // By brand: each brand's items come in one run (the order of brands is the database's collation).
    const runs = all.map((i) => i.brand.name).filter((name, index, names) => name !== names[index - 1]);
    expect(new Set(runs).size).toBe(runs.length);
    expect(all.every((i) => i.isActive)).toBe(true);
    const page2 = (await get(`/api/gear/${segment}?pageSize=20&page=2`)).json() as Array<{ id: string }>;
    expect(page2.map((i) => i.id)).toEqual(all.slice(20, 40).map((i) => i.id));
  });

  it('returns each kind with the fields a buyer compares', async () => {
    const rod = (await get(`/api/gear/rods/${gearItemId(`st-croix-mojo-bass-casting-7ft1in-medium-heavy-fast`)}`)).json();
    expect(rod).toMatchObject({
      kind: 'Rod',
      brand: { id: brandId('St. Croix'), name: 'St. Croix', isActive: true },
      name: `Mojo Bass Casting 7'1" Medium-heavy Fast`,
      productLine: 'Mojo Bass',
      rodType: 'Casting',
      lengthIn: 85,
      lengthCm: 215.9,
      lengthLabel: `7'1"`,
      power: 'Medium-heavy',
      action: 'Fast',
      pieces: 1,
      lineMinLb: 12,
      lineMaxLb: 20,
      lureMinG: 10.6,
      lureMaxG: 28.3,
      flyLineWeight: null,
    });
    const reel = (await get(`/api/gear/reels/${gearItemId('shimano-stradic-fl-2500hg')}`)).json();
    expect(reel).toMatchObject({ kind: 'Reel', reelType: 'Spinning', size: '2500HG', gearRatio: 6, weightG: 224, maxDragKg: 9.1, maxDragLb: 20.1, bearings: '6+1' });
    const line = (await get(`/api/gear/lines/${gearItemId('seaguar-invizx-12-lb-200-yd-clear')}`)).json();
    expect(line).toMatchObject({ kind: 'Line', lineType: 'Fluorocarbon', testLb: 12, testKg: 5.4, diameterMm: 0.31, spoolLengthM: 182.9, colour: 'Clear' });
    const lure = (await get(`/api/gear/lures/${gearItemId('strike-king-red-eye-shad-1-2-oz-sexy-shad')}`)).json();
    expect(lure).toMatchObject({ kind: 'Lure', lureType: 'Lipless crankbait', weightG: 14.2, colour: 'Sexy Shad' });
    expect(lure.targetSpecies).toEqual(expect.arrayContaining([{ id: speciesId('Micropterus salmoides'), commonName: 'Largemouth bass', scientificName: 'Micropterus salmoides' }]));
    const apparel = (await get(`/api/gear/apparel/${gearItemId('simms-g3-guide-stockingfoot-waders')}`)).json();
    expect(apparel).toMatchObject({ kind: 'Apparel', apparelType: 'Waders', gender: 'Men', waterproof: true, sizes: expect.arrayContaining(['M', 'LK', 'XL']) });
  });

  it('filters rods by type, power, action, pieces and length', async () => {
    const rods = await list('/api/gear/rods?rodType=Spinning&power=Medium&action=Fast&minLengthIn=84&maxLengthIn=86&pageSize=100');
    expect(rods.length).toBeGreaterThan(2);
    for (const r of rods) expect(r).toMatchObject({ rodType: 'Spinning', power: 'Medium', action: 'Fast', lengthIn: expect.any(Number) });
    expect(rods.every((r) => (r.lengthIn as number) >= 84 && (r.lengthIn as number) <= 86)).toBe(true);
    const travel = await list('/api/gear/rods?pieces=2&pageSize=100');
    expect(travel.every((r) => r.pieces === 2)).toBe(true);
    const fly = await list('/api/gear/rods?rodType=Fly&pageSize=100');
    expect(fly.length).toBeGreaterThan(10);
    expect(fly.every((r) => r.power === null && typeof r.flyLineWeight === 'number')).toBe(true);
  });

  it('filters reels, lines, lures and apparel by their main fields', async () => {
    const reels = await list('/api/gear/reels?reelType=Baitcasting&minGearRatio=8&maxWeightG=200&pageSize=100');
    expect(reels.length).toBeGreaterThan(0);
    expect(reels.every((r) => r.reelType === 'Baitcasting' && (r.gearRatio as number) >= 8 && (r.weightG as number) <= 200)).toBe(true);
    const drag = await list('/api/gear/reels?minDragKg=15&pageSize=100');
    expect(drag.every((r) => (r.maxDragKg as number) >= 15)).toBe(true);
    const braid = await list('/api/gear/lines?lineType=Braid&minTestLb=20&maxTestLb=30&pageSize=100');
    expect(braid.length).toBeGreaterThan(5);
    expect(braid.every((l) => l.lineType === 'Braid' && (l.testLb as number) >= 20 && (l.testLb as number) <= 30)).toBe(true);
    const thin = await list('/api/gear/lines?maxDiameterMm=0.15&pageSize=100');
    expect(thin.every((l) => (l.diameterMm as number) <= 0.15)).toBe(true);
    const walleye = await list(`/api/gear/lures?speciesId=${speciesId('Sander vitreus')}&pageSize=100`);
    expect(walleye.length).toBeGreaterThan(10);
    expect(walleye.every((l) => (l.targetSpecies as Array<{ commonName: string }>).some((s) => s.commonName === 'Walleye'))).toBe(true);
    const firetiger = await list('/api/gear/lures?colour=firetiger&lureType=Crankbait');
    expect(firetiger.length).toBeGreaterThan(0);
    expect(firetiger.every((l) => /firetiger/i.test(l.colour as string) && l.lureType === 'Crankbait')).toBe(true);
    const light = await list('/api/gear/lures?maxWeightG=5&pageSize=100');
    expect(light.every((l) => (l.weightG as number) <= 5)).toBe(true);
    const waders = await list('/api/gear/apparel?apparelType=Waders&size=LK&waterproof=true');
    expect(waders.length).toBeGreaterThan(3);
    expect(waders.every((a) => (a.sizes as string[]).includes('LK'))).toBe(true);
    const women = await list('/api/gear/apparel?gender=Women');
    expect(women.length).toBeGreaterThan(0);
  });

  it('filters by brand and price, sorts by price, and searches with typos', async () => {
    const penn = await list(`/api/gear/reels?brandId=${brandId('Penn')}&pageSize=100`);
    expect(penn.length).toBeGreaterThan(10);
    expect(penn.every((r) => (r.brand as { name: string }).name === 'Penn')).toBe(true);
    const cheap = await list('/api/gear/rods?maxPriceUsd=60&sort=price&pageSize=100');
    const prices = cheap.map((r) => r.priceUsd as number);
    expect(prices.every((p) => p <= 60)).toBe(true);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const dear = await list('/api/gear/rods?sort=-price&pageSize=3');
    expect((dear[0]!.priceUsd as number) >= (dear[2]!.priceUsd as number)).toBe(true);
    const stradic = await list('/api/gear/reels?q=stradik%20fl');
    expect(stradic[0]!.productLine).toBe('Stradic FL');
    const senko = await list('/api/gear/lures?q=yamamoto%20senko%205');
    expect(senko[0]!.productLine).toBe('Senko');
  });

  it('rejects filters of another kind and bad values (400), and needs a token (401)', async () => {
    const foreign = await get('/api/gear/reels?lineType=Braid');
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors[0]).toMatchObject({ pointer: '/lineType', in: 'query' });
    expect((await get('/api/gear/rods?power=Mighty')).statusCode).toBe(400);
    expect((await get('/api/gear/rods?brandId=penn')).statusCode).toBe(400);
    expect((await get('/api/gear/lures?minWeightG=-1')).statusCode).toBe(400);
    expect((await get('/api/gear/rods', null)).statusCode).toBe(401);
    expect((await get(`/api/gear/rods/${MISSING_ID}`, null)).statusCode).toBe(401);
  });
});

describe('one catalog item', () => {
  it('answers 404 for an unknown id or an item of another kind, 400 for a malformed id', async () => {
    const missing = await get(`/api/gear/reels/${MISSING_ID}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('gear.item_not_found');
    const reelAsRod = await get(`/api/gear/rods/${gearItemId('shimano-stradic-fl-2500hg')}`);
    expect(reelAsRod.statusCode).toBe(404);
    expect(reelAsRod.json().detail).toContain('/api/gear/reels/');
    expect((await get('/api/gear/lines/abc')).statusCode).toBe(400);
  });

  it('keeps a deactivated item readable by id but out of the lists', async () => {
    const id = gearItemId('zebco-zebco-202');
    await t.database.pool.query('UPDATE gear_items SET is_active = false, deactivated_at = now() WHERE id = $1', [id]);
    expect((await get(`/api/gear/reels/${id}`)).json()).toMatchObject({ name: 'Zebco 202', isActive: false });
    const zebco = await list(`/api/gear/reels?brandId=${brandId('Zebco')}`);
    expect(zebco.map((r) => r.name)).toEqual(['Omega Pro', 'Zebco 33']);
  });
});

describe('the catalog is read-only', () => {
  it.each([
    ['POST', '/api/gear/rods'],
    ['PUT', `/api/gear/rods/${MISSING_ID}`],
    ['DELETE', `/api/gear/reels/${MISSING_ID}`],
    ['PATCH', `/api/gear/lures/${MISSING_ID}`],
    ['POST', '/api/gear/apparel'],
    ['DELETE', `/api/gear/lines/${MISSING_ID}`],
  ] as const)('%s %s is refused (no such route) and changes nothing', async (method, url) => {
    const before = (await t.database.pool.query('SELECT count(*)::int AS n, max(updated_at) AS m FROM gear_items')).rows[0];
    const res = await t.app.inject({ method, url, headers: angler.headers, payload: { brandId: brandId('Shimano'), name: 'Sneaky rod' } });
    expect([404, 405]).toContain(res.statusCode);
    expect(res.json().code).toBe('http.route_not_found');
    const after = (await t.database.pool.query('SELECT count(*)::int AS n, max(updated_at) AS m FROM gear_items')).rows[0];
    expect(after).toEqual(before);
  });
});
