import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { EMPLOYEE_ROLES, Role, roleName } from '../../core/access/roles.js';
import type { AuditContext } from '../../core/audit/audit.js';
import type { Page } from '../../core/http/pagination.js';
import { AppError } from '../../core/http/problem.js';
import * as bans from './bans.repository.js';
import { banView, type Actor } from './bans.service.js';
import * as repo from './users.admin.repository.js';
import { UserErrors } from './users.errors.js';
import * as users from './users.repository.js';
import { changeUserRole } from './users.service.js';

/**
 * The user administration of the users module: the list, and for the user details (the
 * user-details module, administration tier) one user as the administration sees them, their bans
 * and sign-ins, and role changes outside the employee ladder.
 */

export const UserAdminErrors = {
  employeeRoleOwnerOnly: () =>
    new AppError(403, 'users.employee_role_owner_only', 'Making or unmaking an Admin or Moderator is the Owner’s (employee management); ask the Owner.'),
  ownerRoleNotGranted: () =>
    new AppError(403, 'users.owner_role_not_granted', 'The Owner role is not given through the API; the operator sets it with `fishlog users set-role <username> Owner`.'),
};

function status(row: repo.AdminUserRow): 'Active' | 'Banned' | 'Disabled' {
  if (row.disabled) return 'Disabled';
  return row.banId ? 'Banned' : 'Active';
}

function adminUserView(row: repo.AdminUserRow) {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: roleName(row.role),
    status: status(row),
    activeBan: row.banId ? { id: row.banId, endsAt: row.banEndsAt?.toISOString() ?? null } : null,
    createdAt: row.createdAt.toISOString(),
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
  };
}

export async function listUsers(deps: ServiceDeps, filter: repo.UserFilter, sort: repo.UserSort, page: Page, now: Date) {
  const { db } = deps;
  const { items, total } = await repo.listUsers(db, filter, sort, now, page);
  return { items: items.map(adminUserView), total };
}

/** One user as the administration lists them (`view`), with their `sub` and role value; 404 `users.user_not_found`. */
export async function requireAdminUser(deps: ServiceDeps, id: string, now: Date) {
  const { db } = deps;
  const row = await repo.findAdminUser(db, id, now);
  if (!row) throw UserErrors.notFound(id);
  return { sub: row.sub, role: row.role, view: adminUserView(row) };
}

/** The users module's part of a user's details: how many bans and sign-ins, the 20 latest bans (newest first). */
export async function bansAndSignInsOf(deps: ServiceDeps, id: string, now: Date) {
  const { db } = deps;
  const [banCounts, recentBans, signIns] = await Promise.all([bans.banCounts(db, [id], now), bans.bansOfUser(db, id, 20), repo.signInCount(db, id)]);
  return { bans: banCounts.get(id)?.total ?? 0, signIns, recentBans: recentBans.map((b) => banView(b, now)) };
}

/**
 * Sets a role outside the employee ladder (Standard, DNR, Researcher) with `Users.ChangeRole`,
 * audit-logged with the reason. Checked again under the role-change lock: an Owner may have made
 * the user an employee meanwhile (then only the Owner changes their role).
 */
export async function setNonEmployeeRole(deps: ServiceDeps, context: AuditContext, actor: Actor, id: string, role: number, reason: string) {
  const { db } = deps;
  await db.transaction(async (tx) => {
    await users.lockRoleChanges(tx);
    const current = await users.findByIdForUpdate(tx, id);
    if (current && EMPLOYEE_ROLES.includes(current.role) && actor.role !== Role.Owner) throw UserAdminErrors.employeeRoleOwnerOnly();
    await changeUserRole(inTx(deps, tx), context, id, role, { action: 'users.role_changed', reason });
  });
}
