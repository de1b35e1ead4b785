import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import * as moderation from './moderation.repository.js';
import { CONTENT_TYPES, type ContentStatus, type ContentType } from './moderation.types.js';
import { moderatedContent, type ItemForReview } from './moderated-content.service.js';
import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { AdminModerationErrors } from './moderation.admin.errors.js';
import { ContentTypeEnum, HoldReasonEnum, RuleActionEnum } from './moderation.admin.schemas.js';

/**
 * The review queue and the moderators' decisions. A decision changes the content's status (the
 * author sees the outcome and the reason), closes its queue item and is audit-logged, all in
 * one transaction. Approve publishes held or rejected content; reject takes down held or
 * published content.
 */

export async function listPending(deps: ServiceDeps, context: AuditContext, filter: { contentType?: ContentType | undefined }, page: Page) {
  return deps.db.transaction(async (tx) => {
    const { items, total } = await moderation.listPending(tx, filter, page);
    const held = items.map((item) => ({ item, type: (item.postId ? 'post' : 'comment') as ContentType, contentId: (item.postId ?? item.commentId)! }));
    // One read per content type, through the type's registration.
    const found = await Promise.all(
      CONTENT_TYPES.map(async (type) => {
        const ids = held.filter((h) => h.type === type).map((h) => h.contentId);
        return ids.length === 0 ? [] : (await moderatedContent(deps, type).forReview(inTx(deps, tx), ids)).map((content) => [`${type}:${content.id}`, content] as const);
      }),
    );
    const contents = new Map<string, ItemForReview>(found.flat());
    const views = held.flatMap(({ item, type, contentId }) => {
      const content = contents.get(`${type}:${contentId}`);
      if (!content) return [];
      return [
        {
          id: item.id,
          contentType: ContentTypeEnum.toApi(type),
          contentId: content.id,
          postId: content.postId,
          author: { id: content.authorId, username: content.authorUsername },
          text: content.text,
          photoUrls: content.photoUrls,
          photos: content.photos,
          moderationStatus: content.status,
          heldBecause: HoldReasonEnum.toApi(item.heldBecause),
          provider: item.provider,
          model: item.model,
          categories: item.categories,
          scores: item.scores,
          matchedRules: item.matchedRules.map((r) => ({ ...r, action: RuleActionEnum.toApi(r.action) })),
          flaggedAt: item.flaggedAt.toISOString(),
          createdAt: content.createdAt.toISOString(),
        },
      ];
    });
    await recordAudit(inTx(deps, tx), context, { action: 'moderation.queue_viewed', targetType: 'moderation_queue', after: { contentType: filter.contentType ?? null, page: page.page, count: views.length } });
    return { items: views, total };
  });
}

export type DecisionKind = 'approve' | 'reject';

/**
 * Approves or rejects a post or comment inside the caller's transaction (with its audit entry).
 * `quiet` skips the 409 when the content already has the outcome (used by report resolutions).
 */
export async function decideInTx(
  deps: ServiceDeps<DbOrTx>,
  context: AuditContext,
  contentType: ContentType,
  id: string,
  decision: DecisionKind,
  reason: string | null,
  options: { quiet?: boolean; via?: string } = {},
) {
  const tx = deps.db;
  const type = moderatedContent(deps, contentType);
  const content = await type.lock(tx, id);
  if (!content) throw AdminModerationErrors.contentNotFound(contentType, id);
  const status: ContentStatus = decision === 'approve' ? 'Published' : 'Rejected';
  const decidedBy = context.actor.userId ?? null;
  const decidedAt = new Date();
  if (content.status === status) {
    if (!options.quiet) throw decision === 'approve' ? AdminModerationErrors.alreadyPublished(contentType) : AdminModerationErrors.alreadyRejected(contentType);
  } else {
    await type.setStatus(tx, content, status, reason);
    const target = contentType === 'post' ? { postId: id } : { commentId: id };
    await moderation.recordDecision(tx, target, { status: decision === 'approve' ? 'Approved' : 'Rejected', decidedBy, reason });
    await recordAudit(inTx(deps, tx), context, {
      action: `moderation.${contentType}_${decision === 'approve' ? 'approved' : 'rejected'}`,
      targetType: contentType,
      targetId: id,
      reason,
      before: { status: content.status },
      after: { status, authorId: content.authorId, ...(options.via ? { via: options.via } : {}) },
    });
    if (status === 'Rejected') await type.notifyRejection?.(tx, content, reason);
  }
  return {
    contentType: ContentTypeEnum.toApi(contentType),
    contentId: id,
    moderationStatus: status,
    moderationReason: status === 'Rejected' ? reason : null,
    decidedBy: decidedBy ?? '',
    decidedAt: decidedAt.toISOString(),
  };
}

export async function decide(deps: ServiceDeps, context: AuditContext, contentType: ContentType, id: string, decision: DecisionKind, reason: string | null) {
  return deps.db.transaction((tx) => decideInTx(inTx(deps, tx), context, contentType, id, decision, reason));
}
