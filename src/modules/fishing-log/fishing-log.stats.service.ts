import type { ServiceDeps } from '../../core/service-deps.js';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { fishSpecies } from '../species/index.js';
import { catches, logEntries } from './fishing-log.tables.js';

/**
 * The fishing log's figures for the administration (user details, activity timeline, dashboard):
 * counts and ids/titles only, never notes, locations or other private content.
 */

/** A user's entries and catches (one query). */
export async function logCountsOfUser(deps: ServiceDeps<DbOrTx>, userId: string): Promise<{ entries: number; catches: number }> {
  const { db } = deps;
  const result = await db.execute<{ entries: number; catches: number }>(sql`
    SELECT (SELECT count(*) FROM ${logEntries} WHERE ${logEntries.ownerId} = ${userId})::int AS entries,
           (SELECT count(*) FROM ${catches} WHERE ${catches.ownerId} = ${userId})::int AS catches`);
  return result.rows[0]!;
}

/**
 * The user's entries and catches as activity-timeline rows (`at`, `kind`, `id`, `title`, `detail`),
 * for the users module to merge: entry titles, the species id of catches.
 */
export function logTimelineSql(userId: string): SQL[] {
  return [
    sql`SELECT ${logEntries.createdAt} AS at, 'entry'::text AS kind, ${logEntries.id}::text AS id, ${logEntries.title} AS title, ${logEntries.visibility}::text AS detail
        FROM ${logEntries} WHERE ${logEntries.ownerId} = ${userId}`,
    sql`SELECT ${catches.createdAt} AS at, 'catch'::text AS kind, ${catches.id}::text AS id, NULL::text AS title, 'entry ' || ${catches.entryId}::text AS detail
        FROM ${catches} WHERE ${catches.ownerId} = ${userId}`,
  ];
}

/** Totals and the last 7 and 30 days (by when rows were logged) before `now`. */
export type Delta = { total: number; last7Days: number; last30Days: number };

const delta = (column: SQL, table: SQL, now: Date) => sql`
  SELECT count(*)::int AS total,
         (count(*) FILTER (WHERE ${column} >= ${new Date(now.getTime() - 7 * 86_400_000)} AND ${column} < ${now}))::int AS "last7Days",
         (count(*) FILTER (WHERE ${column} >= ${new Date(now.getTime() - 30 * 86_400_000)} AND ${column} < ${now}))::int AS "last30Days"
  FROM ${table}`;

/** Entries and catches: totals and the last 7/30 days (dashboard). */
export async function logOverview(deps: ServiceDeps<DbOrTx>, now: Date): Promise<{ entries: Delta; catches: Delta }> {
  const { db } = deps;
  const [entries, caught] = await Promise.all([
    db.execute<Delta>(delta(sql`${logEntries.createdAt}`, sql`${logEntries}`, now)),
    db.execute<Delta>(delta(sql`${catches.createdAt}`, sql`${catches}`, now)),
  ]);
  return { entries: entries.rows[0]!, catches: caught.rows[0]! };
}

/** The species most logged in [from, to): catches (fish counted), anglers. */
export async function mostLoggedSpecies(deps: ServiceDeps<DbOrTx>, from: Date, to: Date, limit: number) {
  const { db } = deps;
  const result = await db.execute<{ speciesId: string; commonName: string | null; catches: number; fish: number; anglers: number }>(sql`
    SELECT c.species_id AS "speciesId", s.common_name AS "commonName", count(*)::int AS catches, sum(c.count)::int AS fish, count(DISTINCT c.owner_id)::int AS anglers
    FROM ${catches} c JOIN ${fishSpecies} s ON s.id = c.species_id
    WHERE c.created_at >= ${from} AND c.created_at < ${to}
    GROUP BY c.species_id, s.common_name
    ORDER BY catches DESC, fish DESC, c.species_id
    LIMIT ${limit}`);
  return result.rows;
}
