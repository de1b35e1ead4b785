import type { ServiceDeps } from '../../core/service-deps.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { GearErrors } from './gear.errors.js';
import type { BrandItemCount } from '../brands/index.js';
import { GearKindEnum, type GearKind } from './gear.kinds.js';
import * as repo from './gear.repository.js';
import type { CatalogFilter } from './gear.schemas.js';

/**
 * The gear catalog, read-only for everybody: lists (active items of active brands) and single
 * items (also deactivated ones). Exports the views and statistics other modules show.
 */

const round1 = (n: number) => Math.round(n * 10) / 10;
const LB_PER_KG = 1 / 0.45359237;

export function lengthLabel(inches: number): string {
  return inches < 48 ? `${inches}"` : `${Math.floor(inches / 12)}'${inches % 12}"`;
}

type Target = { id: string; commonName: string; scientificName: string };

/** The public view of an item of any kind (the kind decides which fields it carries). */
export function itemView(row: repo.ItemRow, targets: Target[] = []) {
  const i = row.item;
  const common = {
    id: i.id,
    kind: GearKindEnum.toApi(i.kind),
    slug: i.slug,
    brand: { id: i.brandId, name: row.brandName, isActive: row.brandActive },
    name: i.name,
    productLine: i.productLine,
    modelNumber: i.modelNumber,
    description: i.description,
    priceUsd: i.priceUsd,
    isActive: i.isActive,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
  switch (i.kind) {
    case 'rod':
      return {
        ...common,
        rodType: i.rodType,
        lengthIn: i.lengthIn!,
        lengthCm: round1(i.lengthIn! * 2.54),
        lengthLabel: lengthLabel(i.lengthIn!),
        power: i.power,
        action: i.action,
        pieces: i.pieces,
        material: i.material,
        lineMinLb: i.lineMinLb,
        lineMaxLb: i.lineMaxLb,
        lureMinG: i.lureMinG,
        lureMaxG: i.lureMaxG,
        flyLineWeight: i.flyLineWeight,
      };
    case 'reel':
      return {
        ...common,
        reelType: i.reelType,
        size: i.size,
        gearRatio: i.gearRatio,
        weightG: i.weightG,
        maxDragKg: i.maxDragKg!,
        maxDragLb: round1(i.maxDragKg! * LB_PER_KG),
        bearings: i.bearings,
        retrieveCm: i.retrieveCm,
      };
    case 'line':
      return { ...common, lineType: i.lineType, testLb: i.testLb!, testKg: round1(i.testLb! / LB_PER_KG), diameterMm: i.diameterMm, spoolLengthM: i.spoolLengthM, colour: i.colour };
    case 'lure':
      return {
        ...common,
        lureType: i.lureType,
        weightG: i.weightG,
        lengthCm: i.lengthCm,
        colour: i.colour,
        divingDepthMinM: i.divingDepthMinM,
        divingDepthMaxM: i.divingDepthMaxM,
        targetSpecies: targets,
      };
    case 'apparel':
      return { ...common, apparelType: i.apparelType, sizes: i.sizes ?? [], gender: i.gender, material: i.material, waterproof: i.waterproof, colours: i.colours ?? [] };
  }
}

export type ItemView = ReturnType<typeof itemView>;

/** Views of the given rows with their lures' target species (one extra query for the page). */
export async function itemViews(deps: ServiceDeps<DbOrTx>, rows: repo.ItemRow[]): Promise<ItemView[]> {
  const { db } = deps;
  const lureIds = rows.filter((r) => r.item.kind === 'lure').map((r) => r.item.id);
  const targets = await repo.lureTargets(db, lureIds);
  const byLure = new Map<string, Target[]>();
  for (const t of targets) {
    const list = byLure.get(t.lureId) ?? [];
    list.push({ id: t.id, commonName: t.commonName, scientificName: t.scientificName });
    byLure.set(t.lureId, list);
  }
  return rows.map((r) => itemView(r, byLure.get(r.item.id) ?? []));
}

export async function listItems(deps: ServiceDeps<DbOrTx>, kind: GearKind, filter: CatalogFilter, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.listItems(db, kind, { ...filter, status: 'active' }, page);
  return { items: await itemViews(deps, items), total };
}

export async function requireItem(deps: ServiceDeps<DbOrTx>, kind: GearKind, id: string): Promise<repo.ItemRow> {
  const { db } = deps;
  const row = await repo.findItem(db, id);
  if (!row) throw GearErrors.notFound(kind, id);
  if (row.item.kind !== kind) throw GearErrors.wrongKind(kind, id, row.item.kind);
  return row;
}

export async function getItem(deps: ServiceDeps<DbOrTx>, kind: GearKind, id: string) {
  const [view] = await itemViews(deps, [await requireItem(deps, kind, id)]);
  return view!;
}

/** Catalog items by id (any kind), as views, for the full view of gear setups. */
export async function catalogItemsById(deps: ServiceDeps<DbOrTx>, ids: string[]): Promise<Map<string, ItemView>> {
  const { db } = deps;
  const views = await itemViews(deps, await repo.findItems(db, [...new Set(ids)]));
  return new Map(views.map((v) => [v.id, v]));
}

export interface ItemStatus {
  id: string;
  kind: GearKind;
  /** The item and its brand are active: it may be newly referenced. */
  selectable: boolean;
}

/** Kind and status of catalog items by id, for modules that reference them. */
export async function catalogItemStatus(deps: ServiceDeps<DbOrTx>, ids: string[]): Promise<Map<string, ItemStatus>> {
  const { db } = deps;
  const rows = await repo.findItems(db, [...new Set(ids)]);
  return new Map(rows.map((r) => [r.item.id, { id: r.item.id, kind: r.item.kind, selectable: r.item.isActive && r.brandActive }]));
}

// ---------- usage counters the catalog registers with brands and species (gear.module.ts) ----------

/** Catalog items of each brand by kind and state (one statement for all brands). */
export async function brandCatalogItems(db: DbOrTx, brandIds: readonly string[]): Promise<Map<string, BrandItemCount[]>> {
  const out = new Map<string, BrandItemCount[]>();
  for (const c of await repo.brandItemCounts(db, brandIds)) out.set(c.brand_id, [...(out.get(c.brand_id) ?? []), { kind: c.kind, active: c.active, n: c.n }]);
  return out;
}

/** Gear setups that use an item of each brand (one statement for all brands). */
export async function brandSetups(db: DbOrTx, brandIds: readonly string[]): Promise<Map<string, number>> {
  return new Map((await repo.brandSetupCounts(db, brandIds)).map((r) => [r.brand_id, r.setups]));
}

/** Active lures made for each species (one statement for all species). */
export async function lureCountsBySpecies(db: DbOrTx, speciesIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await repo.lureCountsBySpecies(db, speciesIds);
  return new Map(rows.map((r) => [r.species_id, r.n]));
}

/** Keeps the items' search text (brand name included) current when a brand is renamed. */
export async function refreshBrandSearchText(db: DbOrTx, brandId: string): Promise<void> {
  await repo.refreshBrandSearchText(db, brandId);
}
