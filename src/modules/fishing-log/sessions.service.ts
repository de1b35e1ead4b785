import type { Db } from '../../core/db/client.js';
import { authorize } from '../../core/access/policy.js';
import { sessionPolicy } from '../../core/access/policies/sessions.js';
import type { Page } from '../../core/http/pagination.js';
import { assertTimeZone } from './entries.service.js';
import { FishingLogErrors } from './fishing-log.errors.js';
import type { SessionInputType } from './fishing-log.schemas.js';
import * as repo from './sessions.repository.js';
import { sessionView } from './views.js';

/** Fishing sessions: private to their owner. */

export async function createSession(db: Db, ownerId: string, input: SessionInputType) {
  if (input.timeZone) assertTimeZone(input.timeZone, '/timeZone');
  if (input.endedAt && new Date(input.endedAt) < new Date(input.startedAt)) throw FishingLogErrors.endsBeforeStart();
  const row = await repo.insertSession(db, ownerId, {
    startedAt: new Date(input.startedAt),
    endedAt: input.endedAt ? new Date(input.endedAt) : null,
    timeZone: input.timeZone ?? null,
    latitude: input.location?.latitude ?? null,
    longitude: input.location?.longitude ?? null,
    waterBody: input.location?.waterBody ?? null,
    stateCode: input.location?.stateCode?.toUpperCase() ?? null,
    participants: input.participants ?? [],
    notes: input.notes ?? null,
    weatherSummary: input.weatherSummary ?? null,
    waterSummary: input.waterSummary ?? null,
  });
  return { ...sessionView({ ...row, entryCount: 0 }), entries: [] };
}

export async function listSessions(db: Db, ownerId: string, filters: { from?: string; to?: string }, page: Page) {
  const { items, total } = await repo.listSessions(db, ownerId, filters, page);
  return { total, items: items.map(sessionView) };
}

export async function getSession(db: Db, viewerId: string, id: string) {
  const session = await authorize(sessionPolicy, viewerId, 'read', await repo.findSession(db, id), { db }, () => FishingLogErrors.sessionNotFound(id));
  const entries = await repo.entriesOfSession(db, id);
  return { ...sessionView(session), entries: entries.map((e) => ({ id: e.id, title: e.title, occurredAt: e.occurredAt.toISOString() })) };
}
