import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { mailboxMessages } from './notifications.tables.js';
import type { DbOrTx } from '../../core/db/client.js';
import { afterKeySql, feedKeySql } from '../../core/db/keyset.js';
import type { FeedPage } from '../../core/http/pagination.js';
import { users } from '../users/index.js';
import { notificationEvents, notificationPreferences, notifications, type NotificationChannel } from '../../core/notifications/notifications.tables.js';

export type NotificationRow = typeof notifications.$inferSelect;

/** Notifications of a type the recipient turned off in-app are kept (e-mail may still go) but not shown. */
const shownInApp = sql`NOT EXISTS (SELECT 1 FROM ${notificationPreferences} p WHERE p.user_id = ${notifications.recipientId} AND p.type = ${notifications.type} AND p.channel = 'inApp' AND NOT p.enabled)`;

export async function listFor(db: DbOrTx, recipientId: string, unread: boolean, page: FeedPage) {
  const where: Array<SQL | undefined> = [eq(notifications.recipientId, recipientId), afterKeySql(notifications.createdAt, notifications.id, page.after), shownInApp];
  if (unread) where.push(isNull(notifications.readAt));
  return db
    .select({ row: notifications, key: feedKeySql(notifications.createdAt) })
    .from(notifications)
    .where(and(...where))
    .orderBy(sql`${notifications.createdAt} DESC NULLS LAST`, sql`${notifications.id} DESC NULLS LAST`)
    .limit(page.limit)
    .offset(page.offset);
}

export async function unreadCount(db: DbOrTx, recipientId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(notifications).where(and(eq(notifications.recipientId, recipientId), isNull(notifications.readAt), shownInApp));
  return row?.n ?? 0;
}

export async function find(db: DbOrTx, id: string): Promise<NotificationRow | undefined> {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, id));
  return row;
}

/** Marks read (keeps the first read time). */
export async function markRead(db: DbOrTx, id: string): Promise<NotificationRow> {
  const [row] = await db.update(notifications).set({ readAt: sql`coalesce(${notifications.readAt}, now())` }).where(eq(notifications.id, id)).returning();
  return row!;
}

export async function markAllRead(db: DbOrTx, recipientId: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.recipientId, recipientId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}


export async function preferencesOf(db: DbOrTx, userId: string): Promise<Array<{ type: string; channel: NotificationChannel; enabled: boolean }>> {
  return db.select({ type: notificationPreferences.type, channel: notificationPreferences.channel, enabled: notificationPreferences.enabled }).from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
}

export async function setPreferences(db: DbOrTx, userId: string, rows: Array<{ type: string; channel: NotificationChannel; enabled: boolean }>): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(notificationPreferences)
    .values(rows.map((row) => ({ userId, ...row })))
    .onConflictDoUpdate({ target: [notificationPreferences.userId, notificationPreferences.type, notificationPreferences.channel], set: { enabled: sql`excluded.enabled`, updatedAt: sql`now()` } });
}

// Dispatch (the outbox's worker)

/** Claims up to `limit` undispatched events (skipping those another dispatcher holds). */
export async function claimEvents(tx: DbOrTx, limit: number) {
  return tx
    .select({ id: notificationEvents.id, type: notificationEvents.type, path: notificationEvents.path, payload: notificationEvents.payload, createdAt: notificationEvents.createdAt })
    .from(notificationEvents)
    .where(isNull(notificationEvents.dispatchedAt))
    .orderBy(asc(notificationEvents.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function notificationsOfEvents(tx: DbOrTx, eventIds: string[]) {
  return tx.select({ id: notifications.id, type: notifications.type }).from(notifications).where(inArray(notifications.eventId, eventIds));
}

export async function markDispatched(tx: DbOrTx, eventIds: string[]): Promise<void> {
  await tx.update(notificationEvents).set({ dispatchedAt: sql`now()` }).where(inArray(notificationEvents.id, eventIds));
}

/**
 * What the mail of a notification needs, in one statement: the notification, its recipient's
 * address, and whether they turned the e-mail of its type off.
 */
export async function mailTarget(db: DbOrTx, id: string) {
  const [row] = await db
    .select({
      note: notifications,
      email: users.email,
      emailOff: sql<boolean>`coalesce(${notificationPreferences.enabled} = false, false)`,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.recipientId))
    .leftJoin(
      notificationPreferences,
      and(eq(notificationPreferences.userId, notifications.recipientId), eq(notificationPreferences.type, notifications.type), eq(notificationPreferences.channel, 'email')),
    )
    .where(eq(notifications.id, id));
  return row;
}

export async function mailboxList(db: DbOrTx, limit: number) {
  return db
    .select({ id: mailboxMessages.id, createdAt: mailboxMessages.createdAt, to: mailboxMessages.to, subject: mailboxMessages.subject })
    .from(mailboxMessages)
    .orderBy(desc(mailboxMessages.createdAt), desc(mailboxMessages.id))
    .limit(limit);
}

export async function mailboxMessage(db: DbOrTx, id: string) {
  const [row] = await db.select().from(mailboxMessages).where(eq(mailboxMessages.id, id));
  return row;
}
