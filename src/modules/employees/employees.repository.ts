import { asc, eq, inArray, sql } from 'drizzle-orm';
import { EMPLOYEE_ROLES } from '../../core/access/roles.js';
import type { DbOrTx } from '../../core/db/client.js';
import { users, type UserRow } from '../users/index.js';

export async function listEmployees(db: DbOrTx, role: number | undefined, page: { limit: number; offset: number }): Promise<{ items: UserRow[]; total: number }> {
  const where = role === undefined ? inArray(users.role, [...EMPLOYEE_ROLES]) : eq(users.role, role);
  const [items, [count]] = await Promise.all([
    db.select().from(users).where(where).orderBy(asc(users.role), asc(users.username), asc(users.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}
