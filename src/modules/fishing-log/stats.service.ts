import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { catches, logEntries } from './fishing-log.tables.js';

/**
 * The fishing log's figures for the administration (user details, activity timeline, dashboard):
 * counts and ids/titles only, never notes, locations or other private content.
 */

/** A user's entries and catches (one query). */
export async function logCountsOfUser(db: DbOrTx, userId: string): Promise<{ entries: number; catches: number }> {
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
