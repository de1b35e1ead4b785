import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { namedIdsStatement } from '../../core/db/prepared.js';
import { normaliseQuery, trigramMatch, trigramRank, withSearchThreshold } from '../../core/db/search.js';
import { fishSpecies, fishTaxa, type SpeciesRow, type TaxonRank, type TaxonRow, type WaterType } from './species.tables.js';

/** SQL of the species module; no rules. */

/** The text the trigram search matches: every name of the species, lower-cased. */
export function speciesSearchText(s: { commonName: string; otherNames: string[]; scientificName: string }): string {
  return [s.commonName, ...s.otherNames, s.scientificName].join(' ').toLowerCase();
}

const genus = alias(fishTaxa, 'genus');
const family = alias(fishTaxa, 'family');
const order = alias(fishTaxa, 'ord');

export interface SpeciesWithTaxa {
  species: SpeciesRow;
  genus: TaxonRow | null;
  family: TaxonRow | null;
  order: TaxonRow | null;
}

function withTaxa(db: DbOrTx) {
  return db
    .select({ species: fishSpecies, genus, family, order })
    .from(fishSpecies)
    .leftJoin(genus, eq(genus.id, fishSpecies.genusId))
    .leftJoin(family, eq(family.id, genus.parentId))
    .leftJoin(order, eq(order.id, family.parentId));
}

export interface SpeciesFilter {
  q?: string | undefined;
  family?: string | undefined;
  genus?: string | undefined;
  order?: string | undefined;
  waterType?: WaterType | undefined;
  /** active (default), inactive or all */
  status?: 'active' | 'inactive' | 'all' | undefined;
}

export async function listSpecies(db: DbOrTx, filter: SpeciesFilter, page: Page): Promise<{ items: SpeciesWithTaxa[]; total: number }> {
  const q = filter.q ? normaliseQuery(filter.q) : undefined;
  const where: SQL[] = [];
  const status = filter.status ?? 'active';
  if (status !== 'all') where.push(eq(fishSpecies.isActive, status === 'active'));
  if (q) where.push(trigramMatch(fishSpecies.searchText, q));
  if (filter.family) where.push(sql`lower(${family.name}) = ${filter.family.toLowerCase()}`);
  if (filter.genus) where.push(sql`lower(${genus.name}) = ${filter.genus.toLowerCase()}`);
  if (filter.order) where.push(sql`lower(${order.name}) = ${filter.order.toLowerCase()}`);
  if (filter.waterType) where.push(sql`${fishSpecies.waterTypes} @> ARRAY[${filter.waterType}]::text[]`);
  const condition = and(...where);
  const run = async (tx: DbOrTx) => {
    const orderBy = q ? [...trigramRank(fishSpecies.commonName, fishSpecies.searchText, q), asc(fishSpecies.commonName), asc(fishSpecies.id)] : [asc(fishSpecies.commonName), asc(fishSpecies.id)];
    const items = await withTaxa(tx)
      .where(condition)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset);
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(fishSpecies)
      .leftJoin(genus, eq(genus.id, fishSpecies.genusId))
      .leftJoin(family, eq(family.id, genus.parentId))
      .leftJoin(order, eq(order.id, family.parentId))
      .where(condition);
    return { items, total: count?.n ?? 0 };
  };
  return q ? withSearchThreshold(db, run) : run(db);
}

export async function findSpecies(db: DbOrTx, id: string): Promise<SpeciesWithTaxa | undefined> {
  const [row] = await withTaxa(db).where(eq(fishSpecies.id, id));
  return row;
}

export async function lockSpecies(db: DbOrTx, id: string): Promise<SpeciesRow | undefined> {
  const [row] = await db.select().from(fishSpecies).where(eq(fishSpecies.id, id)).for('update');
  return row;
}

export async function findSpeciesByScientificName(db: DbOrTx, scientificName: string): Promise<SpeciesRow | undefined> {
  const [row] = await db
    .select()
    .from(fishSpecies)
    .where(sql`lower(${fishSpecies.scientificName}) = ${scientificName.toLowerCase()}`);
  return row;
}

export interface RelatedRow {
  id: string;
  commonName: string;
  scientificName: string;
  sameGenus: boolean;
}

/** Active species of the same family (and so of the same genus), the species itself excluded. */
export async function relatedSpecies(db: DbOrTx, speciesIdValue: string, genusId: string, familyId: string, limit = 100): Promise<RelatedRow[]> {
  return db
    .select({
      id: fishSpecies.id,
      commonName: fishSpecies.commonName,
      scientificName: fishSpecies.scientificName,
      sameGenus: sql<boolean>`${fishSpecies.genusId} = ${genusId}`,
    })
    .from(fishSpecies)
    .innerJoin(genus, eq(genus.id, fishSpecies.genusId))
    .where(and(eq(genus.parentId, familyId), eq(fishSpecies.isActive, true), ne(fishSpecies.id, speciesIdValue)))
    .orderBy(asc(fishSpecies.scientificName))
    .limit(limit);
}

export interface SpeciesRefRow {
  id: string;
  commonName: string;
  scientificName: string;
  isActive: boolean;
}

export async function speciesRefs(db: DbOrTx, ids: string[]): Promise<SpeciesRefRow[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: fishSpecies.id, commonName: fishSpecies.commonName, scientificName: fishSpecies.scientificName, isActive: fishSpecies.isActive })
    .from(fishSpecies)
    .where(inArray(fishSpecies.id, ids));
}

export interface FamilyRow {
  family: TaxonRow;
  order: TaxonRow | null;
  speciesCount: number;
}

export async function listFamilies(db: DbOrTx, filter: { order?: string | undefined }, page: Page): Promise<{ items: FamilyRow[]; total: number }> {
  const where = and(eq(family.rank, 'family'), filter.order ? sql`lower(${order.name}) = ${filter.order.toLowerCase()}` : undefined);
  const speciesCount = sql<number>`(SELECT count(*)::int FROM ${fishSpecies} s JOIN ${fishTaxa} g ON g.id = s.genus_id WHERE g.parent_id = ${family.id} AND s.is_active)`;
  const [items, [count]] = await Promise.all([
    db
      .select({ family, order, speciesCount })
      .from(family)
      .leftJoin(order, eq(order.id, family.parentId))
      .where(where)
      .orderBy(asc(family.name))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(family).leftJoin(order, eq(order.id, family.parentId)).where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}

export async function findTaxon(db: DbOrTx, rank: TaxonRank, name: string): Promise<TaxonRow | undefined> {
  const [row] = await db
    .select()
    .from(fishTaxa)
    .where(and(eq(fishTaxa.rank, rank), sql`lower(${fishTaxa.name}) = ${name.toLowerCase()}`));
  return row;
}

export async function findTaxonById(db: DbOrTx, id: string): Promise<TaxonRow | undefined> {
  const [row] = await db.select().from(fishTaxa).where(eq(fishTaxa.id, id));
  return row;
}

export async function insertTaxon(db: DbOrTx, row: typeof fishTaxa.$inferInsert): Promise<TaxonRow> {
  const [inserted] = await db.insert(fishTaxa).values(row).returning();
  return inserted!;
}

export async function insertSpecies(db: DbOrTx, row: typeof fishSpecies.$inferInsert): Promise<SpeciesRow> {
  const [inserted] = await db
    .insert(fishSpecies)
    .values({ ...row, searchText: speciesSearchText(row as { commonName: string; otherNames: string[]; scientificName: string }) })
    .returning();
  return inserted!;
}

export async function updateSpecies(db: DbOrTx, id: string, changes: Partial<typeof fishSpecies.$inferInsert>): Promise<SpeciesRow> {
  const [current] = await db.select().from(fishSpecies).where(eq(fishSpecies.id, id));
  const next = { ...current!, ...changes };
  const [updated] = await db
    .update(fishSpecies)
    .set({ ...changes, searchText: speciesSearchText(next), updatedAt: new Date() })
    .where(eq(fishSpecies.id, id))
    .returning();
  return updated!;
}

const activeSpeciesStatement = namedIdsStatement<{ id: string }>(
  'catches_active_species',
  (ids) => sql`SELECT ${fishSpecies.id} AS id FROM ${fishSpecies} WHERE ${ids(fishSpecies.id)} AND ${fishSpecies.isActive}`,
);

/** Which of these species exist and are active (one statement for any number). */
export async function activeSpeciesAmong(db: DbOrTx, speciesIds: readonly string[]): Promise<Set<string>> {
  const ids = [...new Set(speciesIds)];
  if (ids.length === 0) return new Set();
  return new Set((await activeSpeciesStatement.rows(db, { ids })).map((r) => r.id));
}

/** Whether the species exists and is active. */
export async function isActiveSpecies(db: DbOrTx, speciesId: string): Promise<boolean> {
  return (await activeSpeciesAmong(db, [speciesId])).has(speciesId);
}
