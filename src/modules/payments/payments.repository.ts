import { and, asc, count, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { paymentRefunds, payments, paymentWebhookEvents, type PaymentKind, type PaymentRow, type PaymentStatus, type ProviderName, type RefundRow } from './payments.tables.js';

export async function insertPayment(db: DbOrTx, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  const [row] = await db.insert(payments).values(values).returning();
  return row!;
}

export async function updatePayment(db: DbOrTx, id: string, values: Partial<typeof payments.$inferInsert>): Promise<PaymentRow> {
  const [row] = await db
    .update(payments)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(payments.id, id))
    .returning();
  return row!;
}

export async function findPayment(db: DbOrTx, id: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

export async function lockPayment(db: DbOrTx, id: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).for('update');
  return row;
}

export async function findPaymentByRef(db: DbOrTx, provider: ProviderName, ref: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(and(eq(payments.provider, provider), eq(payments.providerRef, ref))).for('update');
  return row;
}

export async function insertRefund(db: DbOrTx, values: typeof paymentRefunds.$inferInsert): Promise<RefundRow> {
  const [row] = await db.insert(paymentRefunds).values(values).returning();
  return row!;
}

export async function updateRefund(db: DbOrTx, id: string, values: Partial<typeof paymentRefunds.$inferInsert>): Promise<RefundRow> {
  const [row] = await db
    .update(paymentRefunds)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(paymentRefunds.id, id))
    .returning();
  return row!;
}

export async function lockRefundByRef(db: DbOrTx, ref: string): Promise<RefundRow | undefined> {
  const [row] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.providerRef, ref)).for('update');
  return row;
}

export async function refundsOf(db: DbOrTx, paymentIds: string[]): Promise<RefundRow[]> {
  if (paymentIds.length === 0) return [];
  return db.select().from(paymentRefunds).where(inArray(paymentRefunds.paymentId, paymentIds)).orderBy(asc(paymentRefunds.createdAt), asc(paymentRefunds.id));
}

export interface PaymentFilter {
  status?: PaymentStatus | undefined;
  kind?: PaymentKind | undefined;
  userId?: string | undefined;
  relatedType?: string | undefined;
  relatedId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  minAmountCents?: number | undefined;
  maxAmountCents?: number | undefined;
  currency?: string | undefined;
}

export async function listPayments(db: DbOrTx, filter: PaymentFilter, page: Page) {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(payments.status, filter.status));
  if (filter.kind) where.push(eq(payments.kind, filter.kind));
  if (filter.userId) where.push(eq(payments.payerId, filter.userId));
  if (filter.relatedType) where.push(eq(payments.relatedType, filter.relatedType));
  if (filter.relatedId) where.push(eq(payments.relatedId, filter.relatedId));
  if (filter.from) where.push(gte(payments.createdAt, new Date(filter.from)));
  if (filter.to) where.push(lt(payments.createdAt, new Date(filter.to)));
  if (filter.minAmountCents !== undefined) where.push(gte(payments.amountCents, filter.minAmountCents));
  if (filter.maxAmountCents !== undefined) where.push(lte(payments.amountCents, filter.maxAmountCents));
  if (filter.currency) where.push(eq(payments.currency, filter.currency.toUpperCase()));
  const condition = where.length > 0 ? and(...where) : undefined;
  const [items, [total]] = await Promise.all([
    db.select().from(payments).where(condition).orderBy(desc(payments.createdAt), desc(payments.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(payments).where(condition),
  ]);
  return { items, total: total?.n ?? 0 };
}

export interface RevenueRow {
  period: Date;
  kind: PaymentKind;
  currency: string;
  payments: number;
  grossCents: number;
  refundedCents: number;
}

export async function revenue(db: DbOrTx, from: Date, to: Date, interval: 'day' | 'week' | 'month', kind: PaymentKind | undefined): Promise<RevenueRow[]> {
  const period = sql`date_trunc(${interval}, ${payments.createdAt} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  const rows = await db
    .select({
      period: sql<Date>`${period}`.mapWith((v: string | Date) => new Date(v)),
      kind: payments.kind,
      currency: payments.currency,
      payments: sql<number>`count(*)::int`,
      grossCents: sql<number>`sum(${payments.amountCents})::bigint`.mapWith(Number),
      refundedCents: sql<number>`sum(${payments.refundedCents})::bigint`.mapWith(Number),
    })
    .from(payments)
    .where(
      and(
        inArray(payments.status, ['Succeeded', 'PartiallyRefunded', 'Refunded']),
        gte(payments.createdAt, from),
        lt(payments.createdAt, to),
        kind ? eq(payments.kind, kind) : undefined,
      ),
    )
    .groupBy(sql`1`, payments.kind, payments.currency)
    .orderBy(sql`1`, payments.kind, payments.currency);
  return rows;
}

/** Records a provider event id; false when it was already processed. */
export async function recordWebhookEvent(db: DbOrTx, provider: ProviderName, id: string, type: string): Promise<boolean> {
  const rows = await db.insert(paymentWebhookEvents).values({ id, provider, type }).onConflictDoNothing().returning({ id: paymentWebhookEvents.id });
  return rows.length === 1;
}
