import type { ServiceDeps } from '../../core/service-deps.js';
import { EMPLOYEE_ROLES, Role, type RoleName } from '../../core/access/roles.js';
import type { AuditContext } from '../../core/audit/audit.js';
import { pascalEnum } from '../../core/http/enums.js';
import type { Page } from '../../core/http/pagination.js';
import { changeEmployeeRole } from '../employees/employees.service.js';
import { logCountsOfUser, logTimelineSql } from '../fishing-log/fishing-log.stats.service.js';
import { adminProfileSummary } from '../profiles/profiles.service.js';
import { socialCountsOfUser, socialTimelineSql } from '../social/social.stats.service.js';
import { UserErrors } from '../users/index.js';
import type { Actor, Invalidate } from '../users/bans.service.js';
import { usersTimelineSql } from '../users/users.stats.service.js';
import { bansAndSignInsOf, requireAdminUser, setNonEmployeeRole, UserAdminErrors } from '../users/users.admin.service.js';
import * as repo from './user-details.admin.repository.js';

/**
 * One user's details for the administration (administration tier): the users module's view with
 * the counts the owning modules give (fishing log, social, bans, sign-ins: a fixed number of
 * queries), role changes (employee roles through employee management) and the activity timeline.
 */

export async function getUser(deps: ServiceDeps, id: string, now: Date) {
  const user = await requireAdminUser(deps, id, now);
  const [profile, log, social, own] = await Promise.all([adminProfileSummary(deps, id), logCountsOfUser(deps, id), socialCountsOfUser(deps, id), bansAndSignInsOf(deps, id, now)]);
  return {
    ...user.view,
    profile,
    counts: {
      entries: log.entries,
      catches: log.catches,
      posts: social.posts,
      comments: social.comments,
      reportsAgainst: social.reportsAgainst,
      openReportsAgainst: social.openReportsAgainst,
      reportsFiled: social.reportsFiled,
      bans: own.bans,
      signIns: own.signIns,
    },
    bans: own.recentBans,
  };
}

/**
 * Changes a user's role (`Users.ChangeRole`). To or from Admin and Moderator it is employee
 * management, the Owner's alone, and goes through the employees service; the Owner role is never
 * given nor taken here; the last Admin who can sign in stays one (users.service). Audit-logged with the reason.
 */
export async function setRole(deps: ServiceDeps, context: AuditContext, actor: Actor, id: string, input: { role: RoleName; reason: string }, now: Date, invalidate: Invalidate) {
  const target = await requireAdminUser(deps, id, now);
  if (target.role === Role.Owner) throw UserErrors.ownerRoleProtected();
  const role = Role[input.role];
  if (role === Role.Owner) throw UserAdminErrors.ownerRoleNotGranted();
  const employeeChange = EMPLOYEE_ROLES.includes(role) || EMPLOYEE_ROLES.includes(target.role);
  if (employeeChange && actor.role !== Role.Owner) throw UserAdminErrors.employeeRoleOwnerOnly();
  const reason = input.reason.trim();
  if (input.role === 'Admin' || input.role === 'Moderator') await changeEmployeeRole(deps, context, id, { role: input.role, reason });
  else await setNonEmployeeRole(deps, context, actor, id, role, reason);
  invalidate(target.sub);
  return getUser(deps, id, now);
}

/** What the user did, newest first: one query over the sources of every module. */
export async function timeline(deps: ServiceDeps, id: string, page: Page, now: Date) {
  const { db } = deps;
  await requireAdminUser(deps, id, now);
  const { items, total } = await repo.timelinePage(db, [...logTimelineSql(id), ...socialTimelineSql(id), ...usersTimelineSql(id)], page);
  return { items: items.map((i) => ({ at: i.at.toISOString(), kind: TimelineKindEnum.toApi(i.kind as TimelineKind), id: i.id, title: i.title, detail: i.detail })), total };
}

export const TIMELINE_KINDS = ['entry', 'catch', 'post', 'comment', 'report', 'signIn', 'ban', 'unban', 'roleChange'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];
/** Entry, Catch, Post, Comment, Report, SignIn, Ban, Unban, RoleChange (answered only). */
export const TimelineKindEnum = pascalEnum(TIMELINE_KINDS, 'What happened: Entry, Catch, Post, Comment, Report, SignIn, Ban, Unban or RoleChange.');
