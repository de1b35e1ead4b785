import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { friendsOnlyBranchParts, visibilityBranchParts, visibleTo, type RelationshipProvider } from '../../core/access/visibility.js';
import type { FeedScope } from '../../core/access/visibility-levels.js';
import type { DbOrTx } from '../../core/db/client.js';
import { afterKeySql, feedKeySql, newestOfBranch, newestOfBranches, shapedFeedStatements, type FeedShape } from '../../core/db/keyset.js';
import { anyUuid, columnsOf, namedStatement, placeholder } from '../../core/db/prepared.js';
import type { FeedKey, FeedPage } from '../../core/http/pagination.js';
import { catches, logEntries } from '../fishing-log/index.js';
import type { ContentStatus } from '../moderation/index.js';
import { fishSpecies } from '../species/index.js';
import { users } from '../users/index.js';
import { postLikes, posts, type PostRow } from './posts.tables.js';

/** SQL of posts and likes; the rules (visibility of one post, ownership) are in the services. */

export interface PostWithAuthor extends PostRow {
  authorUsername: string;
}

const withAuthor = { ...getColumns(), authorUsername: users.username };

function getColumns() {
  return {
    id: posts.id,
    authorId: posts.authorId,
    text: posts.text,
    photoUrls: posts.photoUrls,
    logEntryId: posts.logEntryId,
    catchId: posts.catchId,
    visibility: posts.visibility,
    status: posts.status,
    moderationReason: posts.moderationReason,
    moderatorRejected: posts.moderatorRejected,
    moderatedAt: posts.moderatedAt,
    likeCount: posts.likeCount,
    commentCount: posts.commentCount,
    createdAt: posts.createdAt,
    updatedAt: posts.updatedAt,
  };
}

export async function insertPost(db: DbOrTx, row: typeof posts.$inferInsert): Promise<void> {
  await db.insert(posts).values(row);
}

export async function findPost(db: DbOrTx, id: string, options: { forUpdate?: boolean } = {}): Promise<PostWithAuthor | undefined> {
  const query = db.select(withAuthor).from(posts).innerJoin(users, eq(users.id, posts.authorId)).where(eq(posts.id, id));
  const [row] = options.forUpdate ? await query.for('update', { of: posts }) : await query;
  return row;
}

/** Rows as pg returns them (no Drizzle mapping per cell: the feed's rows are the hot path). */
const postsByIdsStatement = namedStatement<PostWithAuthor, { ids: string[] }>(
  'posts_by_ids',
  () => sql`SELECT ${columnsOf(posts)}, ${users.username} AS "authorUsername"
    FROM ${posts} INNER JOIN ${users} ON ${users.id} = ${posts.authorId} WHERE ${anyUuid(posts.id, 'ids')}`,
);

export async function postsByIds(db: DbOrTx, ids: string[]): Promise<PostWithAuthor[]> {
  if (ids.length === 0) return [];
  return postsByIdsStatement.rows(db, { ids });
}

export async function updatePost(db: DbOrTx, id: string, patch: Partial<typeof posts.$inferInsert>): Promise<void> {
  await db.update(posts).set(patch).where(eq(posts.id, id));
}

export async function deletePost(db: DbOrTx, id: string): Promise<void> {
  await db.delete(posts).where(eq(posts.id, id));
}

export async function setStatus(db: DbOrTx, id: string, values: { status: ContentStatus; moderationReason: string | null; moderatorRejected: boolean }): Promise<void> {
  await db
    .update(posts)
    .set({ ...values, moderatedAt: new Date() })
    .where(eq(posts.id, id));
}

export async function adjustCommentCount(db: DbOrTx, postId: string, delta: number): Promise<void> {
  if (delta === 0) return;
  await db
    .update(posts)
    .set({ commentCount: sql`greatest(${posts.commentCount} + ${delta}, 0)` })
    .where(eq(posts.id, postId));
}

/** The feed's filters: one author, or only friends' posts (`scope: 'friends'`, never the viewer's own: `friendsOnlyBranchParts`). */
export interface PostFilter {
  authorId?: string | undefined;
  scope?: FeedScope | undefined;
}

/**
 * The feed's query. Branches limited to related authors (Friends, Circle) read per author
 * (`newestOfBranch`); filtered to one author, that author's own index range bounds what is read.
 * The Public branch leads (`newestOfBranches`): the others read nothing older than its page.
 */
function feedQuery(relationships: RelationshipProvider, viewerId: string, filter: PostFilter, page: FeedPage): SQL {
  if (filter.scope === 'friends') return friendsFeedQuery(relationships, viewerId, filter, page);
  const [own, ...others] = visibilityBranchParts(relationships, viewerId, posts.authorId, posts.visibility);
  const after = afterKeySql(posts.createdAt, posts.id, page.after);
  const where = [...(filter.authorId ? [sql`${posts.authorId} = ${filter.authorId}`] : []), ...(after ? [after] : [])];
  const source = { table: posts, owner: posts.authorId, id: posts.id, time: posts.createdAt, timeAs: 'created_at' };
  const perAuthor = !filter.authorId;
  // Limits as literals (validated integers), as in the entries feed: plans costed for the rows read.
  const window = page.offset + page.limit;
  const parts = [{ branch: own!, source: { ...source, where } }, ...others.map((branch) => ({ branch, source: { ...source, where: [sql`${posts.status} = 'Published'`, ...where] } }))];
  return sql`SELECT id, ${feedKeySql(sql`created_at`)} AS key FROM (${newestOfBranches(parts, window, perAuthor)}) feed
             ORDER BY created_at DESC, id DESC LIMIT ${sql.raw(String(page.limit))} OFFSET ${sql.raw(String(page.offset))}`;
}

/**
 * The friends-only feed: friends' published posts the viewer may see, each branch read per friend
 * (a LATERAL subquery on posts_author_visibility_time_idx), always: the Public branch read in
 * time order would walk everyone's Public posts to find the friends' ones. Exported for the EXPLAIN test.
 */
export function friendsFeedQuery(relationships: RelationshipProvider, viewerId: string, filter: PostFilter, page: FeedPage): SQL {
  const after = afterKeySql(posts.createdAt, posts.id, page.after);
  const where = [sql`${posts.status} = 'Published'`, ...(filter.authorId ? [sql`${posts.authorId} = ${filter.authorId}`] : []), ...(after ? [after] : [])];
  const source = { table: posts, owner: posts.authorId, id: posts.id, time: posts.createdAt, timeAs: 'created_at', where };
  const selects = friendsOnlyBranchParts(relationships, viewerId, posts.authorId, posts.visibility).map((branch) => newestOfBranch(branch, source, page.offset + page.limit, !filter.authorId));
  return sql`SELECT id, ${feedKeySql(sql`created_at`)} AS key FROM (${sql.join(selects, sql` UNION ALL `)}) feed
             ORDER BY created_at DESC, id DESC LIMIT ${sql.raw(String(page.limit))} OFFSET ${sql.raw(String(page.offset))}`;
}

/**
 * Every first page of the feed and every page after a cursor as a named statement per filter
 * shape (core/db/keyset.ts): `posts_feed_20`, `posts_friends_feed_20_after`, `posts_feed_a_20`
 * (one author, a parameter) …
 */
/** The feed's filter as a statement's shape (the friends-only scope in its name, the author a parameter), and the author's value. */
function feedShape(filter: PostFilter): { shape: FeedShape; values: Record<string, unknown> } {
  return {
    shape: { named: filter.scope === 'friends' ? ['friends'] : [], valued: filter.authorId ? [{ name: 'authorId', letter: 'a' }] : [] },
    values: filter.authorId ? { authorId: filter.authorId } : {},
  };
}

/** The filter of a shape, its author as the statement's parameter. */
function shapeFilter(shape: FeedShape): PostFilter {
  return {
    ...(shape.named.includes('friends') ? { scope: 'friends' as const } : {}),
    ...(shape.valued.length > 0 ? { authorId: placeholder('authorId') } : {}),
  };
}

const feedStatement = shapedFeedStatements<RelationshipProvider>('posts', (shape) => {
  const filter = shapeFilter(shape);
  return (relationships, viewerId, page) => feedQuery(relationships, viewerId, filter, page);
});

/** The query of the feed's named statement for this filter (viewer, cursor and author as parameters), and the author's value: for the bench's EXPLAIN. */
export function preparedFeedQuery(relationships: RelationshipProvider, filter: PostFilter, page: FeedPage): { query: SQL; values: Record<string, unknown> } {
  const { shape, values } = feedShape(filter);
  return { query: feedQuery(relationships, placeholder('viewer'), shapeFilter(shape), page), values };
}

/**
 * The feed: ids of the posts `viewerId` may see, newest first, after the cursor key when given.
 * Each way of seeing a post is its own branch (the viewer's own posts in any status; others'
 * published posts that are public, from friends, or from owners whose circle holds the viewer),
 * each served by an index in feed order; the branches run as one UNION ALL. No count: see
 * core/http/pagination.ts.
 */
export async function feedPage(
  db: DbOrTx,
  relationships: RelationshipProvider,
  viewerId: string,
  filter: PostFilter,
  page: FeedPage,
): Promise<{ ids: string[]; last: FeedKey | undefined }> {
  const { shape, values } = feedShape(filter);
  const rows =
    page.offset === 0
      ? await feedStatement(shape)(db, relationships, viewerId, page, values)
      : // A numbered page (`page=N`): its offset is part of the text, planned per request.
        (await db.execute<{ id: string; key: string }>(feedQuery(relationships, viewerId, filter, page))).rows;
  const lastRow = rows.at(-1);
  return { ids: rows.map((r) => r.id), last: lastRow ? { micros: lastRow.key, id: lastRow.id } : undefined };
}

const likedByStatement = namedStatement<{ postId: string }, { userId: string; postIds: string[] }>(
  'posts_liked_by',
  () => sql`SELECT ${postLikes.postId} AS "postId" FROM ${postLikes} WHERE ${postLikes.userId} = ${sql.placeholder('userId')} AND ${anyUuid(postLikes.postId, 'postIds')}`,
);

export async function likedBy(db: DbOrTx, userId: string, postIds: string[]): Promise<Set<string>> {
  if (postIds.length === 0) return new Set();
  const rows = await likedByStatement.rows(db, { userId, postIds });
  return new Set(rows.map((r) => r.postId));
}

/**
 * Locks the post against deletion until the transaction ends (FOR KEY SHARE: concurrent likes
 * and the like-count updates do not wait on it) and says whether it still exists. The caller
 * checked visibility before its transaction, so the post may be gone by now.
 */
async function keepPost(db: DbOrTx, postId: string): Promise<boolean> {
  const rows = await db.select({ id: posts.id }).from(posts).where(eq(posts.id, postId)).for('key share');
  return rows.length > 0;
}

/** Adds the like and counts it, both or neither; the count as it is now, undefined when the post is gone. */
export async function addLike(db: DbOrTx, postId: string, userId: string): Promise<number | undefined> {
  if (!(await keepPost(db, postId))) return undefined;
  const inserted = await db.insert(postLikes).values({ postId, userId }).onConflictDoNothing().returning({ postId: postLikes.postId });
  if (inserted.length > 0) {
    const [row] = await db
      .update(posts)
      .set({ likeCount: sql`${posts.likeCount} + 1` })
      .where(eq(posts.id, postId))
      .returning({ likeCount: posts.likeCount });
    return row?.likeCount;
  }
  const [row] = await db.select({ likeCount: posts.likeCount }).from(posts).where(eq(posts.id, postId));
  return row?.likeCount;
}

/** Removes the like and uncounts it, both or neither; the count as it is now, undefined when the post is gone. */
export async function removeLike(db: DbOrTx, postId: string, userId: string): Promise<number | undefined> {
  if (!(await keepPost(db, postId))) return undefined;
  const deleted = await db
    .delete(postLikes)
    .where(and(eq(postLikes.postId, postId), eq(postLikes.userId, userId)))
    .returning({ postId: postLikes.postId });
  if (deleted.length > 0) {
    const [row] = await db
      .update(posts)
      .set({ likeCount: sql`greatest(${posts.likeCount} - 1, 0)` })
      .where(eq(posts.id, postId))
      .returning({ likeCount: posts.likeCount });
    return row?.likeCount;
  }
  const [row] = await db.select({ likeCount: posts.likeCount }).from(posts).where(eq(posts.id, postId));
  return row?.likeCount;
}

// ---- links to the fishing log ----

/** An entry a post may link to: its owner and visibility (what the entry policy decides on). */
export async function linkableEntry(db: DbOrTx, entryId: string): Promise<{ ownerId: string; visibility: string } | undefined> {
  const [row] = await db.select({ ownerId: logEntries.ownerId, visibility: logEntries.visibility }).from(logEntries).where(eq(logEntries.id, entryId));
  return row;
}

/** A catch a post may link to: its owner and its entry's visibility (what the catch policy decides on). */
export async function linkableCatch(db: DbOrTx, catchId: string): Promise<{ ownerId: string; visibility: string } | undefined> {
  const [row] = await db
    .select({ ownerId: logEntries.ownerId, visibility: logEntries.visibility })
    .from(catches)
    .innerJoin(logEntries, eq(logEntries.id, catches.entryId))
    .where(eq(catches.id, catchId));
  return row;
}

/** The linked entries `viewerId` may see (entries narrowed by id, so the one-condition predicate fits). */
export async function visibleEntries(db: DbOrTx, relationships: RelationshipProvider, viewerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: logEntries.id, title: logEntries.title, occurredAt: logEntries.occurredAt, waterBody: logEntries.waterBody })
    .from(logEntries)
    .where(and(inArray(logEntries.id, ids), visibleTo(relationships, viewerId, logEntries.ownerId, logEntries.visibility)));
}

/** The linked catches whose entry `viewerId` may see. */
export async function visibleCatches(db: DbOrTx, relationships: RelationshipProvider, viewerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: catches.id,
      entryId: catches.entryId,
      speciesId: fishSpecies.id,
      speciesName: fishSpecies.commonName,
      lengthCm: catches.lengthCm,
      weightKg: catches.weightKg,
      count: catches.count,
      released: catches.released,
      caughtAt: catches.caughtAt,
    })
    .from(catches)
    .innerJoin(logEntries, eq(logEntries.id, catches.entryId))
    .innerJoin(fishSpecies, eq(fishSpecies.id, catches.speciesId))
    .where(and(inArray(catches.id, ids), visibleTo(relationships, viewerId, logEntries.ownerId, logEntries.visibility)));
}
