import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { uuidv7 } from '../../core/db/ids.js';
import type { DbOrTx } from '../../core/db/client.js';
import { users } from '../users/index.js';
import { userReports, type ReportResolution, type ReportStatus, type ReportTargetType, type UserReportRow } from './content-reports.tables.js';

/** SQL of user reports. */

/** Inserts the report; undefined when the reporter already has an open one about the target. */
export async function insertReport(db: DbOrTx, row: Omit<typeof userReports.$inferInsert, 'id'>): Promise<UserReportRow | undefined> {
  const [inserted] = await db
    .insert(userReports)
    .values({ id: uuidv7(), ...row })
    .onConflictDoNothing({ target: [userReports.reporterId, userReports.targetType, userReports.targetId], where: sql`status = 'Open'` })
    .returning();
  return inserted;
}

const reporter = alias(users, 'reporter');
const targetUser = alias(users, 'target_user');
const resolver = alias(users, 'resolver');

export interface ReportWithUsers extends UserReportRow {
  reporterUsername: string;
  targetUsername: string | null;
  resolverUsername: string | null;
}

function selectWithUsers(db: DbOrTx) {
  return db
    .select({
      report: userReports,
      reporterUsername: reporter.username,
      targetUsername: targetUser.username,
      resolverUsername: resolver.username,
    })
    .from(userReports)
    .innerJoin(reporter, eq(reporter.id, userReports.reporterId))
    .leftJoin(targetUser, eq(targetUser.id, userReports.targetUserId))
    .leftJoin(resolver, eq(resolver.id, userReports.resolvedBy));
}

type Joined = { report: UserReportRow; reporterUsername: string; targetUsername: string | null; resolverUsername: string | null };
const flatten = (r: Joined): ReportWithUsers => ({ ...r.report, reporterUsername: r.reporterUsername, targetUsername: r.targetUsername, resolverUsername: r.resolverUsername });

export interface ReportFilter {
  status?: ReportStatus | undefined;
  targetType?: ReportTargetType | undefined;
  targetId?: string | undefined;
}

/** Oldest first: the order in which they came in. */
export async function listReports(db: DbOrTx, filter: ReportFilter, page: { limit: number; offset: number }): Promise<{ items: ReportWithUsers[]; total: number }> {
  const where = and(
    filter.status === undefined ? undefined : eq(userReports.status, filter.status),
    filter.targetType === undefined ? undefined : eq(userReports.targetType, filter.targetType),
    filter.targetId === undefined ? undefined : eq(userReports.targetId, filter.targetId),
  );
  const [items, [count]] = await Promise.all([
    selectWithUsers(db).where(where).orderBy(asc(userReports.createdAt), asc(userReports.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(userReports).where(where),
  ]);
  return { items: items.map(flatten), total: count?.n ?? 0 };
}

export async function findReport(db: DbOrTx, id: string): Promise<ReportWithUsers | undefined> {
  const [row] = await selectWithUsers(db).where(eq(userReports.id, id));
  return row ? flatten(row) : undefined;
}

export async function lockReport(db: DbOrTx, id: string): Promise<UserReportRow | undefined> {
  const [row] = await db.select().from(userReports).where(eq(userReports.id, id)).for('update');
  return row;
}

export async function resolve(db: DbOrTx, id: string, values: { resolution: ReportResolution; resolutionNote: string | null; resolvedBy: string }): Promise<void> {
  await db
    .update(userReports)
    .set({ ...values, status: 'Resolved', resolvedAt: new Date() })
    .where(eq(userReports.id, id));
}
