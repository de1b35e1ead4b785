import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { uuidv7 } from '../db/ids.js';
import type { DbOrTx } from '../db/client.js';
import { permissionGrants, type PermissionGrantRow } from './access.tables.js';
import { permissionNames, PERMISSION_ALIASES, type Permission } from './permissions.js';
import type { GrantInForce } from './resolve.js';

/**
 * The grant in force: the newest history row for the user and the permission under any of its
 * catalogue names (an alias and the name it stands for are one permission; index-backed).
 */
export async function grantInForce(db: DbOrTx, userId: string, permission: Permission): Promise<GrantInForce | undefined> {
  const [row] = await db
    .select({ isGranted: permissionGrants.isGranted, restrictions: permissionGrants.restrictions })
    .from(permissionGrants)
    .where(and(eq(permissionGrants.userId, userId), inArray(permissionGrants.permission, permissionNames(permission))))
    .orderBy(desc(permissionGrants.createdAt), desc(permissionGrants.id))
    .limit(1);
  return row ? { isGranted: row.isGranted, restrictions: row.restrictions ?? null } : undefined;
}

/** The grants in force of several users at once (one query). */
export async function grantsInForce(db: DbOrTx, userIds: string[]): Promise<PermissionGrantRow[]> {
  if (userIds.length === 0) return [];
  return db
    .selectDistinctOn([permissionGrants.userId, permissionGrants.permission])
    .from(permissionGrants)
    .where(inArray(permissionGrants.userId, userIds))
    .orderBy(permissionGrants.userId, permissionGrants.permission, desc(permissionGrants.createdAt), desc(permissionGrants.id));
}

export async function appendGrant(
  db: DbOrTx,
  grant: { userId: string; permission: Permission; isGranted: boolean; restrictions: Record<string, unknown> | null; reason: string | null; grantedBy: string | null },
): Promise<PermissionGrantRow> {
  const [row] = await db
    .insert(permissionGrants)
    // Stored under the canonical name, so the history of one permission reads as one.
    .values({ id: uuidv7(), ...grant, permission: PERMISSION_ALIASES[grant.permission] ?? grant.permission, createdAt: sql`clock_timestamp()` as unknown as Date })
    .returning();
  return row!;
}

export async function grantHistory(db: DbOrTx, userId: string, page: { limit: number; offset: number }): Promise<{ items: PermissionGrantRow[]; total: number }> {
  const [items, [count]] = await Promise.all([
    db
      .select()
      .from(permissionGrants)
      .where(eq(permissionGrants.userId, userId))
      .orderBy(desc(permissionGrants.createdAt), desc(permissionGrants.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(permissionGrants).where(eq(permissionGrants.userId, userId)),
  ]);
  return { items, total: count?.n ?? 0 };
}
