import type { TestUser } from './factories.js';
import type { TestApp } from './harness.js';

/** Relationships through the real API. */

export async function addFriend(t: TestApp, from: TestUser, to: TestUser): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: `/api/social/friends/${to.userId}`, headers: from.headers });
  if (res.statusCode >= 300) throw new Error(`add friend failed: ${res.statusCode} ${res.body}`);
}

export async function befriend(t: TestApp, a: TestUser, b: TestUser): Promise<void> {
  await addFriend(t, a, b);
  await addFriend(t, b, a);
}

export async function putInCircle(t: TestApp, owner: TestUser, member: TestUser): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: `/api/social/circle/${member.userId}`, headers: owner.headers });
  if (res.statusCode >= 300) throw new Error(`circle add failed: ${res.statusCode} ${res.body}`);
}
