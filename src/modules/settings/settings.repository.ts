import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { likeEscape } from '../../core/db/search.js';
import { systemSettingHistory, systemSettings, type SettingCategory, type SystemSettingRow } from './settings.tables.js';

/** Every process's settings cache listens on this channel; the payload is the setting's name. */
export const SETTINGS_CHANNEL = 'fishlog_settings';

export async function notifyChanged(tx: DbOrTx, name: string): Promise<void> {
  await tx.execute(sql`SELECT pg_notify(${SETTINGS_CHANNEL}, ${name})`);
}

export async function list(db: DbOrTx, filters: { category?: SettingCategory | undefined; status: 'Active' | 'Inactive' | 'All'; q?: string | undefined }, page: { limit: number; offset: number }) {
  const where: SQL[] = [];
  if (filters.category) where.push(eq(systemSettings.category, filters.category));
  if (filters.status !== 'All') where.push(eq(systemSettings.isActive, filters.status === 'Active'));
  if (filters.q) {
    const pattern = `%${likeEscape(filters.q)}%`;
    where.push(or(ilike(systemSettings.name, pattern), ilike(systemSettings.description, pattern))!);
  }
  const [items, [total]] = await Promise.all([
    db.select().from(systemSettings).where(and(...where)).orderBy(asc(systemSettings.category), asc(systemSettings.name)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(systemSettings).where(and(...where)),
  ]);
  return { items, total: total?.n ?? 0 };
}

export async function findByName(db: DbOrTx, name: string, lock = false): Promise<SystemSettingRow | undefined> {
  const query = db.select().from(systemSettings).where(eq(systemSettings.name, name));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

export async function allActive(db: DbOrTx): Promise<SystemSettingRow[]> {
  return db.select().from(systemSettings).where(eq(systemSettings.isActive, true));
}

export async function activeByNames(db: DbOrTx, names: readonly string[]): Promise<SystemSettingRow[]> {
  if (names.length === 0) return [];
  return db.select().from(systemSettings).where(and(eq(systemSettings.isActive, true), inArray(systemSettings.name, [...names])));
}

export async function insert(db: DbOrTx, values: typeof systemSettings.$inferInsert): Promise<SystemSettingRow | undefined> {
  const [row] = await db.insert(systemSettings).values(values).onConflictDoNothing({ target: systemSettings.name }).returning();
  return row;
}

export async function update(db: DbOrTx, id: string, values: Partial<typeof systemSettings.$inferInsert>): Promise<SystemSettingRow> {
  const [row] = await db
    .update(systemSettings)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(systemSettings.id, id))
    .returning();
  return row!;
}

export async function addHistory(db: DbOrTx, values: typeof systemSettingHistory.$inferInsert): Promise<void> {
  await db.insert(systemSettingHistory).values(values);
}

export async function history(db: DbOrTx, settingId: string, page: { limit: number; offset: number }) {
  const [items, [total]] = await Promise.all([
    db.select().from(systemSettingHistory).where(eq(systemSettingHistory.settingId, settingId)).orderBy(desc(systemSettingHistory.version), desc(systemSettingHistory.changedAt)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(systemSettingHistory).where(eq(systemSettingHistory.settingId, settingId)),
  ]);
  return { items, total: total?.n ?? 0 };
}
