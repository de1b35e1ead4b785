import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { notify } from '../../core/notifications/outbox.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { commentsForReview } from './comments.service.js';
import { postsForReview } from './posts.service.js';
import { findReport, listReports as listSocialReports, markResolved, type ReportFilter, type ReportWithUsers } from './content-reports.service.js';
import type { ReportResolution } from './content-reports.tables.js';
import { decideInTx } from '../moderation/moderation.admin.service.js';
import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { AdminReportErrors } from './content-reports.admin.errors.js';
import { ReportTargetTypeEnum } from './content-reports.schemas.js';

/**
 * User reports for moderators: the list (with what the content is now) and the resolution,
 * audit-logged. Resolving with ContentRejected rejects the post or comment in the same
 * transaction, as a moderation decision of its own (audit-logged too).
 */

async function views(deps: ServiceDeps<DbOrTx>, rows: ReportWithUsers[]) {
  const postIds = rows.filter((r) => r.targetType === 'post').map((r) => r.targetId);
  const commentIds = rows.filter((r) => r.targetType === 'comment').map((r) => r.targetId);
  const [postRows, commentRows] = await Promise.all([postsForReview(deps, postIds), commentsForReview(deps, commentIds)]);
  const states = new Map<string, 'Published' | 'PendingReview' | 'Rejected'>([...postRows, ...commentRows].map((c) => [c.id, c.status]));
  return rows.map((r) => ({
    id: r.id,
    targetType: ReportTargetTypeEnum.toApi(r.targetType),
    targetId: r.targetId,
    target: {
      user: r.targetUserId && r.targetUsername ? { id: r.targetUserId, username: r.targetUsername } : null,
      state: r.targetType === 'user' ? ('Active' as const) : (states.get(r.targetId) ?? ('Deleted' as const)),
      snapshot: r.snapshot,
    },
    reporter: { id: r.reporterId, username: r.reporterUsername },
    reason: r.reason,
    details: r.details,
    status: r.status,
    resolution: r.resolution,
    resolutionNote: r.resolutionNote,
    resolvedBy: r.resolvedBy && r.resolverUsername ? { id: r.resolvedBy, username: r.resolverUsername } : null,
    resolvedAt: r.resolvedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  }));
}

export async function listReports(deps: ServiceDeps, context: AuditContext, filter: ReportFilter, page: Page) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const { items, total } = await listSocialReports(inTx(deps, tx), filter, page);
    await recordAudit(inTx(deps, tx), context, { action: 'reports.listed', targetType: 'user_report', after: { ...filter, page: page.page, count: items.length } });
    return { items: await views(inTx(deps, tx), items), total };
  });
}

export async function resolveReport(deps: ServiceDeps, context: AuditContext, id: string, input: { resolution: ReportResolution; note?: string | undefined }) {
  const note = input.note?.trim() || null;
  await deps.db.transaction(async (tx) => {
    const report = await markResolved(inTx(deps, tx), id, { resolution: input.resolution, note, resolvedBy: context.actor.userId! });
    if (input.resolution === 'ContentRejected') {
      if (report.targetType === 'user') throw AdminReportErrors.notContent();
      const reason = note ?? `Removed after a report (${report.reason}).`;
      try {
        await decideInTx(inTx(deps, tx), context, report.targetType, report.targetId, 'reject', reason, { quiet: true, via: `report ${id}` });
      } catch (error) {
        if ((error as { status?: number }).status === 404) throw AdminReportErrors.targetGone(report.targetType);
        throw error;
      }
    }
    await recordAudit(inTx(deps, tx), context, {
      action: 'reports.resolved',
      targetType: 'user_report',
      targetId: id,
      reason: note,
      before: { status: 'Open' },
      after: { status: 'Resolved', resolution: input.resolution, targetType: report.targetType, targetId: report.targetId },
    });
    // The reporter learns the outcome, not who else reported nor what happened to the reported user beyond it.
    await notify(tx, {
      type: 'reports.resolved',
      path: report.targetType === 'user' ? `/api/userprofile/${report.targetId}` : `/api/social/${report.targetType}s/${report.targetId}`,
      payload: { id, resolution: input.resolution },
      recipients: [{ userId: report.reporterId, title: 'Your report was resolved', body: `Thank you: the moderators resolved your report (${input.resolution}).` }],
    });
  });
  return (await views(deps, [(await findReport(deps, id))!]))[0]!;
}
