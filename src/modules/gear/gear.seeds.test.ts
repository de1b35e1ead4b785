import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser } from '../../../test/factories.js';
import { applySeeds } from '../../core/db/seeds.js';
import { seeds } from '../../seeds.js';
import { countryName } from '../brands/brands.countries.js';
import { brandId, loadBrandData } from '../brands/brands.seeds.js';
import { loadSpeciesData, speciesId } from '../species/species.seeds.js';
import { GEAR_DATA_DIR, gearItemId, loadGearData } from './gear.seeds.js';

/** The catalog seeds (species.core, brands.core, gear.catalog): data quality, idempotency, admin changes kept. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const count = async (sql: string) => (await t.database.pool.query(sql)).rows[0].n as number;

describe('the reference data files', () => {
  const species = loadSpeciesData();
  const brands = loadBrandData();
  const gear = loadGearData();

  it('hold at least 120 species with their families and orders, keeping the ids of the first 16', () => {
    expect(species.species.length).toBeGreaterThanOrEqual(120);
    expect(species.species.some((s) => s.waterTypes.includes('Saltwater'))).toBe(true);
    expect(species.species.some((s) => s.waterTypes.includes('Freshwater'))).toBe(true);
    // The species the first seed had (catches may reference their ids).
    for (const name of ['Micropterus salmoides', 'Micropterus dolomieu', 'Sander vitreus', 'Esox lucius', 'Esox masquinongy', 'Perca flavescens', 'Lepomis macrochirus', 'Pomoxis nigromaculatus', 'Ictalurus punctatus', 'Oncorhynchus mykiss', 'Salmo trutta', 'Salvelinus fontinalis', 'Salvelinus namaycush', 'Oncorhynchus tshawytscha', 'Morone saxatilis', 'Sciaenops ocellatus']) {
      expect(species.species.map((s) => s.scientificName)).toContain(name);
    }
    expect(speciesId('Micropterus salmoides')).toBe('d2dc9df0-bd28-5955-83ae-5a1d92d5132d'); // as the first seed made it
  });

  it('hold at least 40 brands with a real country code and an https website', () => {
    expect(brands.length).toBeGreaterThanOrEqual(40);
    for (const b of brands) {
      expect(countryName(b.country), b.name).toBeTruthy();
      expect(b.website, b.name).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}(\/.*)?$/);
      expect(b.gearKinds.length, b.name).toBeGreaterThan(0);
    }
  });

  it('hold at least 300 gear items over the five kinds, each of a known brand that makes that kind', () => {
    expect(gear.length).toBeGreaterThanOrEqual(300);
    const ofKind = (kind: string) => gear.filter((g) => g.kind === kind);
    for (const kind of ['rod', 'reel', 'line', 'lure', 'apparel']) expect(ofKind(kind).length, kind).toBeGreaterThanOrEqual(40);
    const brandKinds = new Map(brands.map((b) => [b.name, new Set(b.gearKinds)]));
    const scientific = new Set(species.species.map((s) => s.scientificName));
    for (const { kind, item } of gear) {
      expect(brandKinds.get(item.brand)?.has(kind), `${item.slug}: ${item.brand} makes ${kind}s`).toBe(true);
      for (const target of item.targetSpecies ?? []) expect(scientific.has(target), `${item.slug}: ${target}`).toBe(true);
    }
    expect(ofKind('lure').every(({ item }) => (item.targetSpecies ?? []).length > 0)).toBe(true);
  });

  it('refuse an item the admin API would refuse, naming it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fishlog-gear-'));
    for (const file of ['rods', 'reels', 'lines', 'lures', 'apparel']) writeFileSync(path.join(dir, `${file}.json`), readFileSync(path.join(GEAR_DATA_DIR, `${file}.json`)));
    const rods = JSON.parse(readFileSync(path.join(dir, 'rods.json'), 'utf8'));
    rods.items[0].power = 'Mighty';
    writeFileSync(path.join(dir, 'rods.json'), JSON.stringify(rods));
    expect(() => loadGearData(dir)).toThrow(new RegExp(`${rods.items[0].slug}: /power`));
    rods.items[0].power = 'Medium';
    rods.items[0].lineMinLb = 50;
    writeFileSync(path.join(dir, 'rods.json'), JSON.stringify(rods));
    expect(() => loadGearData(dir)).toThrow(/lineMaxLb must not be smaller than lineMinLb/);
  });
});

describe('seeding', () => {
  it('has seeded the whole catalog (the first start does it)', async () => {
    expect(await count('SELECT count(*)::int AS n FROM fish_species')).toBe(loadSpeciesData().species.length);
    expect(await count("SELECT count(*)::int AS n FROM fish_taxa WHERE rank = 'family'")).toBe(loadSpeciesData().families.length);
    expect(await count('SELECT count(*)::int AS n FROM fish_species WHERE genus_id IS NULL')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM brands')).toBe(loadBrandData().length);
    expect(await count('SELECT count(*)::int AS n FROM gear_items')).toBe(loadGearData().length);
    const versions = await t.database.pool.query("SELECT name, version FROM seed_runs WHERE name IN ('species.core', 'brands.core', 'gear.catalog') ORDER BY name");
    expect(versions.rows).toEqual([
      { name: 'brands.core', version: 1 },
      { name: 'gear.catalog', version: 1 },
      { name: 'species.core', version: 2 },
    ]);
  });

  it('is idempotent: seeding again changes nothing, and long seeds print progress', async () => {
    const snapshot = async () =>
      (
        await t.database.pool.query(`SELECT
          (SELECT count(*) FROM fish_species) AS species, (SELECT max(updated_at) FROM fish_species) AS species_at,
          (SELECT count(*) FROM fish_taxa) AS taxa, (SELECT max(updated_at) FROM fish_taxa) AS taxa_at,
          (SELECT count(*) FROM brands) AS brands, (SELECT max(updated_at) FROM brands) AS brands_at,
          (SELECT count(*) FROM gear_items) AS items, (SELECT max(updated_at) FROM gear_items) AS items_at,
          (SELECT count(*) FROM gear_lure_species) AS targets`)
      ).rows[0];
    const before = await snapshot();
    const lines: string[] = [];
    for (let run = 0; run < 2; run++) {
      const report = await applySeeds(t.database.pool, seeds, { force: true, log: (m) => lines.push(m) });
      expect(report.applied).toEqual(expect.arrayContaining(['species.core', 'brands.core', 'gear.catalog']));
    }
    expect(await snapshot()).toEqual(before);
    expect(lines).toContain(`seed gear.catalog: ${loadGearData().length}/${loadGearData().length}`);
    expect(lines.some((l) => /^seed species\.core v2 applied in \d+ ms$/.test(l))).toBe(true);
  });

  it('leaves what administrators changed (and deactivated) as it is', async () => {
    const owner = await createUser(t, { role: 'Owner' });
    const call = (method: 'PATCH' | 'POST', url: string, payload: object) => t.app.inject({ method, url, headers: owner.headers, payload });
    const walleye = speciesId('Sander vitreus');
    expect((await call('PATCH', `/api/admin/species/${walleye}`, { commonName: 'Walleye (yellow)' })).statusCode).toBe(200);
    expect((await call('POST', `/api/admin/species/${speciesId('Channa argus')}/deactivate`, {})).statusCode).toBe(200);
    expect((await call('PATCH', `/api/admin/brands/${brandId('Penn')}`, { website: 'https://www.penn.example' })).statusCode).toBe(200);
    const reel = gearItemId('penn-battle-iii-2500');
    expect((await call('PATCH', `/api/admin/gear/reels/${reel}`, { priceUsd: 99 })).statusCode).toBe(200);
    // Unchanged seed rows drift from the files and must come back.
    await t.database.pool.query("UPDATE fish_species SET common_name = 'Sauger?' WHERE id = $1", [speciesId('Sander canadensis')]);
    await t.database.pool.query("UPDATE gear_items SET price_usd = 1 WHERE id = $1", [gearItemId('penn-battle-iii-3000')]);

    await applySeeds(t.database.pool, seeds, { force: true });

    const row = async (sql: string, id: string) => (await t.database.pool.query(sql, [id])).rows[0];
    expect(await row('SELECT common_name FROM fish_species WHERE id = $1', walleye)).toEqual({ common_name: 'Walleye (yellow)' });
    expect(await row('SELECT is_active FROM fish_species WHERE id = $1', speciesId('Channa argus'))).toEqual({ is_active: false });
    expect(await row('SELECT website FROM brands WHERE id = $1', brandId('Penn'))).toEqual({ website: 'https://www.penn.example' });
    expect(await row('SELECT price_usd FROM gear_items WHERE id = $1', reel)).toEqual({ price_usd: '99.00' });
    expect(await row('SELECT common_name FROM fish_species WHERE id = $1', speciesId('Sander canadensis'))).toEqual({ common_name: 'Sauger' });
    expect(await row('SELECT price_usd FROM gear_items WHERE id = $1', gearItemId('penn-battle-iii-3000'))).toEqual({ price_usd: '120.00' });
  });
});
