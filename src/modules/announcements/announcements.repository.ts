import { and, count, desc, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import type { AnnouncementStatus } from './announcements.schemas.js';
import { announcementDismissals, announcements, announcementVersions, type AnnouncementPriority, type AnnouncementRow, type AnnouncementType } from './announcements.tables.js';

const dismissedCount = sql<number>`(SELECT count(*)::int FROM ${announcementDismissals} WHERE ${announcementDismissals.announcementId} = ${announcements.id})`;

export type AnnouncementWithCount = AnnouncementRow & { dismissedCount: number };

/** Shown at `now`: active, started, not ended. */
function liveAt(now: Date): SQL {
  return and(eq(announcements.isActive, true), lte(announcements.startsAt, now), or(isNull(announcements.endsAt), gt(announcements.endsAt, now)))!;
}

function statusCondition(status: AnnouncementStatus, now: Date): SQL {
  switch (status) {
    case 'inactive':
      return eq(announcements.isActive, false);
    case 'scheduled':
      return and(eq(announcements.isActive, true), gt(announcements.startsAt, now))!;
    case 'active':
      return liveAt(now);
    case 'ended':
      return and(eq(announcements.isActive, true), lte(announcements.endsAt, now))!;
  }
}

export async function list(
  db: DbOrTx,
  filters: { status?: AnnouncementStatus | undefined; type?: AnnouncementType | undefined; priority?: AnnouncementPriority | undefined },
  page: Page,
  now: Date,
): Promise<{ items: AnnouncementWithCount[]; total: number }> {
  const where: SQL[] = [];
  if (filters.status) where.push(statusCondition(filters.status, now));
  if (filters.type) where.push(eq(announcements.type, filters.type));
  if (filters.priority) where.push(eq(announcements.priority, filters.priority));
  const [items, [total]] = await Promise.all([
    db
      .select({ row: announcements, dismissedCount })
      .from(announcements)
      .where(and(...where))
      .orderBy(desc(announcements.createdAt), desc(announcements.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(announcements).where(and(...where)),
  ]);
  return { items: items.map(({ row, dismissedCount: n }) => ({ ...row, dismissedCount: n })), total: total?.n ?? 0 };
}

export async function find(db: DbOrTx, id: string, lock = false): Promise<AnnouncementRow | undefined> {
  const query = db.select().from(announcements).where(eq(announcements.id, id));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

export async function findWithCount(db: DbOrTx, id: string): Promise<AnnouncementWithCount | undefined> {
  const [found] = await db.select({ row: announcements, dismissedCount }).from(announcements).where(eq(announcements.id, id));
  return found ? { ...found.row, dismissedCount: found.dismissedCount } : undefined;
}

export async function insert(db: DbOrTx, values: typeof announcements.$inferInsert): Promise<AnnouncementRow> {
  const [row] = await db.insert(announcements).values(values).returning();
  return row!;
}

export async function update(db: DbOrTx, id: string, values: Partial<typeof announcements.$inferInsert>): Promise<void> {
  await db
    .update(announcements)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(announcements.id, id));
}

export async function addVersion(db: DbOrTx, values: typeof announcementVersions.$inferInsert): Promise<void> {
  await db.insert(announcementVersions).values(values);
}

export async function versions(db: DbOrTx, id: string, page: Page) {
  const [items, [total]] = await Promise.all([
    db.select().from(announcementVersions).where(eq(announcementVersions.announcementId, id)).orderBy(desc(announcementVersions.version)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(announcementVersions).where(eq(announcementVersions.announcementId, id)),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** Targeted at the role (null target: everyone). */
function targets(role: string): SQL {
  return or(isNull(announcements.targetRoles), sql`${role} = ANY(${announcements.targetRoles})`)!;
}

/** What the user sees now: live, targeted at their role, not dismissed by them; highest priority, then newest. */
export async function forUser(db: DbOrTx, userId: string, role: string, now: Date, limit: number): Promise<AnnouncementRow[]> {
  return db
    .select()
    .from(announcements)
    .where(
      and(
        liveAt(now),
        targets(role),
        sql`NOT EXISTS (SELECT 1 FROM ${announcementDismissals} WHERE ${announcementDismissals.announcementId} = ${announcements.id} AND ${announcementDismissals.userId} = ${userId})`,
      ),
    )
    .orderBy(desc(announcements.priorityRank), desc(announcements.createdAt), desc(announcements.id))
    .limit(limit);
}

/** The announcement if it is shown to this role now (dismissed or not). */
export async function visibleTo(db: DbOrTx, id: string, role: string, now: Date): Promise<AnnouncementRow | undefined> {
  const [row] = await db
    .select()
    .from(announcements)
    .where(and(eq(announcements.id, id), liveAt(now), targets(role)));
  return row;
}

/** Records the dismissal once; a repeated or concurrent one changes nothing. */
export async function dismiss(db: DbOrTx, announcementId: string, userId: string): Promise<void> {
  await db.insert(announcementDismissals).values({ announcementId, userId }).onConflictDoNothing();
}
