import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { ownerShown } from '../../core/access/visibility.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { ContentStatus } from '../moderation/index.js';
import { users } from '../users/index.js';
import { postComments, type CommentRow } from './posts.tables.js';

/** SQL of comments; who may see or change them is decided in comments.service.ts. */

export interface CommentWithAuthor extends CommentRow {
  authorUsername: string;
}

const columns = {
  id: postComments.id,
  postId: postComments.postId,
  authorId: postComments.authorId,
  text: postComments.text,
  status: postComments.status,
  moderationReason: postComments.moderationReason,
  moderatorRejected: postComments.moderatorRejected,
  moderatedAt: postComments.moderatedAt,
  createdAt: postComments.createdAt,
  updatedAt: postComments.updatedAt,
  authorUsername: users.username,
};

export async function insertComment(db: DbOrTx, row: typeof postComments.$inferInsert): Promise<void> {
  await db.insert(postComments).values(row);
}

export async function findComment(db: DbOrTx, id: string, options: { forUpdate?: boolean } = {}): Promise<CommentWithAuthor | undefined> {
  const query = db.select(columns).from(postComments).innerJoin(users, eq(users.id, postComments.authorId)).where(eq(postComments.id, id));
  const [row] = options.forUpdate ? await query.for('update', { of: postComments }) : await query;
  return row;
}

export async function commentsByIds(db: DbOrTx, ids: string[]): Promise<CommentWithAuthor[]> {
  if (ids.length === 0) return [];
  return db.select(columns).from(postComments).innerJoin(users, eq(users.id, postComments.authorId)).where(inArray(postComments.id, ids));
}

/** A post's comments that `viewerId` sees (published ones and their own), oldest first. */
export async function listComments(db: DbOrTx, postId: string, viewerId: string, page: { limit: number; offset: number }): Promise<{ items: CommentWithAuthor[]; total: number }> {
  // Others' comments only while their author's account is not deactivated (core/access/visibility.ts).
  const where = and(eq(postComments.postId, postId), or(and(eq(postComments.status, 'Published'), ownerShown(postComments.authorId)), eq(postComments.authorId, viewerId)));
  const [items, [count]] = await Promise.all([
    db
      .select(columns)
      .from(postComments)
      .innerJoin(users, eq(users.id, postComments.authorId))
      .where(where)
      .orderBy(asc(postComments.createdAt), asc(postComments.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(postComments).where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}

export async function updateComment(db: DbOrTx, id: string, patch: Partial<typeof postComments.$inferInsert>): Promise<void> {
  await db.update(postComments).set(patch).where(eq(postComments.id, id));
}

export async function deleteComment(db: DbOrTx, id: string): Promise<void> {
  await db.delete(postComments).where(eq(postComments.id, id));
}

export async function setStatus(db: DbOrTx, id: string, values: { status: ContentStatus; moderationReason: string | null; moderatorRejected: boolean }): Promise<void> {
  await db
    .update(postComments)
    .set({ ...values, moderatedAt: new Date() })
    .where(eq(postComments.id, id));
}
