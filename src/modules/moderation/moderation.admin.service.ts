import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { notify } from '../../core/notifications/outbox.js';
import type { Db, DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import * as moderation from './moderation.repository.js';
import type { ContentStatus, ContentType } from './moderation.types.js';
import { commentsForReview, lockCommentForModeration, setCommentStatus } from '../social/comments.service.js';
import { lockPostForModeration, postsForReview, setPostStatus } from '../social/posts.service.js';
import { AdminModerationErrors } from './moderation.admin.errors.js';
import { ContentTypeEnum, HoldReasonEnum, RuleActionEnum } from './moderation.admin.schemas.js';

/**
 * The review queue and the moderators' decisions. A decision changes the content's status (the
 * author sees the outcome and the reason), closes its queue item and is audit-logged, all in
 * one transaction. Approve publishes held or rejected content; reject takes down held or
 * published content.
 */

export async function listPending(db: Db, context: AuditContext, filter: { contentType?: ContentType | undefined }, page: Page) {
  return db.transaction(async (tx) => {
    const { items, total } = await moderation.listPending(tx, filter, page);
    const postIds = items.flatMap((i) => (i.postId ? [i.postId] : []));
    const commentIds = items.flatMap((i) => (i.commentId ? [i.commentId] : []));
    const [postRows, commentRows] = await Promise.all([postsForReview(tx, postIds), commentsForReview(tx, commentIds)]);
    const postsById = new Map(postRows.map((p) => [p.id, p]));
    const commentsById = new Map(commentRows.map((c) => [c.id, c]));
    const views = items.flatMap((item) => {
      const content = item.postId ? postsById.get(item.postId) : commentsById.get(item.commentId!);
      if (!content) return [];
      const post = item.postId ? postsById.get(item.postId) : undefined;
      return [
        {
          id: item.id,
          contentType: ContentTypeEnum.toApi(item.postId ? 'post' : 'comment'),
          contentId: content.id,
          postId: post ? post.id : (commentsById.get(item.commentId!)!.postId as string),
          author: { id: content.authorId, username: content.authorUsername },
          text: content.text,
          photoUrls: post ? post.photoUrls : [],
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
    await recordAudit(tx, context, { action: 'moderation.queue_viewed', targetType: 'moderation_queue', after: { contentType: filter.contentType ?? null, page: page.page, count: views.length } });
    return { items: views, total };
  });
}

export type DecisionKind = 'approve' | 'reject';

/**
 * Approves or rejects a post or comment inside the caller's transaction (with its audit entry).
 * `quiet` skips the 409 when the content already has the outcome (used by report resolutions).
 */
export async function decideInTx(
  tx: DbOrTx,
  context: AuditContext,
  contentType: ContentType,
  id: string,
  decision: DecisionKind,
  reason: string | null,
  options: { quiet?: boolean; via?: string } = {},
) {
  const content = contentType === 'post' ? await lockPostForModeration(tx, id) : await lockCommentForModeration(tx, id);
  if (!content) throw AdminModerationErrors.contentNotFound(contentType, id);
  const status: ContentStatus = decision === 'approve' ? 'Published' : 'Rejected';
  const decidedBy = context.actor.userId ?? null;
  const decidedAt = new Date();
  if (content.status === status) {
    if (!options.quiet) throw decision === 'approve' ? AdminModerationErrors.alreadyPublished(contentType) : AdminModerationErrors.alreadyRejected(contentType);
  } else {
    if (contentType === 'post') await setPostStatus(tx, id, status, reason);
    else await setCommentStatus(tx, content as typeof content & { postId: string }, status, reason);
    const target = contentType === 'post' ? { postId: id } : { commentId: id };
    await moderation.recordDecision(tx, target, { status: decision === 'approve' ? 'Approved' : 'Rejected', decidedBy, reason });
    await recordAudit(tx, context, {
      action: `moderation.${contentType}_${decision === 'approve' ? 'approved' : 'rejected'}`,
      targetType: contentType,
      targetId: id,
      reason,
      before: { status: content.status },
      after: { status, authorId: content.authorId, ...(options.via ? { via: options.via } : {}) },
    });
    if (contentType === 'post' && status === 'Rejected') {
      await notify(tx, {
        type: 'moderation.post_rejected',
        path: `/api/social/posts/${id}`,
        payload: { id, status },
        recipients: [{ userId: content.authorId, title: 'Post rejected', body: `Moderation rejected your post${reason ? `: ${reason}` : ''}. Only you see it now.` }],
      });
    }
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

export async function decide(db: Db, context: AuditContext, contentType: ContentType, id: string, decision: DecisionKind, reason: string | null) {
  return db.transaction((tx) => decideInTx(tx, context, contentType, id, decision, reason));
}
