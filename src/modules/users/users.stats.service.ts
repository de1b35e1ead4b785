import type { ServiceDeps } from '../../core/service-deps.js';
import { sql } from 'drizzle-orm';
import { ROLES, roleName, type RoleName } from '../../core/access/roles.js';
import type { DbOrTx } from '../../core/db/client.js';
import { countBansInForce } from './bans.service.js';
import { userSignIns, users } from './users.tables.js';

/** The users module's figures for the dashboard: users by role, new and active users, bans in force. */

export type Interval = 'day' | 'week' | 'month';

export async function usersOverview(deps: ServiceDeps<DbOrTx>, now: Date) {
  const { db } = deps;
  const d7 = new Date(now.getTime() - 7 * 86_400_000);
  const d30 = new Date(now.getTime() - 30 * 86_400_000);
  const [byRole, counts, activeBans] = await Promise.all([
    db.execute<{ role: number; n: number }>(sql`SELECT ${users.role} AS role, count(*)::int AS n FROM ${users} GROUP BY 1`),
    db.execute<{ total: number; new7: number; new30: number; active7: number; active30: number }>(sql`
      SELECT (SELECT count(*) FROM ${users})::int AS total,
             (SELECT count(*) FROM ${users} WHERE ${users.createdAt} >= ${d7} AND ${users.createdAt} < ${now})::int AS new7,
             (SELECT count(*) FROM ${users} WHERE ${users.createdAt} >= ${d30} AND ${users.createdAt} < ${now})::int AS new30,
             (SELECT count(DISTINCT ${userSignIns.userId}) FROM ${userSignIns} WHERE ${userSignIns.signedInAt} >= ${d7} AND ${userSignIns.signedInAt} < ${now})::int AS active7,
             (SELECT count(DISTINCT ${userSignIns.userId}) FROM ${userSignIns} WHERE ${userSignIns.signedInAt} >= ${d30} AND ${userSignIns.signedInAt} < ${now})::int AS active30`),
    countBansInForce(deps, now),
  ]);
  const roles = Object.fromEntries(ROLES.map((r) => [r, 0])) as Record<RoleName, number>;
  for (const row of byRole.rows) roles[roleName(row.role)] = row.n;
  const c = counts.rows[0]!;
  return {
    total: c.total,
    last7Days: c.new7,
    last30Days: c.new30,
    byRole: roles,
    activeLast7Days: c.active7,
    activeLast30Days: c.active30,
    activeBans,
  };
}

/**
 * New users (created) and active users (signed in at least once) per UTC day, ISO week or month
 * from the period holding `from` to the one holding `to` (exclusive), every period present
 * (generate_series: periods without activity are zeros).
 */
export async function userGrowth(deps: ServiceDeps<DbOrTx>, from: Date, to: Date, interval: Interval) {
  const { db } = deps;
  const step = sql`${`1 ${interval}`}::interval`;
  const result = await db.execute<{ periodStart: string | Date; newUsers: number; activeUsers: number }>(sql`
    WITH periods AS (
      SELECT p AT TIME ZONE 'UTC' AS starts, (p + ${step}) AT TIME ZONE 'UTC' AS ends
      FROM generate_series(date_trunc(${interval}, ${from}::timestamptz AT TIME ZONE 'UTC'), ${to}::timestamptz AT TIME ZONE 'UTC' - interval '1 microsecond', ${step}) AS p
    )
    SELECT periods.starts AS "periodStart",
      (SELECT count(*) FROM ${users} u WHERE u.created_at >= greatest(periods.starts, ${from}::timestamptz) AND u.created_at < least(periods.ends, ${to}::timestamptz))::int AS "newUsers",
      (SELECT count(DISTINCT s.user_id) FROM ${userSignIns} s
        WHERE s.signed_in_at >= greatest(periods.starts, ${from}::timestamptz) AND s.signed_in_at < least(periods.ends, ${to}::timestamptz))::int AS "activeUsers"
    FROM periods ORDER BY periods.starts`);
  return result.rows.map((r) => ({ periodStart: new Date(r.periodStart).toISOString(), newUsers: r.newUsers, activeUsers: r.activeUsers }));
}

/** The users module's rows of a user's activity timeline (user details): sign-ins, bans issued and lifted, role changes. */
export { ownTimelineSql as usersTimelineSql } from './users.admin.repository.js';
