import { v7 as uuidv7 } from 'uuid';
import type { TestApp } from './harness.js';
import type { TestUser } from './factories.js';

/** Helpers of the social tests: friendships, circles, posts and fishing-log records to link. */

export async function befriend(t: TestApp, a: TestUser, b: TestUser): Promise<void> {
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    const res = await t.app.inject({ method: 'POST', url: `/api/social/friends/${to.userId}`, headers: from.headers });
    if (res.statusCode >= 300) throw new Error(`befriend failed: ${res.statusCode} ${res.body}`);
  }
}

/** `requester` asks `other` to be friends; `other` does not answer. */
export async function requestFriendship(t: TestApp, requester: TestUser, other: TestUser): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: `/api/social/friends/${other.userId}`, headers: requester.headers });
  if (res.statusCode >= 300) throw new Error(`friend request failed: ${res.statusCode} ${res.body}`);
}

export async function putInCircle(t: TestApp, owner: TestUser, member: TestUser): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: `/api/social/circle/${member.userId}`, headers: owner.headers });
  if (res.statusCode >= 300) throw new Error(`circle failed: ${res.statusCode} ${res.body}`);
}

export async function createPost(t: TestApp, author: TestUser, body: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/api/social/posts', headers: author.headers, payload: body });
  if (res.statusCode !== 201) throw new Error(`create post failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; moderationStatus: string; moderationReason: string | null } & Record<string, unknown>;
}

/** A fishing-log entry with one catch, written straight to the tables (the fishing-log API is another module). */
export async function createEntryWithCatch(t: TestApp, owner: TestUser, visibility: 'Public' | 'Private' | 'Friends' | 'Circle') {
  const entryId = uuidv7();
  const catchId = uuidv7();
  const species = await t.database.pool.query('SELECT id, common_name FROM fish_species ORDER BY scientific_name LIMIT 1');
  const speciesId = species.rows[0].id as string;
  await t.database.pool.query(
    `INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, water_body, visibility)
     VALUES ($1, $2, 'Morning on the lake', '2026-05-01T06:00:00Z', 'Europe/Berlin', 'Lake Tegel', $3)`,
    [entryId, owner.userId, visibility],
  );
  await t.database.pool.query(
    `INSERT INTO catches (id, entry_id, owner_id, species_id, length_cm, weight_kg, count, released, caught_at)
     VALUES ($1, $2, $3, $4, 62.5, 3.2, 1, true, '2026-05-01T06:30:00Z')`,
    [catchId, entryId, owner.userId, speciesId],
  );
  return { entryId, catchId, speciesId, speciesName: species.rows[0].common_name as string };
}


