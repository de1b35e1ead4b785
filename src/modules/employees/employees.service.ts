import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { appendGrant, grantHistory, grantsInForce } from '../../core/access/grants.repository.js';
import { canonicalPermission, OWNER_ONLY_PERMISSIONS } from '../../core/access/permissions.js';
import type { PermissionGrantRow } from '../../core/access/access.tables.js';
import { EMPLOYEE_ROLES, Role, roleName } from '../../core/access/roles.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { notify } from '../../core/notifications/outbox.js';
import { notifyPrincipalChanged } from '../../core/auth/notify.js';
import type { Page } from '../../core/http/pagination.js';
import { UserErrors } from '../users/index.js';
import { findUserById as findById } from '../users/users.service.js';
import { changeUserRole } from '../users/users.service.js';
import type { UserRow } from '../users/index.js';
import { EmployeeErrors } from './employees.errors.js';
import * as repo from './employees.repository.js';

/** Owner-only management of employees (Admins, Moderators) and their permissions. */

export function grantView(row: PermissionGrantRow) {
  return {
    id: row.id,
    userId: row.userId,
    permission: row.permission,
    isGranted: row.isGranted,
    restrictions: row.restrictions ?? null,
    reason: row.reason,
    grantedBy: row.grantedBy,
    grantedAt: row.createdAt.toISOString(),
  };
}

function employeeView(user: UserRow, grants: PermissionGrantRow[]) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    role: roleName(user.role) as 'Admin' | 'Moderator',
    permissions: grants.map(grantView),
  };
}

export async function listEmployees(deps: ServiceDeps, context: AuditContext, filter: { role?: 'Admin' | 'Moderator' }, page: Page) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const { items, total } = await repo.listEmployees(tx, filter.role === undefined ? undefined : Role[filter.role], page);
    const grants = await grantsInForce(tx, items.map((u) => u.id));
    await recordAudit(inTx(deps, tx), context, { action: 'employees.listed', targetType: 'employee', after: { role: filter.role ?? null, page: page.page, count: items.length } });
    return { items: items.map((u) => employeeView(u, grants.filter((g) => g.userId === u.id))), total };
  });
}

export async function changeEmployeeRole(deps: ServiceDeps, context: AuditContext, userId: string, input: { role: 'Admin' | 'Moderator'; reason?: string | undefined }) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const user = await changeUserRole(inTx(deps, tx), context, userId, Role[input.role], { action: 'employees.role_changed', reason: input.reason ?? null });
    const grants = await grantsInForce(tx, [user.id]);
    return employeeView(user, grants);
  });
}

const MAX_BAN_DAYS = 3650;

function checkRestrictions(restrictions: Record<string, unknown> | undefined): void {
  if (!restrictions || !('maxBanDays' in restrictions)) return;
  const days = restrictions.maxBanDays;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_BAN_DAYS) {
    throw EmployeeErrors.badRestrictions(`maxBanDays must be an integer from 1 to ${MAX_BAN_DAYS}`);
  }
}

export async function setEmployeePermission(
  deps: ServiceDeps,
  context: AuditContext,
  userId: string,
  input: { permission: string; isGranted: boolean; reason?: string | undefined; restrictions?: Record<string, unknown> | undefined },
) {
  const { db } = deps;
  const permission = canonicalPermission(input.permission);
  if (!permission) throw EmployeeErrors.unknownPermission(input.permission);
  checkRestrictions(input.restrictions);
  return db.transaction(async (tx) => {
    const target = await findById(inTx(deps, tx), userId);
    if (!target) throw UserErrors.notFound(userId);
    if (target.role === Role.Owner) throw EmployeeErrors.ownerHasAll();
    if (OWNER_ONLY_PERMISSIONS.has(permission) && input.isGranted) throw EmployeeErrors.ownerOnlyPermission(permission);
    if (!EMPLOYEE_ROLES.includes(target.role)) throw EmployeeErrors.notAnEmployee(roleName(target.role));
    const before = (await grantsInForce(tx, [userId])).find((g) => g.permission === permission);
    const grant = await appendGrant(tx, {
      userId,
      permission,
      isGranted: input.isGranted,
      restrictions: input.restrictions ?? null,
      reason: input.reason ?? null,
      grantedBy: context.actor.userId ?? null,
    });
    await notifyPrincipalChanged(tx, target.sub);
    await recordAudit(inTx(deps, tx), context, {
      action: input.isGranted ? 'employees.permission_granted' : 'employees.permission_denied',
      targetType: 'user',
      targetId: userId,
      reason: input.reason ?? null,
      before: before ? { permission, isGranted: before.isGranted, restrictions: before.restrictions } : null,
      after: { permission, isGranted: grant.isGranted, restrictions: grant.restrictions },
    });
    await notify(tx, {
      type: 'employees.permission_changed',
      path: '/api/userprofile/me',
      payload: { userId, permission, isGranted: grant.isGranted },
      recipients: [{ userId, title: 'Your permissions changed', body: `${permission} was ${grant.isGranted ? 'granted to' : 'denied to'} you${input.reason ? `: ${input.reason}` : ''}.` }],
    });
    return grantView(grant);
  });
}

export async function permissionHistory(deps: ServiceDeps, context: AuditContext, userId: string, page: Page) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const target = await findById(inTx(deps, tx), userId);
    if (!target) throw UserErrors.notFound(userId);
    const { items, total } = await grantHistory(tx, userId, page);
    await recordAudit(inTx(deps, tx), context, { action: 'employees.permission_history_viewed', targetType: 'user', targetId: userId });
    return { items: items.map(grantView), total };
  });
}
