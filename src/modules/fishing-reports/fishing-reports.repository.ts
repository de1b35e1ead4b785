import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { ownerShown } from '../../core/access/visibility.js';
import type { DbOrTx } from '../../core/db/client.js';
import { distanceFrom, withinRadius, type Near } from '../../core/db/geo.js';
import type { Page } from '../../core/http/pagination.js';
import type { ContentStatus } from '../moderation/index.js';
import { users } from '../users/index.js';
import { fishingReportHelpful, fishingReports, type FishingReportRow } from './fishing-reports.tables.js';

export type ReportWithAuthor = FishingReportRow & { authorUsername: string };

const selection = { report: fishingReports, authorUsername: users.username };
const flatten = (row: { report: FishingReportRow; authorUsername: string }): ReportWithAuthor => ({ ...row.report, authorUsername: row.authorUsername });

export async function insertReport(db: DbOrTx, row: typeof fishingReports.$inferInsert): Promise<FishingReportRow> {
  const [inserted] = await db.insert(fishingReports).values(row).returning();
  return inserted!;
}

export async function findReport(db: DbOrTx, id: string, options: { lock?: boolean } = {}): Promise<ReportWithAuthor | undefined> {
  const query = db.select(selection).from(fishingReports).innerJoin(users, eq(users.id, fishingReports.authorId)).where(eq(fishingReports.id, id));
  const [row] = options.lock ? await query.for('update', { of: fishingReports }) : await query;
  return row ? flatten(row) : undefined;
}

/** Published reports within the radius of their shown location, newest first. */
export async function reportsNear(db: DbOrTx, near: Near, filter: { speciesId?: string | undefined }, page: Page) {
  const conditions: SQL[] = [eq(fishingReports.status, 'Published'), ownerShown(fishingReports.authorId), withinRadius(fishingReports.publicLat, fishingReports.publicLon, near)];
  if (filter.speciesId) conditions.push(sql`${fishingReports.species} @> ${JSON.stringify([{ speciesId: filter.speciesId }])}::jsonb`);
  const where = and(...conditions);
  const [rows, [count]] = await Promise.all([
    db
      .select({ ...selection, distanceM: distanceFrom(fishingReports.publicLat, fishingReports.publicLon, near) })
      .from(fishingReports)
      .innerJoin(users, eq(users.id, fishingReports.authorId))
      .where(where)
      .orderBy(desc(fishingReports.fishedOn), desc(fishingReports.createdAt), desc(fishingReports.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(fishingReports).where(where),
  ]);
  return { items: rows.map((r) => ({ ...flatten(r), distanceM: Number(r.distanceM) })), total: count?.n ?? 0 };
}

export async function reportsByStatus(db: DbOrTx, status: ContentStatus, page: Page) {
  const where = eq(fishingReports.status, status);
  const [rows, [count]] = await Promise.all([
    db.select(selection).from(fishingReports).innerJoin(users, eq(users.id, fishingReports.authorId)).where(where).orderBy(fishingReports.createdAt, fishingReports.id).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(fishingReports).where(where),
  ]);
  return { items: rows.map(flatten), total: count?.n ?? 0 };
}

export async function setStatus(db: DbOrTx, id: string, status: ContentStatus, reason: string | null): Promise<void> {
  await db.update(fishingReports).set({ status, moderationReason: reason, moderatedAt: new Date(), updatedAt: new Date() }).where(eq(fishingReports.id, id));
}

/** Which of the reports the user marked helpful. */
export async function markedBy(db: DbOrTx, userId: string, reportIds: string[]): Promise<Set<string>> {
  if (reportIds.length === 0) return new Set();
  const rows = await db
    .select({ id: fishingReportHelpful.reportId })
    .from(fishingReportHelpful)
    .where(and(eq(fishingReportHelpful.userId, userId), sql`${fishingReportHelpful.reportId} = ANY(${`{${reportIds.join(',')}}`}::uuid[])`));
  return new Set(rows.map((r) => r.id));
}

/** Adds or removes the mark and keeps the count in step; false when there was nothing to change. */
export async function setHelpful(db: DbOrTx, reportId: string, userId: string, helpful: boolean): Promise<{ changed: boolean; helpfulCount: number }> {
  const changed = helpful
    ? (await db.insert(fishingReportHelpful).values({ reportId, userId }).onConflictDoNothing().returning()).length > 0
    : (await db.delete(fishingReportHelpful).where(and(eq(fishingReportHelpful.reportId, reportId), eq(fishingReportHelpful.userId, userId))).returning()).length > 0;
  const [row] = await db
    .update(fishingReports)
    .set({ helpfulCount: changed ? sql`${fishingReports.helpfulCount} + ${helpful ? 1 : -1}` : fishingReports.helpfulCount })
    .where(eq(fishingReports.id, reportId))
    .returning({ helpfulCount: fishingReports.helpfulCount });
  return { changed, helpfulCount: row!.helpfulCount };
}

/** Reports per value of a lookup-backed condition (`clarity` or `sky`), for the lookups' usage statistics. */
export async function countByCondition(db: DbOrTx, field: 'clarity' | 'sky', codes: readonly string[]): Promise<Map<string, number>> {
  const column = fishingReports[field];
  const rows = await db
    .select({ code: column, n: sql<number>`count(*)::int` })
    .from(fishingReports)
    .where(sql`${column} = ANY(${sql.param([...codes])}::text[])`)
    .groupBy(column);
  return new Map(rows.map((r) => [r.code!, r.n]));
}
