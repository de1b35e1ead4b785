import type { ServiceDeps } from '../../core/service-deps.js';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { tournamentOrganizers, tournamentRegistrations, tournaments } from './tournaments.tables.js';

/** The tournaments module's figures for the dashboard. */

/** Tournaments waiting for approval and organizer applications waiting for verification. */
export async function pendingTournamentWork(deps: ServiceDeps<DbOrTx>): Promise<{ tournaments: number; organizerApplications: number }> {
  const { db } = deps;
  const result = await db.execute<{ tournaments: number; organizerApplications: number }>(sql`
    SELECT (SELECT count(*) FROM ${tournaments} WHERE ${tournaments.status} = 'PendingApproval')::int AS tournaments,
           (SELECT count(*) FROM ${tournamentOrganizers} WHERE ${tournamentOrganizers.status} = 'Pending')::int AS "organizerApplications"`);
  return result.rows[0]!;
}

/** The tournaments with the most registrations made in [from, to) (still active ones). */
export async function busiestTournaments(deps: ServiceDeps<DbOrTx>, from: Date, to: Date, limit: number) {
  const { db } = deps;
  const result = await db.execute<{ tournamentId: string; name: string; status: string; startsAt: string | Date; registrations: number }>(sql`
    SELECT t.id AS "tournamentId", t.name, t.status, t.starts_at AS "startsAt", count(*)::int AS registrations
    FROM ${tournamentRegistrations} r JOIN ${tournaments} t ON t.id = r.tournament_id
    WHERE r.created_at >= ${from} AND r.created_at < ${to} AND r.status = 'Active'
    GROUP BY t.id, t.name, t.status, t.starts_at
    ORDER BY registrations DESC, t.starts_at, t.id
    LIMIT ${limit}`);
  return result.rows.map((r) => ({ ...r, startsAt: new Date(r.startsAt).toISOString() }));
}
