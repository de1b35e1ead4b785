import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import type { Seed } from '../../core/db/seeds.js';
import { createAjv } from '../../core/http/validation.js';
import { projectRoot } from '../../paths.js';
import { brands } from '../brands/index.js';
import { fishSpecies } from '../species/index.js';
import { GEAR_KINDS, KIND_SEGMENTS, type GearKind } from './gear.kinds.js';
import { createItemBody } from './gear.admin.schemas.js';
import { itemSearchText } from './gear.repository.js';
import { checkItem, type Columns } from './gear.rules.js';
import { gearItems, gearLureSpecies } from './gear.tables.js';

/** Namespace of seeded catalog item ids: id = UUIDv5(slug, this namespace). */
export const GEAR_NAMESPACE = '9b2e7d14-5f63-5a80-8c4e-1d7a3b6f0e52';

export function gearItemId(slug: string): string {
  return uuidv5(slug, GEAR_NAMESPACE);
}

/** The columns the data files set; every other kind's columns are null. */
const DATA_COLUMNS = [
  'name',
  'productLine',
  'modelNumber',
  'description',
  'priceUsd',
  'rodType',
  'lengthIn',
  'power',
  'action',
  'pieces',
  'lineMinLb',
  'lineMaxLb',
  'lureMinG',
  'lureMaxG',
  'flyLineWeight',
  'material',
  'reelType',
  'size',
  'gearRatio',
  'maxDragKg',
  'bearings',
  'retrieveCm',
  'weightG',
  'lineType',
  'testLb',
  'diameterMm',
  'spoolLengthM',
  'colour',
  'lureType',
  'lengthCm',
  'divingDepthMinM',
  'divingDepthMaxM',
  'apparelType',
  'sizes',
  'gender',
  'waterproof',
  'colours',
] as const;

export interface GearDataItem {
  slug: string;
  brand: string;
  name: string;
  targetSpecies?: string[];
  [field: string]: unknown;
}

export const GEAR_DATA_DIR = path.join(projectRoot, 'reference-data', 'gear');

/**
 * Reads reference-data/gear/*.json. Every item must pass the rules of the admin API (its create
 * schema and cross-field rules), so the data files cannot hold what an administrator could not enter.
 */
export function loadGearData(dir = GEAR_DATA_DIR): Array<{ kind: GearKind; item: GearDataItem }> {
  const out: Array<{ kind: GearKind; item: GearDataItem }> = [];
  const slugs = new Set<string>();
  // The request validation's own Ajv rules (what POST /api/admin/gear/items would check).
  const ajv = createAjv(false);
  for (const kind of GEAR_KINDS) {
    const file = path.join(dir, `${KIND_SEGMENTS[kind]}.json`);
    const items = (JSON.parse(readFileSync(file, 'utf8')) as { items: GearDataItem[] }).items;
    const validate = ajv.compile(createItemBody(kind));
    for (const item of items) {
      if (slugs.has(item.slug)) throw new Error(`${file}: slug ${item.slug} is used twice`);
      slugs.add(item.slug);
      const { brand: _brand, targetSpecies: _targets, ...fields } = item;
      const body = { ...fields, brandId: GEAR_NAMESPACE };
      if (!validate(body)) throw new Error(`${file}: ${item.slug}: ${(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`);
      try {
        checkItem(kind, body as Columns);
      } catch (error) {
        throw new Error(`${file}: ${item.slug}: ${(error as Error).message}`);
      }
      out.push({ kind, item });
    }
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export const gearSeed: Seed = {
  name: 'gear.catalog',
  version: 1,
  description: 'The gear catalog: rods, reels, lines, lures and apparel (reference-data/gear/*.json)',
  async run({ tx, progress }) {
    const data = loadGearData();
    const brandRows = await tx.select({ id: brands.id, name: brands.name }).from(brands);
    const brandByName = new Map(brandRows.map((b) => [b.name.toLowerCase(), b]));
    const speciesRows = await tx.select({ id: fishSpecies.id, scientificName: fishSpecies.scientificName }).from(fishSpecies);
    const speciesByName = new Map(speciesRows.map((s) => [s.scientificName.toLowerCase(), s.id]));
    const existing = await tx.select().from(gearItems);
    const bySlug = new Map(existing.map((r) => [r.slug, r]));
    const ids = new Set(existing.map((r) => r.id));
    const targetsNow = new Map<string, string[]>();
    for (const t of await tx.select().from(gearLureSpecies)) targetsNow.set(t.lureId, [...(targetsNow.get(t.lureId) ?? []), t.speciesId]);

    const inserts: Array<typeof gearItems.$inferInsert> = [];
    const targets = new Map<string, string[]>();
    let done = 0;
    const total = data.length;
    for (const { kind, item } of data) {
      if (++done % 100 === 0) progress(done, total);
      const brand = brandByName.get(item.brand.toLowerCase());
      if (!brand) throw new Error(`gear item ${item.slug}: unknown brand ${item.brand} (add it to reference-data/brands.json)`);
      const columns: Record<string, unknown> = { kind, brandId: brand.id };
      for (const column of DATA_COLUMNS) columns[column] = item[column] ?? null;
      const speciesIds = (item.targetSpecies ?? []).map((name) => {
        const id = speciesByName.get(name.toLowerCase());
        if (!id) throw new Error(`gear item ${item.slug}: unknown target species ${name} (add it to reference-data/species.json)`);
        return id;
      });
      const searchText = itemSearchText(brand.name, item as { name: string; productLine?: string | null; modelNumber?: string | null });
      const current = bySlug.get(item.slug);
      if (current) {
        // An item an administrator changed is theirs from then on.
        if (current.updatedBy !== null) continue;
        const changed = ['kind', 'brandId', ...DATA_COLUMNS].some((c) => !same((current as Record<string, unknown>)[c], columns[c])) || current.searchText !== searchText;
        if (changed) {
          await tx
            .update(gearItems)
            .set({ ...(columns as Partial<typeof gearItems.$inferInsert>), searchText, updatedAt: new Date() })
            .where(eq(gearItems.id, current.id));
        }
        if (kind === 'lure' && !same([...(targetsNow.get(current.id) ?? [])].sort(), [...speciesIds].sort())) targets.set(current.id, speciesIds);
      } else {
        const id = gearItemId(item.slug);
        if (ids.has(id)) continue; // the seed's item, renamed by an administrator
        inserts.push({ ...(columns as typeof gearItems.$inferInsert), id, slug: item.slug, searchText });
        if (kind === 'lure') targets.set(id, speciesIds);
      }
    }
    for (let i = 0; i < inserts.length; i += 100) await tx.insert(gearItems).values(inserts.slice(i, i + 100));
    const lureIds = [...targets.keys()];
    if (lureIds.length > 0) {
      await tx.delete(gearLureSpecies).where(inArray(gearLureSpecies.lureId, lureIds));
      const rows = [...targets].flatMap(([lureId, speciesIds]) => speciesIds.map((speciesId) => ({ lureId, speciesId })));
      for (let i = 0; i < rows.length; i += 500) await tx.insert(gearLureSpecies).values(rows.slice(i, i + 500));
    }
    progress(total, total);
  },
};
