import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import type { Seed } from '../../core/db/seeds.js';
import { projectRoot } from '../../paths.js';
import { GEAR_KINDS, type GearKind } from './brands.kinds.js';
import { brands } from './brands.tables.js';
import { countryName } from './brands.countries.js';

/** Namespace of seeded brand ids: id = UUIDv5(lower-cased brand name, this namespace). */
export const BRANDS_NAMESPACE = '3d0f4c55-8a8e-5c2e-b7a1-9f4e2d6c1a07';

export function brandId(name: string): string {
  return uuidv5(name.toLowerCase(), BRANDS_NAMESPACE);
}

export interface BrandData {
  name: string;
  country: string;
  website: string;
  description: string;
  gearKinds: GearKind[];
}

export const BRANDS_DATA_FILE = path.join(projectRoot, 'reference-data', 'brands.json');

export function loadBrandData(file = BRANDS_DATA_FILE): BrandData[] {
  const data = (JSON.parse(readFileSync(file, 'utf8')) as { brands: BrandData[] }).brands;
  const seen = new Set<string>();
  for (const b of data) {
    const fail = (what: string) => {
      throw new Error(`${file}: brand ${b.name}: ${what}`);
    };
    if (seen.has(b.name.toLowerCase())) fail('listed twice');
    seen.add(b.name.toLowerCase());
    if (!countryName(b.country)) fail(`unknown country code ${b.country}`);
    if (!/^https:\/\/[^\s]+$/.test(b.website)) fail(`website must be an https URL`);
    if (b.gearKinds.some((k) => !GEAR_KINDS.includes(k))) fail('unknown gear kind');
  }
  return data;
}

export const brandsSeed: Seed = {
  name: 'brands.core',
  version: 1,
  description: 'Fishing-gear brands (reference-data/brands.json)',
  async run({ tx, progress }) {
    const data = loadBrandData();
    // Matched by name (case-insensitive). Rows an administrator changed (updated_by set), and
    // seed ids now carrying another name, are left alone.
    const existing = await tx.select({ id: brands.id, name: brands.name, updatedBy: brands.updatedBy }).from(brands);
    const byName = new Map(existing.map((r) => [r.name.toLowerCase(), r]));
    const ids = new Set(existing.map((r) => r.id));
    let done = 0;
    for (const b of data) {
      const values = { name: b.name, country: b.country, website: b.website, description: b.description, gearKinds: b.gearKinds };
      const current = byName.get(b.name.toLowerCase());
      if (current) {
        if (current.updatedBy === null) {
          await tx
            .update(brands)
            .set({ ...values, updatedAt: new Date() })
            .where(
              sql`${eq(brands.id, current.id)} AND (${brands.name}, ${brands.country}, ${brands.website}, ${brands.description}, ${brands.gearKinds})
                  IS DISTINCT FROM (${b.name}, ${b.country}, ${b.website}, ${b.description}, ${sql`${sql.param(b.gearKinds)}::text[]`})`,
            );
        }
      } else if (!ids.has(brandId(b.name))) {
        await tx.insert(brands).values({ id: brandId(b.name), ...values });
      }
      progress(++done, data.length);
    }
  },
};
