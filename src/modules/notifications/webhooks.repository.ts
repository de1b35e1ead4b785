import { and, arrayContains, count, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import type { LifecycleValues } from '../../core/admin/lifecycle.js';
import { webhookDeliveries, webhookEndpoints } from './notifications.tables.js';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export async function insertEndpoint(db: DbOrTx, row: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
  const [inserted] = await db.insert(webhookEndpoints).values(row).returning();
  return inserted!;
}

export async function findEndpoint(db: DbOrTx, id: string, lock = false): Promise<EndpointRow | undefined> {
  const query = db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function setEndpointActive(db: DbOrTx, id: string, values: LifecycleValues): Promise<void> {
  await db.update(webhookEndpoints).set({ ...values, updatedAt: sql`now()` }).where(eq(webhookEndpoints.id, id));
}

export async function listEndpoints(db: DbOrTx, filter: { active?: boolean | undefined }, page: Page) {
  const where = filter.active === undefined ? undefined : eq(webhookEndpoints.isActive, filter.active);
  const [items, [total]] = await Promise.all([
    db.select().from(webhookEndpoints).where(where).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(webhookEndpoints).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** Active endpoints subscribed to `type`. */
export async function endpointsFor(db: DbOrTx, type: string): Promise<EndpointRow[]> {
  return db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.isActive, true), arrayContains(webhookEndpoints.eventTypes, [type])));
}

export async function insertDeliveries(db: DbOrTx, rows: Array<typeof webhookDeliveries.$inferInsert>): Promise<void> {
  if (rows.length > 0) await db.insert(webhookDeliveries).values(rows);
}

export async function findDelivery(db: DbOrTx, id: string): Promise<DeliveryRow | undefined> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

export async function recordAttempt(db: DbOrTx, id: string, values: Pick<DeliveryRow, 'status' | 'responseStatus' | 'responseBody' | 'error'>): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ ...values, attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: sql`now()` })
    .where(eq(webhookDeliveries.id, id));
}

/** Puts a Failed delivery of `endpointId` back to Pending (its attempts kept); false when it is not one (missing, another endpoint's, or not Failed). */
export async function requeueFailedDelivery(db: DbOrTx, endpointId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: 'Pending' })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'Failed')))
    .returning({ id: webhookDeliveries.id });
  return rows.length === 1;
}

export async function listDeliveries(db: DbOrTx, endpointId: string, filter: { status?: DeliveryRow['status'] | undefined }, page: Page) {
  const where = and(eq(webhookDeliveries.endpointId, endpointId), filter.status ? eq(webhookDeliveries.status, filter.status) : undefined);
  const [items, [total]] = await Promise.all([
    db.select().from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}
