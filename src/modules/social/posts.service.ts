import { relationshipsOf } from '../../core/access/visibility.js';
import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import type { FastifyBaseLogger } from 'fastify';
import { allows, authorize } from '../../core/access/policy.js';
import { catchPolicy, entryPolicy, isAuthor, postPolicy } from '../../core/access/policies/index.js';
import { uuidv7 } from '../../core/db/ids.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { FeedPage } from '../../core/http/pagination.js';
import { applyChange, type Change } from '../../core/http/merge-patch.js';
import { ReplacePostBody, type ReplacePostInput } from './posts.schemas.js';
import { applyVerdict, moderateContent } from '../moderation/moderation.service.js';
import type { ModeratedContentType } from '../moderation/moderated-content.service.js';
import { notify } from '../../core/notifications/outbox.js';
import { PostErrors } from './posts.errors.js';
import * as repo from './posts.repository.js';
import type { Visibility } from '../../core/access/visibility.js';
import { photosForReview, photoViews } from '../photos/photos.service.js';

/**
 * Posts: visibility (the shared predicate), ownership, links to the author's fishing log, and
 * moderation before publishing. A post is visible to its author in any status, and to others
 * only once published and as far as its visibility allows.
 */

type Log = Pick<FastifyBaseLogger, 'warn' | 'info'>;

export interface PostInput {
  text?: string | undefined;
  photoUrls?: string[] | undefined;
  visibility?: Visibility | undefined;
  logEntryId?: string | null | undefined;
  catchId?: string | null | undefined;
}

/** Whether `viewerId` may see the post: its author always, others once published and shared with them. */
export async function postVisibleTo(deps: ServiceDeps<DbOrTx>, viewerId: string, post: Pick<repo.PostWithAuthor, 'authorId' | 'status' | 'visibility'>): Promise<boolean> {
  return allows(postPolicy, viewerId, 'read', post, deps);
}

/** The post, when `viewerId` may see it (404 unknown, 403 not shared with them). */
export async function requireVisiblePost(deps: ServiceDeps<DbOrTx>, viewerId: string, postId: string): Promise<repo.PostWithAuthor> {
  const { db } = deps;
  return authorize(postPolicy, viewerId, 'read', await repo.findPost(db, postId), deps, () => PostErrors.notFound(postId));
}

/** Views of posts for one viewer, with links, likes and counts fetched for the whole page at once. */
export async function postViews(deps: ServiceDeps<DbOrTx>, viewerId: string, rows: repo.PostWithAuthor[]) {
  const { db } = deps;
  // Loops rather than flatMap and spread: this runs for every feed page (a flatMap callback
  // allocates an array per post).
  const entryIds = new Set<string>();
  const catchIds = new Set<string>();
  const postIds: string[] = [];
  for (const row of rows) {
    if (row.logEntryId) entryIds.add(row.logEntryId);
    if (row.catchId) catchIds.add(row.catchId);
    postIds.push(row.id);
  }
  const [entries, catchRows, liked, photos] = await Promise.all([
    repo.visibleEntries(db, relationshipsOf(deps), viewerId, Array.from(entryIds)),
    repo.visibleCatches(db, relationshipsOf(deps), viewerId, Array.from(catchIds)),
    repo.likedBy(db, viewerId, postIds),
    photoViews(deps, viewerId, postIds),
  ]);
  const entryById = new Map(entries.map((e) => [e.id, e]));
  const catchById = new Map(catchRows.map((c) => [c.id, c]));
  return rows.map((row) => {
    const entry = row.logEntryId ? entryById.get(row.logEntryId) : undefined;
    const linkedCatch = row.catchId ? catchById.get(row.catchId) : undefined;
    return {
      id: row.id,
      author: { id: row.authorId, username: row.authorUsername },
      text: row.text,
      photoUrls: row.photoUrls,
      photos: photos.get(row.id)!,
      visibility: row.visibility,
      linkedEntry: entry ? { id: entry.id, title: entry.title, occurredAt: entry.occurredAt.toISOString(), waterBody: entry.waterBody } : null,
      linkedCatch: linkedCatch
        ? {
            id: linkedCatch.id,
            entryId: linkedCatch.entryId,
            species: { id: linkedCatch.speciesId, commonName: linkedCatch.speciesName },
            lengthCm: linkedCatch.lengthCm,
            weightKg: linkedCatch.weightKg,
            count: linkedCatch.count,
            released: linkedCatch.released,
            caughtAt: linkedCatch.caughtAt.toISOString(),
          }
        : null,
      likeCount: row.likeCount,
      commentCount: row.commentCount,
      likedByMe: liked.has(row.id),
      moderationStatus: row.status,
      moderationReason: isAuthor(viewerId, row) ? row.moderationReason : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

export type PostView = Awaited<ReturnType<typeof postViews>>[number];

async function viewOf(deps: ServiceDeps<DbOrTx>, viewerId: string, postId: string): Promise<PostView> {
  const { db } = deps;
  const post = await repo.findPost(db, postId);
  if (!post) throw PostErrors.notFound(postId); // deleted in between
  return (await postViews(deps, viewerId, [post]))[0]!;
}

/** Checks that the links name the author's own entry or catch (400 naming the field otherwise). */
async function checkLinks(deps: ServiceDeps<DbOrTx>, authorId: string, input: PostInput): Promise<void> {
  const { db } = deps;
  if (input.logEntryId && input.catchId) throw PostErrors.twoLinks();
  if (input.logEntryId) {
    const entry = await repo.linkableEntry(db, input.logEntryId);
    if (!entry) throw PostErrors.linkNotFound('logEntryId', input.logEntryId);
    if (!(await allows(entryPolicy, authorId, 'link', entry, deps))) throw PostErrors.linkNotOwned('logEntryId');
  }
  if (input.catchId) {
    const linked = await repo.linkableCatch(db, input.catchId);
    if (!linked) throw PostErrors.linkNotFound('catchId', input.catchId);
    if (!(await allows(catchPolicy, authorId, 'link', linked, deps))) throw PostErrors.linkNotOwned('catchId');
  }
}

export async function listFeed(deps: ServiceDeps, viewerId: string, filter: repo.PostFilter, page: FeedPage) {
  const { db } = deps;
  const { ids, last } = await repo.feedPage(db, relationshipsOf(deps), viewerId, filter, page);
  const rows = await repo.postsByIds(db, ids);
  const byId = new Map<string, repo.PostWithAuthor>();
  for (const row of rows) byId.set(row.id, row);
  // In the page's order; a post deleted between the two statements is left out.
  const ordered: repo.PostWithAuthor[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row) ordered.push(row);
  }
  return { items: await postViews(deps, viewerId, ordered), last };
}

export async function getPost(deps: ServiceDeps, viewerId: string, postId: string): Promise<PostView> {
  const post = await requireVisiblePost(deps, viewerId, postId);
  return (await postViews(deps, viewerId, [post]))[0]!;
}

export async function createPost(deps: ServiceDeps, authorId: string, input: PostInput & { text: string }, log?: Log): Promise<PostView> {
  const { db } = deps;
  await checkLinks(deps, authorId, input);
  const id = uuidv7();
  const photoUrls = input.photoUrls ?? [];
  const verdict = await moderateContent(deps, { contentType: 'post', contentId: id, text: input.text, imageUrls: photoUrls }, log);
  await db.transaction(async (tx) => {
    await repo.insertPost(tx, {
      id,
      authorId,
      text: input.text,
      photoUrls,
      visibility: input.visibility ?? 'Public',
      logEntryId: input.logEntryId ?? null,
      catchId: input.catchId ?? null,
      status: verdict.status,
      moderationReason: verdict.reason,
      moderatedAt: new Date(),
    });
    await applyVerdict(inTx(deps, tx), verdict, { postId: id });
  });
  return viewOf(deps, authorId, id);
}

/** PUT (replace) or PATCH (merge patch) of a post. In a patch, a link sent replaces the other kind. */
export async function updatePost(deps: ServiceDeps, viewerId: string, postId: string, change: Change<ReplacePostInput>, log?: Log): Promise<PostView> {
  const { db } = deps;
  const current = await authorize(postPolicy, viewerId, 'update', await repo.findPost(db, postId), deps, () => PostErrors.notFound(postId));
  const input = applyChange(linkSwitched(change), ReplacePostBody, () => ({
    text: current.text,
    photoUrls: current.photoUrls,
    visibility: current.visibility,
    logEntryId: current.logEntryId,
    catchId: current.catchId,
  }));
  await checkLinks(deps, viewerId, input);
  const { text } = input;
  const photoUrls = input.photoUrls ?? [];
  const contentChanged = text !== current.text || photoUrls.length !== current.photoUrls.length || photoUrls.some((u, i) => u !== current.photoUrls[i]);
  const verdict = contentChanged
    ? await moderateContent(deps, { contentType: 'post', contentId: postId, text, imageUrls: photoUrls, previouslyRejectedByModerator: current.moderatorRejected }, log)
    : undefined;
  await db.transaction(async (tx) => {
    const locked = await repo.findPost(tx, postId, { forUpdate: true });
    if (!locked) throw PostErrors.notFound(postId);
    await repo.updatePost(tx, postId, {
      text,
      photoUrls,
      visibility: input.visibility,
      logEntryId: input.logEntryId ?? null,
      catchId: input.catchId ?? null,
      ...(verdict ? { status: verdict.status, moderationReason: verdict.reason, moderatedAt: new Date() } : {}),
      updatedAt: new Date(),
    });
    if (verdict) await applyVerdict(inTx(deps, tx), verdict, { postId });
  });
  return viewOf(deps, viewerId, postId);
}

/** A patch that links an entry unlinks the catch, and the other way round (a post links one of them). */
function linkSwitched(change: Change<ReplacePostInput>): Change<ReplacePostInput> {
  if (!('patch' in change)) return change;
  const patch = { ...change.patch };
  if (patch.logEntryId != null && !('catchId' in patch)) patch.catchId = null;
  if (patch.catchId != null && !('logEntryId' in patch)) patch.logEntryId = null;
  return { patch };
}

export async function deletePost(deps: ServiceDeps, viewerId: string, postId: string): Promise<void> {
  const { db } = deps;
  await db.transaction(async (tx) => {
    await authorize(postPolicy, viewerId, 'delete', await repo.findPost(tx, postId, { forUpdate: true }), inTx(deps, tx), () => PostErrors.notFound(postId));
    await repo.deletePost(tx, postId);
  });
}

// ---- for moderation (admin) ----

export async function postsForReview(deps: ServiceDeps<DbOrTx>, ids: string[]) {
  const { db } = deps;
  return repo.postsByIds(db, ids);
}

/** Posts in the review queue (registered with moderation in social.module.ts). */
export const moderatedPosts: ModeratedContentType = {
  async lock(tx, postId) {
    const post = await repo.findPost(tx, postId, { forUpdate: true });
    return post ? { id: post.id, authorId: post.authorId, status: post.status } : undefined;
  },
  async setStatus(tx, post, status, reason) {
    await repo.setStatus(tx, post.id, { status, moderationReason: status === 'Rejected' ? reason : null, moderatorRejected: status === 'Rejected' });
  },
  async forReview(deps, ids) {
    const [posts, photos] = await Promise.all([postsForReview(deps, ids), photosForReview(deps, ids)]);
    return posts.map((post) => ({ ...post, postId: post.id, photos: photos.get(post.id) ?? [] }));
  },
  async notifyRejection(tx, post, reason) {
    await notify(tx, {
      type: 'moderation.post_rejected',
      path: `/api/social/posts/${post.id}`,
      payload: { id: post.id, status: 'Rejected' },
      recipients: [{ userId: post.authorId, title: 'Post rejected', body: `Moderation rejected your post${reason ? `: ${reason}` : ''}. Only you see it now.` }],
    });
  },
};
