import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import type { LifecycleValues } from '../../core/admin/lifecycle.js';
import type { Page } from '../../core/http/pagination.js';
import { lookupValues, type LookupValueRow } from './lookups.tables.js';

export interface ValueFilters {
  category?: string | undefined;
  active?: boolean | undefined;
  q?: string | undefined;
}

function where(filters: ValueFilters): SQL | undefined {
  const parts: SQL[] = [];
  if (filters.category) parts.push(eq(lookupValues.category, filters.category));
  if (filters.active !== undefined) parts.push(eq(lookupValues.isActive, filters.active));
  if (filters.q) {
    const pattern = `%${filters.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(or(ilike(lookupValues.code, pattern), ilike(lookupValues.label, pattern))!);
  }
  return parts.length ? and(...parts) : undefined;
}

const order = [asc(lookupValues.category), asc(lookupValues.sortOrder), asc(lookupValues.code)];

export async function list(db: DbOrTx, filters: ValueFilters, page: Page): Promise<{ items: LookupValueRow[]; total: number }> {
  const condition = where(filters);
  const [items, [total]] = await Promise.all([
    db.select().from(lookupValues).where(condition).orderBy(...order).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(lookupValues).where(condition),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** Every value of every category (a few hundred rows at most): what the cache holds. */
export async function allValues(db: DbOrTx): Promise<LookupValueRow[]> {
  return db.select().from(lookupValues).orderBy(...order);
}

export async function categories(db: DbOrTx): Promise<Array<{ category: string; values: number; active: number }>> {
  return db
    .select({ category: lookupValues.category, values: sql<number>`count(*)::int`, active: sql<number>`count(*) FILTER (WHERE ${lookupValues.isActive})::int` })
    .from(lookupValues)
    .groupBy(lookupValues.category)
    .orderBy(asc(lookupValues.category));
}

export async function find(db: DbOrTx, id: string, lock = false): Promise<LookupValueRow | undefined> {
  const query = db.select().from(lookupValues).where(eq(lookupValues.id, id));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

/** Inserts unless the category already has the code (then `undefined`: the unique key decides under concurrency). */
export async function insert(db: DbOrTx, values: typeof lookupValues.$inferInsert): Promise<LookupValueRow | undefined> {
  const [row] = await db.insert(lookupValues).values(values).onConflictDoNothing({ target: [lookupValues.category, lookupValues.code] }).returning();
  return row;
}

export async function update(db: DbOrTx, id: string, values: Partial<typeof lookupValues.$inferInsert> | (LifecycleValues & { updatedBy: string | null })): Promise<LookupValueRow> {
  const [row] = await db.update(lookupValues).set({ ...values, updatedAt: new Date() }).where(eq(lookupValues.id, id)).returning();
  return row!;
}
