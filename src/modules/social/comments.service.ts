import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import type { FastifyBaseLogger } from 'fastify';
import { authorize } from '../../core/access/policy.js';
import { commentPolicy } from '../../core/access/policies/comments.js';
import { isAuthor } from '../../core/access/policies/posts.js';
import { uuidv7 } from '../../core/db/ids.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { applyVerdict, moderateContent } from '../moderation/moderation.service.js';
import type { ContentStatus } from '../moderation/index.js';
import type { ModeratedContentType, ModeratedItem } from '../moderation/moderated-content.service.js';
import { CommentErrors } from './comments.errors.js';
import * as repo from './comments.repository.js';
import { PostErrors } from './posts.errors.js';
import * as posts from './posts.repository.js';
import { requireVisiblePost } from './posts.service.js';

/**
 * Comments follow their post's visibility; a comment itself is seen by everyone who sees the
 * post once published, by its author in any status. Commenting needs the post visible and
 * published. Comments are moderated like posts; `commentCount` counts published ones.
 */

type Log = Pick<FastifyBaseLogger, 'warn' | 'info'>;

export function commentView(row: repo.CommentWithAuthor, viewerId: string | null) {
  return {
    id: row.id,
    postId: row.postId,
    author: { id: row.authorId, username: row.authorUsername },
    text: row.text,
    moderationStatus: row.status,
    moderationReason: viewerId !== null && isAuthor(viewerId, row) ? row.moderationReason : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function countDelta(before: ContentStatus | undefined, after: ContentStatus | undefined): number {
  return (after === 'Published' ? 1 : 0) - (before === 'Published' ? 1 : 0);
}

export async function listComments(deps: ServiceDeps, viewerId: string, postId: string, page: Page) {
  const { db } = deps;
  await requireVisiblePost(deps, viewerId, postId);
  const { items, total } = await repo.listComments(db, postId, viewerId, page);
  return { items: items.map((c) => commentView(c, viewerId)), total };
}

/** A comment with its post, as the comment policy judges it (`withPostRow: false` when the rule needs only the comment). */
async function withPost<C extends { postId: string }>(deps: ServiceDeps<DbOrTx>, comment: C | undefined, withPostRow = true) {
  const { db } = deps;
  return comment && { ...comment, post: withPostRow ? await posts.findPost(db, comment.postId) : undefined };
}

/** The comment, when `viewerId` may see it (its post visible; published or theirs). */
export async function requireVisibleComment(deps: ServiceDeps<DbOrTx>, viewerId: string, commentId: string): Promise<repo.CommentWithAuthor> {
  const { db } = deps;
  return authorize(commentPolicy, viewerId, 'read', await withPost(deps, await repo.findComment(db, commentId)), deps, () => CommentErrors.notFound(commentId));
}

export async function addComment(deps: ServiceDeps, viewerId: string, postId: string, text: string, log?: Log) {
  const { db } = deps;
  const post = await requireVisiblePost(deps, viewerId, postId);
  if (post.status !== 'Published') throw PostErrors.notPublished(post.status);
  const id = uuidv7();
  const verdict = await moderateContent(deps, { contentType: 'comment', contentId: id, text, imageUrls: [] }, log);
  await db.transaction(async (tx) => {
    // The post may have been deleted while moderation ran: that is a 404, not a foreign-key conflict.
    if (!(await posts.findPost(tx, postId, { forUpdate: true }))) throw PostErrors.notFound(postId);
    await repo.insertComment(tx, { id, postId, authorId: viewerId, text, status: verdict.status, moderationReason: verdict.reason, moderatedAt: new Date() });
    await posts.adjustCommentCount(tx, postId, countDelta(undefined, verdict.status));
    await applyVerdict(inTx(deps, tx), verdict, { commentId: id });
  });
  return reread(deps, id, viewerId);
}

/** The comment as it is now; a 404 if it was deleted in between. */
async function reread(deps: ServiceDeps<DbOrTx>, commentId: string, viewerId: string) {
  const { db } = deps;
  const comment = await repo.findComment(db, commentId);
  if (!comment) throw CommentErrors.notFound(commentId);
  return commentView(comment, viewerId);
}

export async function updateComment(deps: ServiceDeps, viewerId: string, commentId: string, text: string, log?: Log) {
  const { db } = deps;
  const current = await authorize(commentPolicy, viewerId, 'update', await withPost(deps, await repo.findComment(db, commentId), false), deps, () => CommentErrors.notFound(commentId));
  const verdict =
    text === current.text
      ? undefined
      : await moderateContent(deps, { contentType: 'comment', contentId: commentId, text, imageUrls: [], previouslyRejectedByModerator: current.moderatorRejected }, log);
  if (verdict) {
    await db.transaction(async (tx) => {
      const locked = await repo.findComment(tx, commentId, { forUpdate: true });
      if (!locked) throw CommentErrors.notFound(commentId);
      await repo.updateComment(tx, commentId, { text, status: verdict.status, moderationReason: verdict.reason, moderatedAt: new Date(), updatedAt: new Date() });
      await posts.adjustCommentCount(tx, locked.postId, countDelta(locked.status, verdict.status));
      await applyVerdict(inTx(deps, tx), verdict, { commentId });
    });
  }
  return reread(deps, commentId, viewerId);
}

export async function deleteComment(deps: ServiceDeps, viewerId: string, commentId: string): Promise<void> {
  const { db } = deps;
  await db.transaction(async (tx) => {
    const comment = await authorize(commentPolicy, viewerId, 'delete', await withPost(inTx(deps, tx), await repo.findComment(tx, commentId, { forUpdate: true })), inTx(deps, tx), () => CommentErrors.notFound(commentId));
    await repo.deleteComment(tx, commentId);
    await posts.adjustCommentCount(tx, comment.postId, countDelta(comment.status, undefined));
  });
}

// ---- for moderation (admin) ----

export async function commentsForReview(deps: ServiceDeps<DbOrTx>, ids: string[]) {
  const { db } = deps;
  return repo.commentsByIds(db, ids);
}

/** Comments in the review queue (registered with moderation in social.module.ts); a decision keeps the post's count in step. */
export const moderatedComments: ModeratedContentType<ModeratedItem & { postId: string }> = {
  async lock(tx, commentId) {
    const comment = await repo.findComment(tx, commentId, { forUpdate: true });
    return comment ? { id: comment.id, authorId: comment.authorId, status: comment.status, postId: comment.postId } : undefined;
  },
  async setStatus(tx, comment, status, reason) {
    await repo.setStatus(tx, comment.id, { status, moderationReason: status === 'Rejected' ? reason : null, moderatorRejected: status === 'Rejected' });
    await posts.adjustCommentCount(tx, comment.postId, countDelta(comment.status, status));
  },
  async forReview(deps, ids) {
    return (await commentsForReview(deps, ids)).map((comment) => ({ ...comment, photoUrls: [], photos: [] }));
  },
};
