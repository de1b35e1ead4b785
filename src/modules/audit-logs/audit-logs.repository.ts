import { and, count, desc, eq, gte, like, lt, sql, type SQL } from 'drizzle-orm';
import { settleAuditWriters } from '../../core/audit/audit.js';
import { auditLog, type AuditOutcome } from '../../core/audit/audit.tables.js';
import type { Db, DbOrTx } from '../../core/db/client.js';
import { likeEscape } from '../../core/db/search.js';
import { users } from '../users/index.js';

/** SQL of the audit-log reads. The table belongs to src/core/audit; this module only reads it. */

export interface AuditFilters {
  action?: string | undefined;
  actionPrefix?: string | undefined;
  actorId?: string | undefined;
  actorType?: 'user' | 'system' | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  outcome?: AuditOutcome | undefined;
  q?: string | undefined;
}

/** The reason's text-search vector: the expression of the GIN index audit_log_reason_fts_idx. */
const reasonVector = sql`to_tsvector('simple', coalesce(${auditLog.reason}, ''))`;

function conditions(filters: AuditFilters): SQL[] {
  const where: SQL[] = [];
  if (filters.action) where.push(eq(auditLog.action, filters.action));
  if (filters.actionPrefix) where.push(like(auditLog.action, `${likeEscape(filters.actionPrefix)}%`));
  if (filters.actorId) where.push(eq(auditLog.actorUserId, filters.actorId));
  if (filters.actorType) where.push(eq(auditLog.actorType, filters.actorType));
  if (filters.targetType) where.push(eq(auditLog.targetType, filters.targetType));
  if (filters.targetId) where.push(eq(auditLog.targetId, filters.targetId));
  if (filters.from) where.push(gte(auditLog.occurredAt, filters.from));
  if (filters.to) where.push(lt(auditLog.occurredAt, filters.to));
  if (filters.outcome) where.push(eq(auditLog.outcome, filters.outcome));
  if (filters.q) where.push(sql`${reasonVector} @@ websearch_to_tsquery('simple', ${filters.q})`);
  return where;
}

/** Newest first; `beforeId` is the keyset cursor (the last id of the previous page). */
export async function listEntries(db: DbOrTx, filters: AuditFilters, beforeId: number | undefined, limit: number) {
  const where = conditions(filters);
  if (beforeId !== undefined) where.push(lt(auditLog.id, beforeId));
  return db
    .select({ entry: auditLog, actorUsername: users.username })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}

export async function statistics(db: DbOrTx, from: Date, to: Date, top: number) {
  const inRange = and(gte(auditLog.occurredAt, from), lt(auditLog.occurredAt, to));
  const [[total], actors, actions, perDay] = await Promise.all([
    db.select({ n: count() }).from(auditLog).where(inRange),
    db
      .select({ userId: auditLog.actorUserId, username: users.username, role: users.role, count: count() })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorUserId))
      .where(and(inRange, sql`${auditLog.actorUserId} IS NOT NULL`))
      .groupBy(auditLog.actorUserId, users.username, users.role)
      .orderBy(desc(count()), auditLog.actorUserId)
      .limit(top),
    db.select({ action: auditLog.action, count: count() }).from(auditLog).where(inRange).groupBy(auditLog.action).orderBy(desc(count()), auditLog.action).limit(top),
    db.execute<{ day: string; count: number }>(sql`
      SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(c.n, 0)::int AS count
      FROM generate_series(date_trunc('day', ${from}::timestamptz AT TIME ZONE 'UTC'), ${to}::timestamptz AT TIME ZONE 'UTC' - interval '1 microsecond', interval '1 day') AS d(day)
      LEFT JOIN (
        SELECT date_trunc('day', occurred_at AT TIME ZONE 'UTC') AS day, count(*) AS n
        FROM audit_log WHERE occurred_at >= ${from} AND occurred_at < ${to} GROUP BY 1
      ) c ON c.day = d.day
      ORDER BY d.day`),
  ]);
  return { total: total?.n ?? 0, actors, actions, perDay: perDay.rows };
}

/**
 * The id range of an export: from the first entry at or after `from` to the last before `to`.
 * A contiguous id range (not a filter on the time), so the export is an unbroken piece of the
 * chains, read once no audit write is in flight: a row of another chain that takes a lower id and
 * commits later cannot be left out.
 */
export async function exportBounds(db: Db, from: Date | undefined, to: Date): Promise<{ firstId: number; lastId: number } | undefined> {
  const result = await db.transaction(async (tx) => {
    await settleAuditWriters(tx);
    return tx.execute<{ first: string | null; last: string | null }>(sql`
      SELECT (SELECT min(id) FROM audit_log WHERE ${from ? sql`occurred_at >= ${from}` : sql`true`}) AS first,
             (SELECT max(id) FROM audit_log WHERE occurred_at < ${to}) AS last`);
  });
  const row = result.rows[0];
  if (!row?.first || !row.last || Number(row.first) > Number(row.last)) return undefined;
  return { firstId: Number(row.first), lastId: Number(row.last) };
}

/** The export's query, for a server-side cursor (pg-query-stream): rows shaped like AuditRow. */
export const EXPORT_SQL = `
  SELECT id, occurred_at AS "occurredAt", actor_type AS "actorType", actor_user_id AS "actorUserId", action,
         target_type AS "targetType", target_id AS "targetId", reason, before, after, ip_address AS "ipAddress",
         user_agent AS "userAgent", request_id AS "requestId", outcome, chain, prev_hash AS "prevHash", hash
  FROM audit_log WHERE id BETWEEN $1 AND $2 ORDER BY id`;
