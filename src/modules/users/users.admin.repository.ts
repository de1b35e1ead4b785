import { sql, type SQL } from 'drizzle-orm';
import { auditLog } from '../../core/audit/audit.tables.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { userBans } from './bans.tables.js';
import { userSignIns, users } from './users.tables.js';

/** The user administration's SQL: the list with status, sign-ins, the users module's rows of the activity timeline. */

export type UserStatusFilter = 'active' | 'banned' | 'disabled';
export type UserSort = 'createdAt' | '-createdAt' | 'username' | '-username';

export interface UserFilter {
  role?: number | undefined;
  status?: UserStatusFilter | undefined;
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
  /** Prefix of the username or the e-mail address, any case. */
  q?: string | undefined;
}

export interface AdminUserRow {
  id: string;
  sub: string;
  username: string;
  email: string | null;
  role: number;
  isActive: boolean;
  createdAt: Date;
  disabled: boolean;
  banId: string | null;
  banEndsAt: Date | null;
  lastSignInAt: Date | null;
}

/** `%`, `_` and `\\` match themselves in a LIKE pattern. */
const likePrefix = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const ORDER: Record<UserSort, SQL> = {
  createdAt: sql`u.created_at ASC, u.id ASC`,
  '-createdAt': sql`u.created_at DESC, u.id DESC`,
  username: sql`lower(u.username) ASC, u.id ASC`,
  '-username': sql`lower(u.username) DESC, u.id DESC`,
};

/**
 * Users with their state: `disabled` (deactivated, or disabled in the embedded identity
 * provider), the ban in force at `now`, the last sign-in. The text search is a prefix match served
 * by the lower(username) / lower(email) text_pattern_ops indexes.
 */
function fromWhere(filter: UserFilter, now: Date): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filter.role !== undefined) conditions.push(sql`u.role = ${filter.role}`);
  if (filter.createdFrom) conditions.push(sql`u.created_at >= ${filter.createdFrom}`);
  if (filter.createdTo) conditions.push(sql`u.created_at < ${filter.createdTo}`);
  if (filter.q) conditions.push(sql`(lower(u.username) LIKE ${likePrefix(filter.q)} OR lower(u.email) LIKE ${likePrefix(filter.q)})`);
  const disabled = sql`(NOT u.is_active OR i.enabled IS FALSE)`;
  if (filter.status === 'disabled') conditions.push(disabled);
  if (filter.status === 'banned') conditions.push(sql`NOT ${disabled} AND b.id IS NOT NULL`);
  if (filter.status === 'active') conditions.push(sql`NOT ${disabled} AND b.id IS NULL`);
  return sql`
    FROM ${users} u
    LEFT JOIN idp.users i ON i.sub::text = u.sub
    LEFT JOIN LATERAL (
      SELECT ${userBans.id} AS id, ${userBans.endsAt} AS ends_at FROM ${userBans}
      WHERE ${userBans.userId} = u.id AND ${userBans.liftedAt} IS NULL AND (${userBans.endsAt} IS NULL OR ${userBans.endsAt} > ${now})
      ORDER BY ${userBans.endsAt} DESC NULLS FIRST LIMIT 1) b ON true
    WHERE ${sql.join(conditions, sql` AND `)}`;
}

const COLUMNS = sql`u.id, u.sub, u.username, u.email, u.role, u.is_active AS "isActive", u.created_at AS "createdAt",
  (NOT u.is_active OR i.enabled IS FALSE) AS disabled, b.id AS "banId", b.ends_at AS "banEndsAt",
  (SELECT max(s.signed_in_at) FROM ${userSignIns} s WHERE s.user_id = u.id) AS "lastSignInAt"`;

type Raw = Omit<AdminUserRow, 'createdAt' | 'banEndsAt' | 'lastSignInAt'> & { createdAt: string | Date; banEndsAt: string | Date | null; lastSignInAt: string | Date | null };
const date = (v: string | Date | null) => (v === null ? null : new Date(v));
const toRow = (r: Raw): AdminUserRow => ({ ...r, createdAt: new Date(r.createdAt), banEndsAt: date(r.banEndsAt), lastSignInAt: date(r.lastSignInAt) });

export async function listUsers(db: DbOrTx, filter: UserFilter, sort: UserSort, now: Date, page: Page): Promise<{ items: AdminUserRow[]; total: number }> {
  const from = fromWhere(filter, now);
  const [rows, count] = await Promise.all([
    db.execute<Raw>(sql`SELECT ${COLUMNS} ${from} ORDER BY ${ORDER[sort]} LIMIT ${page.limit} OFFSET ${page.offset}`),
    db.execute<{ n: number }>(sql`SELECT count(*)::int AS n ${from}`),
  ]);
  return { items: rows.rows.map(toRow), total: count.rows[0]?.n ?? 0 };
}

export async function findAdminUser(db: DbOrTx, id: string, now: Date): Promise<AdminUserRow | undefined> {
  const rows = await db.execute<Raw>(sql`SELECT ${COLUMNS} ${fromWhere({}, now)} AND u.id = ${id}`);
  return rows.rows[0] ? toRow(rows.rows[0]) : undefined;
}

export async function signInCount(db: DbOrTx, userId: string): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${userSignIns} WHERE ${userSignIns.userId} = ${userId}`);
  return result.rows[0]?.n ?? 0;
}

const ROLE_ACTIONS = ['users.role_changed', 'users.role_set', 'employees.role_changed'];

/** The users module's own timeline rows: sign-ins, bans issued and lifted, role changes (audit log). */
export function ownTimelineSql(userId: string): SQL[] {
  return [
    sql`SELECT ${userSignIns.signedInAt} AS at, 'signIn'::text AS kind, ${userSignIns.id}::text AS id, NULL::text AS title, ${userSignIns.ipAddress} AS detail
        FROM ${userSignIns} WHERE ${userSignIns.userId} = ${userId}`,
    sql`SELECT ${userBans.startsAt} AS at, 'ban'::text AS kind, ${userBans.id}::text AS id, ${userBans.reason} AS title,
               CASE WHEN ${userBans.endsAt} IS NULL THEN 'permanent' ELSE 'until ' || to_char(${userBans.endsAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END AS detail
        FROM ${userBans} WHERE ${userBans.userId} = ${userId}`,
    sql`SELECT ${userBans.liftedAt} AS at, 'unban'::text AS kind, ${userBans.id}::text AS id, ${userBans.liftReason} AS title, NULL::text AS detail
        FROM ${userBans} WHERE ${userBans.userId} = ${userId} AND ${userBans.liftedAt} IS NOT NULL`,
    sql`SELECT ${auditLog.occurredAt} AS at, 'roleChange'::text AS kind, ${auditLog.id}::text AS id, ${auditLog.reason} AS title,
               coalesce(${auditLog.before}->>'role', '?') || ' → ' || coalesce(${auditLog.after}->>'role', '?') AS detail
        FROM ${auditLog} WHERE ${auditLog.action} IN ${ROLE_ACTIONS} AND ${auditLog.targetType} = 'user' AND ${auditLog.targetId} = ${userId}`,
  ];
}
