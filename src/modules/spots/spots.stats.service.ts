import type { ServiceDeps } from '../../core/service-deps.js';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { spotConfirmations, spotRatings, spots } from './spots.tables.js';

/**
 * The spots with the most activity in [from, to): ratings given plus confirmations (views of spots
 * are not tracked). Active spots only; no coordinates (private spots are blurred for others).
 */
export async function mostActiveSpots(deps: ServiceDeps<DbOrTx>, from: Date, to: Date, limit: number) {
  const { db } = deps;
  const result = await db.execute<{ spotId: string; name: string; kind: string; ratings: number; confirmations: number; activity: number }>(sql`
    WITH activity AS (
      SELECT ${spotRatings.spotId} AS spot_id, 1 AS rating, 0 AS confirmation FROM ${spotRatings} WHERE ${spotRatings.updatedAt} >= ${from} AND ${spotRatings.updatedAt} < ${to}
      UNION ALL
      SELECT ${spotConfirmations.spotId}, 0, 1 FROM ${spotConfirmations} WHERE ${spotConfirmations.createdAt} >= ${from} AND ${spotConfirmations.createdAt} < ${to}
    )
    SELECT s.id AS "spotId", s.name, s.kind, sum(a.rating)::int AS ratings, sum(a.confirmation)::int AS confirmations, count(*)::int AS activity
    FROM activity a JOIN ${spots} s ON s.id = a.spot_id
    WHERE s.is_active
    GROUP BY s.id, s.name, s.kind
    ORDER BY activity DESC, s.id
    LIMIT ${limit}`);
  return result.rows;
}
