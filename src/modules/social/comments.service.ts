import type { FastifyBaseLogger } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import type { Db, DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { applyVerdict, moderateContent } from '../moderation/moderation.service.js';
import type { ContentStatus } from '../moderation/moderation.types.js';
import { CommentErrors } from './comments.errors.js';
import * as repo from './comments.repository.js';
import { PostErrors } from './posts.errors.js';
import * as posts from './posts.repository.js';
import { postVisibleTo, requireVisiblePost, type ModeratedContent } from './posts.service.js';

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
    moderationReason: row.authorId === viewerId ? row.moderationReason : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function countDelta(before: ContentStatus | undefined, after: ContentStatus | undefined): number {
  return (after === 'Published' ? 1 : 0) - (before === 'Published' ? 1 : 0);
}

export async function listComments(db: Db, viewerId: string, postId: string, page: Page) {
  await requireVisiblePost(db, viewerId, postId);
  const { items, total } = await repo.listComments(db, postId, viewerId, page);
  return { items: items.map((c) => commentView(c, viewerId)), total };
}

/** The comment, when `viewerId` may see it (its post visible; published or theirs). */
export async function requireVisibleComment(db: DbOrTx, viewerId: string, commentId: string): Promise<repo.CommentWithAuthor> {
  const comment = await repo.findComment(db, commentId);
  if (!comment) throw CommentErrors.notFound(commentId);
  const post = await posts.findPost(db, comment.postId);
  const visible = post !== undefined && (await postVisibleTo(db, viewerId, post)) && (comment.status === 'Published' || comment.authorId === viewerId);
  if (!visible) throw CommentErrors.notVisible();
  return comment;
}

export async function addComment(db: Db, viewerId: string, postId: string, text: string, log?: Log) {
  const post = await requireVisiblePost(db, viewerId, postId);
  if (post.status !== 'Published') throw PostErrors.notPublished(post.status);
  const id = uuidv7();
  const verdict = await moderateContent(db, { contentType: 'comment', contentId: id, text, imageUrls: [] }, log);
  await db.transaction(async (tx) => {
    // The post may have been deleted while moderation ran: that is a 404, not a foreign-key conflict.
    if (!(await posts.findPost(tx, postId, { forUpdate: true }))) throw PostErrors.notFound(postId);
    await repo.insertComment(tx, { id, postId, authorId: viewerId, text, status: verdict.status, moderationReason: verdict.reason, moderatedAt: new Date() });
    await posts.adjustCommentCount(tx, postId, countDelta(undefined, verdict.status));
    await applyVerdict(tx, verdict, { commentId: id });
  });
  return reread(db, id, viewerId);
}

/** The comment as it is now; a 404 if it was deleted in between. */
async function reread(db: DbOrTx, commentId: string, viewerId: string) {
  const comment = await repo.findComment(db, commentId);
  if (!comment) throw CommentErrors.notFound(commentId);
  return commentView(comment, viewerId);
}

export async function updateComment(db: Db, viewerId: string, commentId: string, text: string, log?: Log) {
  const current = await repo.findComment(db, commentId);
  if (!current) throw CommentErrors.notFound(commentId);
  if (current.authorId !== viewerId) throw CommentErrors.notAuthor();
  const verdict =
    text === current.text
      ? undefined
      : await moderateContent(db, { contentType: 'comment', contentId: commentId, text, imageUrls: [], previouslyRejectedByModerator: current.moderatorRejected }, log);
  if (verdict) {
    await db.transaction(async (tx) => {
      const locked = await repo.findComment(tx, commentId, { forUpdate: true });
      if (!locked) throw CommentErrors.notFound(commentId);
      await repo.updateComment(tx, commentId, { text, status: verdict.status, moderationReason: verdict.reason, moderatedAt: new Date(), updatedAt: new Date() });
      await posts.adjustCommentCount(tx, locked.postId, countDelta(locked.status, verdict.status));
      await applyVerdict(tx, verdict, { commentId });
    });
  }
  return reread(db, commentId, viewerId);
}

export async function deleteComment(db: Db, viewerId: string, commentId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const comment = await repo.findComment(tx, commentId, { forUpdate: true });
    if (!comment) throw CommentErrors.notFound(commentId);
    if (comment.authorId !== viewerId) {
      const post = await posts.findPost(tx, comment.postId);
      if (post?.authorId !== viewerId) throw CommentErrors.cannotDelete();
    }
    await repo.deleteComment(tx, commentId);
    await posts.adjustCommentCount(tx, comment.postId, countDelta(comment.status, undefined));
  });
}

// ---- for moderation (admin) ----

export async function lockCommentForModeration(tx: DbOrTx, commentId: string): Promise<(ModeratedContent & { postId: string }) | undefined> {
  const comment = await repo.findComment(tx, commentId, { forUpdate: true });
  return comment ? { id: comment.id, authorId: comment.authorId, status: comment.status, postId: comment.postId } : undefined;
}

/** Sets a comment's status as a moderator decided it, keeping its post's count in step. */
export async function setCommentStatus(tx: DbOrTx, comment: { id: string; postId: string; status: ContentStatus }, status: ContentStatus, reason: string | null): Promise<void> {
  await repo.setStatus(tx, comment.id, { status, moderationReason: status === 'Rejected' ? reason : null, moderatorRejected: status === 'Rejected' });
  await posts.adjustCommentCount(tx, comment.postId, countDelta(comment.status, status));
}

export async function commentsForReview(db: DbOrTx, ids: string[]) {
  return repo.commentsByIds(db, ids);
}
