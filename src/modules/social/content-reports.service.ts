import type { ServiceDeps } from '../../core/service-deps.js';
import { isSelf } from '../../core/access/policy.js';
import type { DbOrTx } from '../../core/db/client.js';
import { isAuthor } from '../../core/access/policies/posts.js';
import type { Page } from '../../core/http/pagination.js';
import { findUserById as findById } from '../users/users.service.js';
import { requireVisibleComment } from './comments.service.js';
import { requireVisiblePost } from './posts.service.js';
import { ReportErrors } from './content-reports.errors.js';
import { ReportTargetTypeEnum } from './content-reports.schemas.js';
import * as repo from './content-reports.repository.js';
import type { ReportReason, ReportResolution, ReportSnapshot, ReportTargetType, UserReportRow } from './content-reports.tables.js';

/**
 * User reports (complaints) about posts, comments and users. A reporter must be able to see
 * what they report; one open report per reporter and target. The report keeps a snapshot of
 * the content, so moderators see what was reported even after an edit or deletion.
 */

export interface ReportInput {
  reason: ReportReason;
  details?: string | undefined;
}

function filedView(row: UserReportRow) {
  return {
    id: row.id,
    targetType: ReportTargetTypeEnum.toApi(row.targetType),
    targetId: row.targetId,
    reason: row.reason,
    details: row.details,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

async function file(deps: ServiceDeps, reporterId: string, target: { type: ReportTargetType; id: string; userId: string; snapshot: ReportSnapshot }, input: ReportInput) {
  const { db } = deps;
  const row = await repo.insertReport(db, {
    reporterId,
    targetType: target.type,
    targetId: target.id,
    targetUserId: target.userId,
    reason: input.reason,
    details: input.details?.trim() || null,
    snapshot: target.snapshot,
  });
  if (!row) throw ReportErrors.alreadyOpen();
  return filedView(row);
}

export async function reportPost(deps: ServiceDeps, reporterId: string, postId: string, input: ReportInput) {
  const post = await requireVisiblePost(deps, reporterId, postId);
  if (isAuthor(reporterId, post)) throw ReportErrors.ownContent('post');
  return file(deps, reporterId, { type: 'post', id: post.id, userId: post.authorId, snapshot: { text: post.text, photoUrls: post.photoUrls, username: post.authorUsername } }, input);
}

export async function reportComment(deps: ServiceDeps, reporterId: string, commentId: string, input: ReportInput) {
  const comment = await requireVisibleComment(deps, reporterId, commentId);
  if (isAuthor(reporterId, comment)) throw ReportErrors.ownContent('comment');
  return file(deps, reporterId, { type: 'comment', id: comment.id, userId: comment.authorId, snapshot: { text: comment.text, postId: comment.postId, username: comment.authorUsername } }, input);
}

export async function reportUser(deps: ServiceDeps, reporterId: string, userId: string, input: ReportInput) {
  if (isSelf(reporterId, userId)) throw ReportErrors.self();
  const user = await findById(deps, userId);
  if (!user) throw ReportErrors.userNotFound(userId);
  return file(deps, reporterId, { type: 'user', id: user.id, userId: user.id, snapshot: { username: user.username } }, input);
}

// ---- for the administration of reports ----

export type { ReportWithUsers, ReportFilter } from './content-reports.repository.js';

export function listReports(deps: ServiceDeps<DbOrTx>, filter: repo.ReportFilter, page: Page) {
  const { db } = deps;
  return repo.listReports(db, filter, page);
}

export function findReport(deps: ServiceDeps<DbOrTx>, id: string) {
  const { db } = deps;
  return repo.findReport(db, id);
}

/** Marks an open report resolved, in the caller's transaction (409 when it already is). */
export async function markResolved(deps: ServiceDeps<DbOrTx>, id: string, values: { resolution: ReportResolution; note: string | null; resolvedBy: string }): Promise<UserReportRow> {
  const { db: tx } = deps;
  const report = await repo.lockReport(tx, id);
  if (!report) throw ReportErrors.notFound(id);
  if (report.status !== 'Open') throw ReportErrors.alreadyResolved();
  await repo.resolve(tx, id, { resolution: values.resolution, resolutionNote: values.note, resolvedBy: values.resolvedBy });
  return report;
}
