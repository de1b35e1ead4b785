import type { TestApp } from '../harness.js';
import type { TestUser } from './users.js';

/** Bans through the admin API, as in production. */

export interface BanBody {
  id: string;
  userId: string;
  status: string;
  endsAt: string | null;
  appeal: { id: string; status: string; reply: string | null } | null;
}

export async function banUser(t: TestApp, by: TestUser, user: TestUser, options: { durationDays?: number | null; reason?: string } = {}): Promise<BanBody> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/admin/users/${user.userId}/bans`,
    headers: by.headers,
    payload: { reason: options.reason ?? 'Spamming the feed', durationDays: options.durationDays === undefined ? 7 : options.durationDays },
  });
  if (res.statusCode !== 201) throw new Error(`ban of ${user.username} failed: ${res.statusCode} ${res.body}`);
  return res.json() as BanBody;
}
