import type { ServiceDeps } from '../../core/service-deps.js';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { fishingReportHelpful, fishingReports } from './fishing-reports.tables.js';

/** The fishing reports' figures for the dashboard (views are not tracked: helpful marks stand for interest). */

/** Reports held for a moderator. */
export async function pendingFishingReports(deps: ServiceDeps<DbOrTx>): Promise<number> {
  const { db } = deps;
  const result = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${fishingReports} WHERE ${fishingReports.status} = 'PendingReview'`);
  return result.rows[0]?.n ?? 0;
}

/** Published reports marked helpful most often in [from, to): ids, water body, counts; no text or position. */
export async function mostHelpfulReports(deps: ServiceDeps<DbOrTx>, from: Date, to: Date, limit: number) {
  const { db } = deps;
  const result = await db.execute<{ reportId: string; waterBody: string; fishedOn: string; helpfulMarks: number }>(sql`
    SELECT r.id AS "reportId", r.water_body AS "waterBody", r.fished_on::text AS "fishedOn", count(*)::int AS "helpfulMarks"
    FROM ${fishingReportHelpful} h JOIN ${fishingReports} r ON r.id = h.report_id
    WHERE h.created_at >= ${from} AND h.created_at < ${to} AND r.status = 'Published'
    GROUP BY r.id, r.water_body, r.fished_on
    ORDER BY "helpfulMarks" DESC, r.fished_on DESC, r.id
    LIMIT ${limit}`);
  return result.rows;
}
