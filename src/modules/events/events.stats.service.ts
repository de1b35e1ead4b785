import type { ServiceDeps } from '../../core/service-deps.js';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { events } from './events.tables.js';

/** Events waiting for approval (dashboard). */
export async function pendingEvents(deps: ServiceDeps<DbOrTx>): Promise<number> {
  const { db } = deps;
  const result = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${events} WHERE ${events.status} = 'PendingApproval'`);
  return result.rows[0]?.n ?? 0;
}
