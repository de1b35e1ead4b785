import { and, asc, eq, gte, ilike, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { likeEscape, normaliseQuery, trigramMatch, trigramRank, withSearchThreshold } from '../../core/db/search.js';
import type { Page } from '../../core/http/pagination.js';
import { brands } from '../brands/index.js';
import { fishSpecies } from '../species/index.js';
import type { GearKind } from './gear.kinds.js';
import type { CatalogFilter } from './gear.schemas.js';
import { gearItems, gearLureSpecies, type GearItemRow } from './gear.tables.js';

/** SQL of the gear catalog; no rules. */

export interface ItemRow {
  item: GearItemRow;
  brandName: string;
  brandActive: boolean;
}

export function itemSearchText(brandName: string, item: { name: string; productLine?: string | null; modelNumber?: string | null }): string {
  return [brandName, item.name, item.productLine, item.modelNumber].filter(Boolean).join(' ').toLowerCase();
}

function selectItems(db: DbOrTx) {
  return db.select({ item: gearItems, brandName: brands.name, brandActive: brands.isActive }).from(gearItems).innerJoin(brands, eq(brands.id, gearItems.brandId));
}

function conditions(kind: GearKind, f: CatalogFilter, q: string | undefined): SQL[] {
  const c: SQL[] = [eq(gearItems.kind, kind)];
  const status = f.status ?? 'active';
  // Listed means: the item and its brand are active.
  if (status === 'active') c.push(sql`${gearItems.isActive} AND ${brands.isActive}`);
  if (status === 'inactive') c.push(sql`NOT (${gearItems.isActive} AND ${brands.isActive})`);
  if (q) c.push(trigramMatch(gearItems.searchText, q));
  if (f.brandId) c.push(eq(gearItems.brandId, f.brandId));
  if (f.minPriceUsd !== undefined) c.push(gte(gearItems.priceUsd, f.minPriceUsd));
  if (f.maxPriceUsd !== undefined) c.push(lte(gearItems.priceUsd, f.maxPriceUsd));
  const equal: Array<[unknown, Parameters<typeof eq>[0]]> = [
    [f.rodType, gearItems.rodType],
    [f.power, gearItems.power],
    [f.action, gearItems.action],
    [f.pieces, gearItems.pieces],
    [f.material, gearItems.material],
    [f.reelType, gearItems.reelType],
    [f.lineType, gearItems.lineType],
    [f.lureType, gearItems.lureType],
    [f.apparelType, gearItems.apparelType],
    [f.gender, gearItems.gender],
    [f.waterproof, gearItems.waterproof],
  ];
  for (const [value, column] of equal) if (value !== undefined) c.push(eq(column, value));
  if (f.minLengthIn !== undefined) c.push(gte(gearItems.lengthIn, f.minLengthIn));
  if (f.maxLengthIn !== undefined) c.push(lte(gearItems.lengthIn, f.maxLengthIn));
  if (f.minGearRatio !== undefined) c.push(gte(gearItems.gearRatio, f.minGearRatio));
  if (f.maxGearRatio !== undefined) c.push(lte(gearItems.gearRatio, f.maxGearRatio));
  if (f.minWeightG !== undefined) c.push(gte(gearItems.weightG, f.minWeightG));
  if (f.maxWeightG !== undefined) c.push(lte(gearItems.weightG, f.maxWeightG));
  if (f.minDragKg !== undefined) c.push(gte(gearItems.maxDragKg, f.minDragKg));
  if (f.minTestLb !== undefined) c.push(gte(gearItems.testLb, f.minTestLb));
  if (f.maxTestLb !== undefined) c.push(lte(gearItems.testLb, f.maxTestLb));
  if (f.maxDiameterMm !== undefined) c.push(lte(gearItems.diameterMm, f.maxDiameterMm));
  if (f.colour !== undefined) c.push(ilike(gearItems.colour, `%${likeEscape(f.colour)}%`));
  if (f.size !== undefined) c.push(sql`${gearItems.sizes} @> ARRAY[${f.size}]::text[]`);
  if (f.speciesId !== undefined) {
    c.push(sql`EXISTS (SELECT 1 FROM ${gearLureSpecies} WHERE ${gearLureSpecies.lureId} = ${gearItems.id} AND ${gearLureSpecies.speciesId} = ${f.speciesId})`);
  }
  return c;
}

export async function listItems(db: DbOrTx, kind: GearKind, filter: CatalogFilter, page: Page): Promise<{ items: ItemRow[]; total: number }> {
  const q = filter.q ? normaliseQuery(filter.q) : undefined;
  const where = and(...conditions(kind, filter, q));
  const byName = [asc(gearItems.name), asc(gearItems.id)];
  const orderBy = q
    ? [...trigramRank(gearItems.name, gearItems.searchText, q), ...byName]
    : filter.sort === 'name'
      ? byName
      : filter.sort === 'price'
        ? [sql`${gearItems.priceUsd} ASC NULLS LAST`, ...byName]
        : filter.sort === '-price'
          ? [sql`${gearItems.priceUsd} DESC NULLS LAST`, ...byName]
          : [asc(brands.name), ...byName];
  const run = async (tx: DbOrTx) => {
    const items = await selectItems(tx)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset);
    const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(gearItems).innerJoin(brands, eq(brands.id, gearItems.brandId)).where(where);
    return { items, total: count?.n ?? 0 };
  };
  return q ? withSearchThreshold(db, run) : run(db);
}

export async function findItem(db: DbOrTx, id: string): Promise<ItemRow | undefined> {
  const [row] = await selectItems(db).where(eq(gearItems.id, id));
  return row;
}

export async function findItems(db: DbOrTx, ids: string[]): Promise<ItemRow[]> {
  if (ids.length === 0) return [];
  return selectItems(db).where(inArray(gearItems.id, ids));
}

export async function lockItem(db: DbOrTx, id: string): Promise<GearItemRow | undefined> {
  const [row] = await db.select().from(gearItems).where(eq(gearItems.id, id)).for('update');
  return row;
}

export async function findItemByName(db: DbOrTx, kind: GearKind, brandId: string, name: string): Promise<GearItemRow | undefined> {
  const [row] = await db
    .select()
    .from(gearItems)
    .where(and(eq(gearItems.kind, kind), eq(gearItems.brandId, brandId), sql`lower(${gearItems.name}) = ${name.toLowerCase()}`));
  return row;
}

export async function slugTaken(db: DbOrTx, slug: string): Promise<boolean> {
  const rows = await db.select({ id: gearItems.id }).from(gearItems).where(eq(gearItems.slug, slug));
  return rows.length > 0;
}

export interface LureTargetRow {
  lureId: string;
  id: string;
  commonName: string;
  scientificName: string;
}

/** Target species of the given lures, in one query. */
export async function lureTargets(db: DbOrTx, lureIds: string[]): Promise<LureTargetRow[]> {
  if (lureIds.length === 0) return [];
  return db
    .select({ lureId: gearLureSpecies.lureId, id: fishSpecies.id, commonName: fishSpecies.commonName, scientificName: fishSpecies.scientificName })
    .from(gearLureSpecies)
    .innerJoin(fishSpecies, eq(fishSpecies.id, gearLureSpecies.speciesId))
    .where(inArray(gearLureSpecies.lureId, lureIds))
    .orderBy(asc(fishSpecies.commonName));
}

export async function setLureTargets(db: DbOrTx, lureId: string, speciesIds: string[]): Promise<void> {
  await db.delete(gearLureSpecies).where(eq(gearLureSpecies.lureId, lureId));
  if (speciesIds.length > 0) await db.insert(gearLureSpecies).values(speciesIds.map((speciesId) => ({ lureId, speciesId })));
}

export async function insertItem(db: DbOrTx, row: typeof gearItems.$inferInsert): Promise<GearItemRow> {
  const [inserted] = await db.insert(gearItems).values(row).returning();
  return inserted!;
}

export async function updateItem(db: DbOrTx, id: string, changes: Partial<typeof gearItems.$inferInsert>): Promise<GearItemRow> {
  const [updated] = await db
    .update(gearItems)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(gearItems.id, id))
    .returning();
  return updated!;
}

/** Rewrites search_text of a brand's items (after the brand was renamed). */
export async function refreshBrandSearchText(db: DbOrTx, brandId: string): Promise<void> {
  await db.execute(sql`
    UPDATE gear_items i
       SET search_text = lower(concat_ws(' ', b.name, i.name, i.product_line, i.model_number))
      FROM brands b
     WHERE b.id = i.brand_id AND i.brand_id = ${brandId}`);
}

/** The uses of items in gear setups: rod, reel and line columns and the lures of setups. */
const usesOf = (ids: string[]) => sql`
  SELECT rod_id AS item_id, id AS setup_id, owner_id FROM gear_setups WHERE rod_id = ANY(${sql.param(ids)}::uuid[])
  UNION ALL SELECT reel_id, id, owner_id FROM gear_setups WHERE reel_id = ANY(${sql.param(ids)}::uuid[])
  UNION ALL SELECT line_id, id, owner_id FROM gear_setups WHERE line_id = ANY(${sql.param(ids)}::uuid[])
  UNION ALL SELECT l.lure_id, s.id, s.owner_id FROM gear_setup_lures l JOIN gear_setups s ON s.id = l.setup_id WHERE l.lure_id = ANY(${sql.param(ids)}::uuid[])`;

export interface ItemUsageRow {
  item_id: string;
  setups: number;
  anglers: number;
  catches: number;
}

/** Setups, their owners and the catches logged with them, per item (catches: the fishing log's table). */
export async function itemUsage(db: DbOrTx, ids: string[]): Promise<ItemUsageRow[]> {
  if (ids.length === 0) return [];
  const result = await db.execute<Record<string, unknown>>(sql`
    WITH uses AS (${usesOf(ids)})
    SELECT u.item_id, count(DISTINCT u.setup_id)::int AS setups, count(DISTINCT u.owner_id)::int AS anglers,
           (SELECT count(*)::int FROM catches c WHERE c.gear_setup_id IN (SELECT setup_id FROM uses u2 WHERE u2.item_id = u.item_id)) AS catches
      FROM uses u GROUP BY u.item_id`);
  return result.rows as unknown as ItemUsageRow[];
}

export interface BrandItemCountRow {
  brand_id: string;
  kind: GearKind;
  active: boolean;
  n: number;
}

export async function brandItemCounts(db: DbOrTx, brandIds: readonly string[]): Promise<BrandItemCountRow[]> {
  if (brandIds.length === 0) return [];
  const result = await db.execute<Record<string, unknown>>(sql`
    SELECT brand_id, kind, is_active AS active, count(*)::int AS n FROM gear_items WHERE brand_id = ANY(${sql.param(brandIds)}::uuid[]) GROUP BY brand_id, kind, is_active`);
  return result.rows as unknown as BrandItemCountRow[];
}

export async function brandSetupCounts(db: DbOrTx, brandIds: readonly string[]): Promise<Array<{ brand_id: string; setups: number }>> {
  if (brandIds.length === 0) return [];
  const result = await db.execute<Record<string, unknown>>(sql`
    SELECT i.brand_id, count(DISTINCT u.setup_id)::int AS setups
      FROM gear_items i
      JOIN LATERAL (
        SELECT id AS setup_id FROM gear_setups WHERE rod_id = i.id
        UNION ALL SELECT id FROM gear_setups WHERE reel_id = i.id
        UNION ALL SELECT id FROM gear_setups WHERE line_id = i.id
        UNION ALL SELECT setup_id FROM gear_setup_lures WHERE lure_id = i.id
      ) u ON true
     WHERE i.brand_id = ANY(${sql.param(brandIds)}::uuid[])
     GROUP BY i.brand_id`);
  return result.rows as unknown as Array<{ brand_id: string; setups: number }>;
}

/** Active lures made for each species. */
export async function lureCountsBySpecies(db: DbOrTx, speciesIds: readonly string[]): Promise<Array<{ species_id: string; n: number }>> {
  if (speciesIds.length === 0) return [];
  const result = await db.execute<Record<string, unknown>>(sql`
    SELECT ls.species_id, count(*)::int AS n
      FROM gear_lure_species ls JOIN gear_items i ON i.id = ls.lure_id AND i.is_active
     WHERE ls.species_id = ANY(${sql.param(speciesIds)}::uuid[])
     GROUP BY ls.species_id`);
  return result.rows as unknown as Array<{ species_id: string; n: number }>;
}
