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

export type CommentView = { id: string; postId: string; text: string; moderationStatus: string } & Record<string, unknown>;

export async function createComment(t: TestApp, author: TestUser, postId: string, text = 'Nice fish!'): Promise<CommentView> {
  return (await send(t, author, 'POST', `/api/social/posts/${postId}/comments`, 'create comment', { text })).json() as CommentView;
}
