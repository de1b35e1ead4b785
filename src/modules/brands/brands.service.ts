import type { DbOrTx } from '../../core/db/client.js';
import type { ServiceDeps } from '../../core/service-deps.js';
import type { Page } from '../../core/http/pagination.js';
import { GEAR_KINDS, GearKindEnum, type GearKind } from './brands.kinds.js';
import { countryName } from './brands.countries.js';
import { BrandErrors } from './brands.errors.js';
import * as repo from './brands.repository.js';
import type { BrandRow } from './brands.tables.js';
import { brandUsage } from './brands.usage.js';

/** Reading brands: everybody signed in; deactivated brands are readable by id but not listed. */

export function brandView(row: BrandRow) {
  return {
    id: row.id,
    name: row.name,
    country: row.country,
    countryName: countryName(row.country) ?? row.country,
    website: row.website,
    description: row.description,
    gearKinds: (row.gearKinds as GearKind[]).map(GearKindEnum.toApi),
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export interface BrandUsage {
  catalogItems: Record<GearKind | 'total', number>;
  inactiveCatalogItems: number;
  setups: number;
}

/** Catalog items per kind and gear setups using them, per brand (one statement per counter for all brands). */
export async function usageOfBrands({ db, registries }: ServiceDeps<DbOrTx>, brandIds: string[]): Promise<Map<string, BrandUsage>> {
  const usage = registries.of(brandUsage);
  const [itemCounts, setups] = await Promise.all([usage.each(db, 'catalogItems', brandIds), usage.total(db, 'setups', brandIds)]);
  const out = new Map<string, BrandUsage>();
  for (const id of brandIds) {
    const catalogItems = Object.fromEntries([...GEAR_KINDS, 'total'].map((k) => [k, 0])) as BrandUsage['catalogItems'];
    const usage: BrandUsage = { catalogItems, inactiveCatalogItems: 0, setups: setups.get(id) ?? 0 };
    for (const c of itemCounts.flatMap((counts) => counts.get(id) ?? [])) {
      if (c.active) {
        catalogItems[c.kind] += c.n;
        catalogItems.total += c.n;
      } else {
        usage.inactiveCatalogItems += c.n;
      }
    }
    out.set(id, usage);
  }
  return out;
}

export function publicUsage(usage: BrandUsage) {
  return { catalogItems: usage.catalogItems, setups: usage.setups };
}

export async function listBrands(deps: ServiceDeps<DbOrTx>, filter: repo.BrandFilter, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.listBrands(db, { ...filter, status: 'active' }, page);
  return { items: items.map(brandView), total };
}

export async function requireBrand(deps: ServiceDeps<DbOrTx>, id: string): Promise<BrandRow> {
  const { db } = deps;
  const row = await repo.findBrand(db, id);
  if (!row) throw BrandErrors.notFound(id);
  return row;
}

export async function getBrand(deps: ServiceDeps<DbOrTx>, id: string) {
  const row = await requireBrand(deps, id);
  const usage = (await usageOfBrands(deps, [id])).get(id)!;
  return { ...brandView(row), usage: publicUsage(usage) };
}

/**
 * Checks a brand id another module is about to reference: it must exist and be active, unless it
 * is already referenced (`kept`). Throws a 400 naming the field.
 */
export async function assertReferenceableBrand(deps: ServiceDeps<DbOrTx>, id: string, pointer: string, kept?: string): Promise<BrandRow> {
  const { db } = deps;
  const row = await repo.findBrand(db, id);
  if (!row) throw BrandErrors.badReference(pointer, id, false);
  if (!row.isActive && id !== kept) throw BrandErrors.badReference(pointer, id, true);
  return row;
}
