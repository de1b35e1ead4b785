import type { TestApp } from '../harness.js';
import type { TestUser } from './users.js';

/** Events through the API: proposed by `creator`, approved by `approver` when given. */

const DAY = 86_400_000;

export async function createEvent(t: TestApp, creator: TestUser, body: Record<string, unknown> = {}, approver?: TestUser) {
  const start = Date.now() + 30 * DAY;
  const payload = {
    title: 'Walleye seminar',
    type: 'Seminar',
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(start + 3 * 3600_000).toISOString(),
    venueName: 'Community center',
    city: 'Brainerd',
    stateCode: 'US-MN',
    location: { latitude: 46.358, longitude: -94.2008 },
    ...body,
  };
  const res = await t.app.inject({ method: 'POST', url: '/api/events', headers: creator.headers, payload });
  if (res.statusCode !== 201) throw new Error(`proposing an event failed: ${res.statusCode} ${res.body}`);
  const event = res.json() as { id: string } & Record<string, unknown>;
  if (approver) {
    const approved = await t.app.inject({ method: 'POST', url: `/api/admin/events/${event.id}/approve`, headers: approver.headers });
    if (approved.statusCode !== 200) throw new Error(`approving failed: ${approved.statusCode} ${approved.body}`);
    return approved.json() as { id: string } & Record<string, unknown>;
  }
  return event;
}
