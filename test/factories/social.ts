import { uuidv7 } from '../../src/core/db/ids.js';
import { posts } from '../../src/modules/social/posts.tables.js';
import type { TestApp } from '../harness.js';
import type { TestUser } from './users.js';

/** Social data: friendships, circles, posts and comments, made through the social API as users make them. */

async function send(t: TestApp, user: TestUser, method: 'POST', url: string, what: string, payload?: Record<string, unknown>) {
  const res = await t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${what} failed: ${res.statusCode} ${res.body}`);
  return res;
}

/** `a` and `b` add each other: friends in force. */
export async function befriend(t: TestApp, a: TestUser, b: TestUser): Promise<void> {
  await requestFriendship(t, a, b);
  await requestFriendship(t, b, a);
}

/** `requester` asks `other` to be friends; `other` does not answer. */
export async function requestFriendship(t: TestApp, requester: TestUser, other: TestUser): Promise<void> {
  await send(t, requester, 'POST', `/api/social/friends/${other.userId}`, 'friend request');
}

/** `owner` puts `member` (a friend) in their circle. */
export async function addToCircle(t: TestApp, owner: TestUser, member: TestUser): Promise<void> {
  await send(t, owner, 'POST', `/api/social/circle/${member.userId}`, 'circle');
}

export type PostView = { id: string; moderationStatus: string; moderationReason: string | null } & Record<string, unknown>;

export async function createPost(t: TestApp, author: TestUser, body: Record<string, unknown>): Promise<PostView> {
  return (await send(t, author, 'POST', '/api/social/posts', 'create post', body)).json() as PostView;
}

/**
 * A published post written straight to the table (no moderation), at the time a test chooses:
 * for feeds whose order and paging a test checks.
 */
export async function createPostRow(
  t: TestApp,
  author: TestUser,
  values: Pick<typeof posts.$inferInsert, 'visibility'> & Partial<Pick<typeof posts.$inferInsert, 'text' | 'createdAt' | 'status'>>,
): Promise<{ id: string }> {
  const [row] = await t.database.db
    .insert(posts)
    .values({ id: uuidv7(), text: `A ${values.visibility} post`, status: 'Published', ...values, authorId: author.userId })
    .returning({ id: posts.id });
  return row!;
}

export type CommentView = { id: string; postId: string; text: string; moderationStatus: string } & Record<string, unknown>;

export async function createComment(t: TestApp, author: TestUser, postId: string, text = 'Nice fish!'): Promise<CommentView> {
  return (await send(t, author, 'POST', `/api/social/posts/${postId}/comments`, 'create comment', { text })).json() as CommentView;
}
