import type { ServiceDeps } from '../../core/service-deps.js';
import { PostErrors } from './posts.errors.js';
import * as repo from './posts.repository.js';
import { requireVisiblePost } from './posts.service.js';

/**
 * Likes: idempotent (a second like or unlike changes nothing), and `likeCount` changes in the
 * same transaction as the like row, by an atomic increment, so concurrent likes all count.
 */

export async function like(deps: ServiceDeps, viewerId: string, postId: string) {
  const { db } = deps;
  const post = await requireVisiblePost(deps, viewerId, postId);
  if (post.status !== 'Published') throw PostErrors.notPublished(post.status);
  const likeCount = await db.transaction((tx) => repo.addLike(tx, postId, viewerId));
  // Deleted after the check above: the same 404 as when it was gone from the start.
  if (likeCount === undefined) throw PostErrors.notFound(postId);
  return { postId, liked: true, likeCount };
}

export async function unlike(deps: ServiceDeps, viewerId: string, postId: string) {
  const { db } = deps;
  await requireVisiblePost(deps, viewerId, postId);
  const likeCount = await db.transaction((tx) => repo.removeLike(tx, postId, viewerId));
  if (likeCount === undefined) throw PostErrors.notFound(postId);
  return { postId, liked: false, likeCount };
}
