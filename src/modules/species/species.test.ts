import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID } from '../../../test/factories.js';
import { speciesId } from './species.seeds.js';

let t: TestApp;
let angler: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  angler = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, user: TestUser | null = angler) => t.app.inject({ method: 'GET', url, ...(user ? { headers: user.headers } : {}) });
const names = (body: Array<{ commonName: string }>) => body.map((s) => s.commonName);

describe('GET /api/fish-species', () => {
  it('lists active species by common name, paginated, with their taxonomy', async () => {
    const res = await get('/api/fish-species?pageSize=5');
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(120);
    expect(res.headers.link).toContain('rel="next"');
    const body = res.json();
    expect(body).toHaveLength(5);
    const ordered = await t.database.pool.query('SELECT common_name FROM fish_species WHERE is_active ORDER BY common_name, id LIMIT 5');
    expect(names(body)).toEqual(ordered.rows.map((r) => r.common_name));
    const page2 = (await get('/api/fish-species?pageSize=5&page=2')).json();
    expect(names(page2).some((n: string) => names(body).includes(n))).toBe(false);
    expect(body[0]).toEqual({
      id: expect.any(String),
      commonName: expect.any(String),
      otherNames: expect.any(Array),
      scientificName: expect.stringMatching(/^[A-Z][a-z]+ [a-z]+/),
      waterTypes: expect.any(Array),
      taxonomy: { order: expect.objectContaining({ rank: 'Order' }), family: expect.objectContaining({ rank: 'Family' }), genus: expect.objectContaining({ rank: 'Genus' }) },
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it.each([
    ['walley', 'Walleye'],
    ['blugill', 'Bluegill'],
    ['muskelunge', 'Muskellunge'],
    ['smalmouth bass', 'Smallmouth bass'],
    ['stripped bass', 'Striped bass'],
    ['crapie', 'Black crappie'],
  ])('finds a misspelt name: %s → %s first', async (q, expected) => {
    const res = await get(`/api/fish-species?q=${encodeURIComponent(q)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()[0].commonName).toBe(expected);
  });

  it('searches other and scientific names, and ranks the common name first', async () => {
    const bucketmouth = (await get('/api/fish-species?q=bucketmouth')).json();
    expect(names(bucketmouth)[0]).toBe('Largemouth bass');
    const scientific = (await get('/api/fish-species?q=Micropterus%20salmoides')).json();
    expect(scientific[0].scientificName).toBe('Micropterus salmoides');
    const tuna = (await get('/api/fish-species?q=tuna&pageSize=100')).json();
    expect(tuna[0].commonName).toMatch(/tuna/i);
    expect(names(tuna)).toContain('Albacore'); // other name "Longfin tuna"
    const nothing = await get('/api/fish-species?q=xyzzyqux');
    expect(nothing.json()).toEqual([]);
    expect(nothing.headers['x-total-count']).toBe('0');
  });

  it('filters by family, genus, order and water type', async () => {
    const sunfishes = (await get('/api/fish-species?family=centrarchidae&pageSize=100')).json();
    expect(sunfishes.length).toBeGreaterThanOrEqual(10);
    expect(sunfishes.every((s: { taxonomy: { family: { name: string } } }) => s.taxonomy.family.name === 'Centrarchidae')).toBe(true);
    expect(names(sunfishes)).toEqual(expect.arrayContaining(['Largemouth bass', 'Bluegill', 'Black crappie']));
    const micropterus = (await get('/api/fish-species?genus=Micropterus&pageSize=100')).json();
    expect(micropterus.map((s: { scientificName: string }) => s.scientificName.split(' ')[0])).toEqual(Array(micropterus.length).fill('Micropterus'));
    const salt = (await get('/api/fish-species?waterType=Saltwater&pageSize=100')).json();
    expect(salt.every((s: { waterTypes: string[] }) => s.waterTypes.includes('Saltwater'))).toBe(true);
    expect(names(salt)).not.toContain('Bluegill');
    const freshSalmonids = await get('/api/fish-species?family=Salmonidae&waterType=Freshwater&q=trout&pageSize=100');
    expect(names(freshSalmonids.json())).toEqual(expect.arrayContaining(['Brook trout', 'Lake trout', 'Rainbow trout']));
    const sharks = (await get('/api/fish-species?order=Carcharhiniformes&pageSize=100')).json();
    expect(names(sharks)).toContain('Bull shark');
  });

  it('rejects bad filters (400) and needs a token (401)', async () => {
    const bad = await get('/api/fish-species?waterType=Lava');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ pointer: '/waterType', in: 'query' });
    expect((await get('/api/fish-species?q=')).statusCode).toBe(400);
    expect((await get('/api/fish-species?pageSize=101')).statusCode).toBe(400);
    expect((await get('/api/fish-species?colour=red')).statusCode).toBe(400);
    const anonymous = await get('/api/fish-species', null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('auth.token_missing');
  });
});

describe('GET /api/fish-species/{id}', () => {
  it('shows the taxonomy and the related species of the genus and family', async () => {
    const res = await get(`/api/fish-species/${speciesId('Micropterus salmoides')}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      commonName: 'Largemouth bass',
      scientificName: 'Micropterus salmoides',
      waterTypes: ['Freshwater'],
      taxonomy: {
        order: { name: 'Perciformes', rank: 'Order' },
        family: { name: 'Centrarchidae', commonName: 'Sunfishes', rank: 'Family' },
        genus: { name: 'Micropterus', rank: 'Genus' },
      },
    });
    const sameGenus = body.relatedSpecies.sameGenus.map((s: { scientificName: string }) => s.scientificName);
    expect(sameGenus).toEqual(expect.arrayContaining(['Micropterus dolomieu', 'Micropterus punctulatus']));
    expect(sameGenus).not.toContain('Micropterus salmoides');
    const sameFamily = body.relatedSpecies.sameFamily.map((s: { scientificName: string }) => s.scientificName);
    expect(sameFamily).toEqual(expect.arrayContaining(['Lepomis macrochirus', 'Pomoxis nigromaculatus']));
    expect(sameFamily.every((n: string) => !n.startsWith('Micropterus'))).toBe(true);
  });

  it('answers 404 for an unknown id, 400 for a malformed one, 401 without a token', async () => {
    const missing = await get(`/api/fish-species/${MISSING_ID}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('species.not_found');
    const bad = await get('/api/fish-species/walleye');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ pointer: '/id', in: 'path', detail: 'must be a UUID' }]);
    expect((await get(`/api/fish-species/${MISSING_ID}`, null)).statusCode).toBe(401);
  });

  it('keeps a deactivated species readable by id but out of the lists', async () => {
    const id = speciesId('Channa marulius');
    await t.database.pool.query('UPDATE fish_species SET is_active = false, deactivated_at = now() WHERE id = $1', [id]);
    const one = await get(`/api/fish-species/${id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ commonName: 'Bullseye snakehead', isActive: false });
    const list = (await get('/api/fish-species?family=Channidae')).json();
    expect(names(list)).toEqual(['Northern snakehead']);
    const related = (await get(`/api/fish-species/${speciesId('Channa argus')}`)).json();
    expect(related.relatedSpecies.sameGenus).toEqual([]);
    const search = (await get('/api/fish-species?q=bullseye')).json();
    expect(search).toEqual([]);
  });
});

describe('GET /api/fish-species/families', () => {
  it('lists families with their order and species count, filterable by order', async () => {
    const res = await get('/api/fish-species/families?pageSize=100');
    expect(res.statusCode).toBe(200);
    const families = res.json();
    expect(families.length).toBeGreaterThanOrEqual(40);
    const centrarchidae = families.find((f: { name: string }) => f.name === 'Centrarchidae');
    expect(centrarchidae).toMatchObject({ commonName: 'Sunfishes', order: { name: 'Perciformes' }, speciesCount: 16 });
    const gadiformes = (await get('/api/fish-species/families?order=gadiformes')).json();
    expect(gadiformes.map((f: { name: string }) => f.name)).toEqual(['Gadidae', 'Lotidae']);
    expect((await get('/api/fish-species/families', null)).statusCode).toBe(401);
  });
});
