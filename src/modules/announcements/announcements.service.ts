import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import type { Principal } from '../../core/auth/authenticate.js';
import { roleName, type RoleName } from '../../core/access/roles.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { AnnouncementsErrors } from './announcements.errors.js';
import * as repo from './announcements.repository.js';
import { AnnouncementStatusEnum, type AdminAnnouncementsQueryType, type AnnouncementStatus, type CreateAnnouncementBodyType, type UpdateAnnouncementBodyType } from './announcements.schemas.js';
import { ANNOUNCEMENT_PRIORITIES, type AnnouncementPriority, type AnnouncementRow, type AnnouncementType, type Dismissal } from './announcements.tables.js';

/**
 * Announcements: admins write them (every edit keeps the previous version, every action is
 * audit-logged with its reason); users see the live ones targeted at their role, highest
 * priority first, and may dismiss the dismissible ones. Time comes from the app's clock (`now`).
 */

/** The most a user is shown at once. */
export const USER_LIST_LIMIT = 50;

type Audience = 'All' | RoleName[];

function audienceOf(row: AnnouncementRow): Audience {
  return row.targetRoles === null ? 'All' : (row.targetRoles as RoleName[]);
}

function statusOf(row: AnnouncementRow, now: Date): AnnouncementStatus {
  if (!row.isActive) return 'inactive';
  if (row.startsAt > now) return 'scheduled';
  if (row.endsAt !== null && row.endsAt <= now) return 'ended';
  return 'active';
}

/** The editable content, as the API shows it (also what a version keeps). */
function contentOf(row: AnnouncementRow) {
  return {
    title: row.title,
    body: row.body,
    type: row.type,
    priority: row.priority,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt?.toISOString() ?? null,
    audience: audienceOf(row),
    dismissal: row.dismissal,
  };
}

export function adminView(row: repo.AnnouncementWithCount, now: Date) {
  return {
    id: row.id,
    ...contentOf(row),
    status: AnnouncementStatusEnum.toApi(statusOf(row, now)),
    version: row.version,
    dismissedCount: row.dismissedCount,
    isActive: row.isActive,
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    deactivationReason: row.deactivationReason,
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
export type AdminAnnouncementView = ReturnType<typeof adminView>;

function userView(row: AnnouncementRow) {
  const { audience: _audience, ...content } = contentOf(row);
  return { id: row.id, ...content };
}

interface Content {
  title: string;
  body: string;
  type: AnnouncementType;
  priority: AnnouncementPriority;
  startsAt: Date;
  endsAt: Date | null;
  targetRoles: string[] | null;
  dismissal: Dismissal;
  priorityRank: number;
}

/** The stored content of a request body; endsAt must come after startsAt (400 naming /endsAt). */
function toContent(body: CreateAnnouncementBodyType | UpdateAnnouncementBodyType, now: Date): Content {
  const startsAt = body.startsAt === undefined ? now : new Date(body.startsAt);
  const endsAt = body.endsAt === undefined || body.endsAt === null ? null : new Date(body.endsAt);
  if (endsAt !== null && endsAt <= startsAt) throw AnnouncementsErrors.invalidPeriod();
  return {
    title: body.title,
    body: body.body,
    type: body.type,
    priority: body.priority,
    priorityRank: ANNOUNCEMENT_PRIORITIES.indexOf(body.priority),
    startsAt,
    endsAt,
    targetRoles: body.audience === 'All' ? null : [...body.audience],
    dismissal: body.dismissal,
  };
}

async function loadView(deps: ServiceDeps<DbOrTx>, id: string, now: Date): Promise<AdminAnnouncementView> {
  const { db } = deps;
  const row = await repo.findWithCount(db, id);
  if (!row) throw AnnouncementsErrors.notFound(id);
  return adminView(row, now);
}

export async function listAnnouncements(deps: ServiceDeps, query: AdminAnnouncementsQueryType, page: Page, now: Date) {
  const { db } = deps;
  const { items, total } = await repo.list(db, { ...query, status: AnnouncementStatusEnum.fromApi(query.status) }, page, now);
  return { items: items.map((row) => adminView(row, now)), total };
}

export async function getAnnouncement(deps: ServiceDeps, id: string, now: Date): Promise<AdminAnnouncementView> {
  return loadView(deps, id, now);
}

export async function createAnnouncement(deps: ServiceDeps, context: AuditContext, body: CreateAnnouncementBodyType, now: Date): Promise<AdminAnnouncementView> {
  const { db } = deps;
  const content = toContent(body, now);
  return db.transaction(async (tx) => {
    const actor = context.actor.userId ?? null;
    const row = await repo.insert(tx, { ...content, createdBy: actor, updatedBy: actor });
    await recordAudit(inTx(deps, tx), context, { action: 'announcements.created', targetType: 'announcement', targetId: row.id, reason: body.reason, after: contentOf(row) });
    return adminView({ ...row, dismissedCount: 0 }, now);
  });
}

/** A full replacement; the previous content is kept as a version. */
export async function updateAnnouncement(deps: ServiceDeps, context: AuditContext, id: string, body: UpdateAnnouncementBodyType, now: Date): Promise<AdminAnnouncementView> {
  const { db } = deps;
  const content = toContent(body, now);
  return db.transaction(async (tx) => {
    const current = await repo.find(tx, id, true);
    if (!current) throw AnnouncementsErrors.notFound(id);
    const actor = context.actor.userId ?? null;
    await repo.addVersion(tx, { announcementId: id, version: current.version, content: contentOf(current), replacedBy: actor, reason: body.reason });
    await repo.update(tx, id, { ...content, version: current.version + 1, updatedBy: actor });
    const view = await loadView(inTx(deps, tx), id, now);
    await recordAudit(inTx(deps, tx), context, {
      action: 'announcements.updated',
      targetType: 'announcement',
      targetId: id,
      reason: body.reason,
      before: { ...contentOf(current), version: current.version },
      after: { ...contentOf({ ...current, ...content }), version: view.version },
    });
    return view;
  });
}

export async function announcementVersions(deps: ServiceDeps, id: string, page: Page) {
  const { db } = deps;
  if (!(await repo.find(db, id))) throw AnnouncementsErrors.notFound(id);
  const { items, total } = await repo.versions(db, id, page);
  return {
    items: items.map((v) => ({ version: v.version, ...(v.content as ReturnType<typeof contentOf>), replacedBy: v.replacedBy, replacedAt: v.replacedAt.toISOString(), reason: v.reason })),
    total,
  };
}

export async function setAnnouncementActive(deps: ServiceDeps, context: AuditContext, id: string, active: boolean, reason: string | undefined, now: Date): Promise<AdminAnnouncementView> {
  const lifecycle: Lifecycle<AnnouncementRow, AdminAnnouncementView> = {
    lock: (tx, rowId) => repo.find(tx, rowId, true),
    update: (tx, rowId, values, actorId) => repo.update(tx, rowId, { ...values, updatedBy: actorId }),
    view: (inner, rowId) => loadView(inner, rowId, now),
    notFound: AnnouncementsErrors.notFound,
    alreadyActive: AnnouncementsErrors.alreadyActive,
    alreadyInactive: AnnouncementsErrors.alreadyInactive,
    audit: { targetType: 'announcement', deactivated: 'announcements.deactivated', reactivated: 'announcements.reactivated' },
  };
  return setActive(deps, context, lifecycle, id, active, reason);
}

/** The caller's announcements now: live, for their role, not dismissed; highest priority first, then newest. */
export async function myAnnouncements(deps: ServiceDeps, principal: Principal, now: Date) {
  const { db } = deps;
  const rows = await repo.forUser(db, principal.userId, roleName(principal.role), now, USER_LIST_LIMIT);
  return rows.map(userView);
}

/** Dismisses for the caller (idempotent); 404 unless shown to them now, 409 when Persistent. */
export async function dismissAnnouncement(deps: ServiceDeps, principal: Principal, id: string, now: Date): Promise<void> {
  const { db } = deps;
  const row = await repo.visibleTo(db, id, roleName(principal.role), now);
  if (!row) throw AnnouncementsErrors.notVisible(id);
  if (row.dismissal === 'Persistent') throw AnnouncementsErrors.notDismissible(id);
  await repo.dismiss(db, id, principal.userId);
}
