import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { normaliseQuery, trigramMatch, trigramRank, withSearchThreshold } from '../../core/db/search.js';
import type { Page } from '../../core/http/pagination.js';
import type { GearKind } from './brands.kinds.js';
import { brands, type BrandRow } from './brands.tables.js';

/** SQL of the brands module; no rules. */

export interface BrandFilter {
  q?: string | undefined;
  country?: string | undefined;
  kind?: GearKind | undefined;
  status?: 'active' | 'inactive' | 'all' | undefined;
}

export async function listBrands(db: DbOrTx, filter: BrandFilter, page: Page): Promise<{ items: BrandRow[]; total: number }> {
  const q = filter.q ? normaliseQuery(filter.q) : undefined;
  const where: SQL[] = [];
  const status = filter.status ?? 'active';
  if (status !== 'all') where.push(eq(brands.isActive, status === 'active'));
  if (q) where.push(trigramMatch(sql`lower(${brands.name})`, q));
  if (filter.country) where.push(eq(brands.country, filter.country.toUpperCase()));
  if (filter.kind) where.push(sql`${brands.gearKinds} @> ARRAY[${filter.kind}]::text[]`);
  const condition = and(...where);
  const run = async (tx: DbOrTx) => {
    const orderBy = q ? [...trigramRank(brands.name, sql`lower(${brands.name})`, q), asc(brands.name), asc(brands.id)] : [asc(brands.name), asc(brands.id)];
    const items = await tx
      .select()
      .from(brands)
      .where(condition)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset);
    const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(brands).where(condition);
    return { items, total: count?.n ?? 0 };
  };
  return q ? withSearchThreshold(db, run) : run(db);
}

export async function findBrand(db: DbOrTx, id: string): Promise<BrandRow | undefined> {
  const [row] = await db.select().from(brands).where(eq(brands.id, id));
  return row;
}

export async function lockBrand(db: DbOrTx, id: string): Promise<BrandRow | undefined> {
  const [row] = await db.select().from(brands).where(eq(brands.id, id)).for('update');
  return row;
}

export async function findBrandByName(db: DbOrTx, name: string): Promise<BrandRow | undefined> {
  const [row] = await db
    .select()
    .from(brands)
    .where(sql`lower(${brands.name}) = ${name.toLowerCase()}`);
  return row;
}

export async function brandsByIds(db: DbOrTx, ids: string[]): Promise<BrandRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(brands).where(inArray(brands.id, ids));
}

export async function insertBrand(db: DbOrTx, row: typeof brands.$inferInsert): Promise<BrandRow> {
  const [inserted] = await db.insert(brands).values(row).returning();
  return inserted!;
}

export async function updateBrand(db: DbOrTx, id: string, changes: Partial<typeof brands.$inferInsert>): Promise<BrandRow> {
  const [updated] = await db
    .update(brands)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(brands.id, id))
    .returning();
  return updated!;
}
