import { EMPLOYEE_ROLES, Role, roleName, type RoleName } from '../../core/access/roles.js';
import type { AuditContext } from '../../core/audit/audit.js';
import type { Db } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { AppError } from '../../core/http/problem.js';
import { changeEmployeeRole } from '../admin/employees/employees.service.js';
import { logCountsOfUser, logTimelineSql } from '../fishing-log/stats.service.js';
import { adminProfileSummary } from '../profiles/profiles.service.js';
import { socialCountsOfUser, socialTimelineSql } from '../social/stats.service.js';
import * as bans from './bans.repository.js';
import { banView, type Actor, type Invalidate } from './bans.service.js';
import * as repo from './users.admin.repository.js';
import { UserErrors } from './users.errors.js';
import * as users from './users.repository.js';
import { changeUserRole } from './users.service.js';
import { pascalEnum } from '../../core/http/enums.js';

/**
 * The user administration: the list, one user's details with the counts the owning modules give
 * (fishing log, social, bans, sign-ins: a fixed number of queries), role changes and the timeline.
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

export async function listUsers(db: Db, filter: repo.UserFilter, sort: repo.UserSort, page: Page, now: Date) {
  const { items, total } = await repo.listUsers(db, filter, sort, now, page);
  return { items: items.map(adminUserView), total };
}

export async function getUser(db: Db, id: string, now: Date) {
  const row = await repo.findAdminUser(db, id, now);
  if (!row) throw UserErrors.notFound(id);
  const [profile, log, social, banCounts, recentBans, signIns] = await Promise.all([
    adminProfileSummary(db, id),
    logCountsOfUser(db, id),
    socialCountsOfUser(db, id),
    bans.banCounts(db, [id], now),
    bans.bansOfUser(db, id, 20),
    repo.signInCount(db, id),
  ]);
  const banned = banCounts.get(id) ?? { total: 0, active: 0 };
  return {
    ...adminUserView(row),
    profile,
    counts: {
      entries: log.entries,
      catches: log.catches,
      posts: social.posts,
      comments: social.comments,
      reportsAgainst: social.reportsAgainst,
      openReportsAgainst: social.openReportsAgainst,
      reportsFiled: social.reportsFiled,
      bans: banned.total,
      signIns,
    },
    bans: recentBans.map((b) => banView(b, now)),
  };
}

/**
 * Changes a user's role (`Users.ChangeRole`). To or from Admin and Moderator it is employee
 * management, the Owner's alone, and goes through the employees service; the Owner role is never
 * given nor taken here; the last Admin who can sign in stays one (users.service). Audit-logged with the reason.
 */
export async function setRole(db: Db, context: AuditContext, actor: Actor, id: string, input: { role: RoleName; reason: string }, now: Date, invalidate: Invalidate) {
  const target = await repo.findAdminUser(db, id, now);
  if (!target) throw UserErrors.notFound(id);
  if (target.role === Role.Owner) throw UserErrors.ownerRoleProtected();
  const role = Role[input.role];
  if (role === Role.Owner) throw UserAdminErrors.ownerRoleNotGranted();
  const employeeChange = EMPLOYEE_ROLES.includes(role) || EMPLOYEE_ROLES.includes(target.role);
  if (employeeChange && actor.role !== Role.Owner) throw UserAdminErrors.employeeRoleOwnerOnly();
  const reason = input.reason.trim();
  if (input.role === 'Admin' || input.role === 'Moderator') {
    await changeEmployeeRole(db, context, id, { role: input.role, reason });
  } else {
    await db.transaction(async (tx) => {
      // Checked again under the role-change lock: an Owner may have made them an employee meanwhile.
      await users.lockRoleChanges(tx);
      const current = await users.findByIdForUpdate(tx, id);
      if (current && EMPLOYEE_ROLES.includes(current.role) && actor.role !== Role.Owner) throw UserAdminErrors.employeeRoleOwnerOnly();
      await changeUserRole(tx, context, id, role, { action: 'users.role_changed', reason });
    });
  }
  invalidate(target.sub);
  return getUser(db, id, now);
}

/** What the user did, newest first: one query over the sources of every module. */
export async function timeline(db: Db, id: string, page: Page, now: Date) {
  const row = await repo.findAdminUser(db, id, now);
  if (!row) throw UserErrors.notFound(id);
  const { items, total } = await repo.timelinePage(db, [...logTimelineSql(id), ...socialTimelineSql(id), ...repo.ownTimelineSql(id)], page);
  return { items: items.map((i) => ({ at: i.at.toISOString(), kind: TimelineKindEnum.toApi(i.kind as TimelineKind), id: i.id, title: i.title, detail: i.detail })), total };
}

export const TIMELINE_KINDS = ['entry', 'catch', 'post', 'comment', 'report', 'signIn', 'ban', 'unban', 'roleChange'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];
/** Entry, Catch, Post, Comment, Report, SignIn, Ban, Unban, RoleChange (answered only). */
export const TimelineKindEnum = pascalEnum(TIMELINE_KINDS, 'What happened: Entry, Catch, Post, Comment, Report, SignIn, Ban, Unban or RoleChange.');
