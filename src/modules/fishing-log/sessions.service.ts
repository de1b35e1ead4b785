import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import type { DbOrTx } from '../../core/db/client.js';
import { authorize, isOwner } from '../../core/access/policy.js';
import { sessionPolicy } from '../../core/access/policies/sessions.js';
import { clientIdOf, replayOf } from '../../core/http/client-ids.js';
import { preconditionFailed, type Precondition } from '../../core/http/conditional.js';
import { applyChange, type Change } from '../../core/http/merge-patch.js';
import type { Page } from '../../core/http/pagination.js';
import { assertTimeZone, isoTime } from './entries.service.js';
import { lockPersonalBests } from './personal-bests.service.js';
import { FishingLogErrors } from './fishing-log.errors.js';
import { SessionInput, type SessionInputType } from './fishing-log.schemas.js';
import type { SessionRow } from './fishing-log.tables.js';
import * as repo from './sessions.repository.js';
import { sessionView } from './views.js';

/** Fishing sessions: private to their owner. */

function sessionValues(input: SessionInputType): repo.SessionValues {
  if (input.timeZone) assertTimeZone(input.timeZone, '/timeZone');
  if (input.endedAt && new Date(input.endedAt) < new Date(input.startedAt)) throw FishingLogErrors.endsBeforeStart();
  return {
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
  };
}

/** A session as a PUT body: the one mapping of a session's columns to its body (a merge patch's; a pushed record's, sync.records.ts). */
export function sessionAsInput(row: SessionRow): SessionInputType {
  return {
    startedAt: isoTime(row.startedAt)!,
    endedAt: isoTime(row.endedAt),
    timeZone: row.timeZone ?? undefined,
    location: row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude, waterBody: row.waterBody ?? undefined, stateCode: row.stateCode ?? undefined } : null,
    participants: row.participants,
    notes: row.notes ?? undefined,
    weatherSummary: row.weatherSummary ?? undefined,
    waterSummary: row.waterSummary ?? undefined,
  };
}

/** A new session (`created`), or the one a retried create with the client's `id` made before (409 for another's or another body). */
export async function createSession(deps: ServiceDeps, ownerId: string, input: SessionInputType & { id?: string }) {
  const { db } = deps;
  const client = clientIdOf(input);
  const { id: _id, ...body } = input;
  const row = await repo.insertSession(db, ownerId, sessionValues(body), client);
  if (row) return { created: true, session: { ...sessionView({ ...row, entryCount: 0 }), entries: [] } };
  const existing = replayOf(client!, await repo.findSession(db, client!.id), (found) => isOwner(ownerId, found), 'fishing session');
  return { created: false, session: await fullSession(deps, existing.id, existing) };
}

export async function listSessions(deps: ServiceDeps, ownerId: string, filters: { from?: string; to?: string }, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.listSessions(db, ownerId, filters, page);
  return { total, items: items.map(sessionView) };
}

async function fullSession(deps: ServiceDeps<DbOrTx>, id: string, found?: Awaited<ReturnType<typeof repo.findSession>>) {
  const { db } = deps;
  const session = found ?? (await repo.findSession(db, id))!;
  const entries = await repo.entriesOfSession(db, id);
  return { ...sessionView(session), entries: entries.map((e) => ({ id: e.id, title: e.title, occurredAt: e.occurredAt.toISOString() })) };
}

export async function getSession(deps: ServiceDeps, viewerId: string, id: string) {
  const { db } = deps;
  const session = await authorize(sessionPolicy, viewerId, 'read', await repo.findSession(db, id), deps, () => FishingLogErrors.sessionNotFound(id));
  return fullSession(deps, id, session);
}

/** PUT (replace) or PATCH (merge patch) of a session; its entries stay linked. With If-Match, only of that version (412). */
export async function updateSession(deps: ServiceDeps, viewerId: string, id: string, change: Change<SessionInputType>, precondition?: Precondition) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const row = await authorize(sessionPolicy, viewerId, 'update', await repo.lockSession(tx, id), inTx(deps, tx), () => FishingLogErrors.sessionNotFound(id));
    if (!(await repo.updateSession(tx, id, sessionValues(applyChange(change, SessionInput, () => sessionAsInput(row))), precondition))) throw preconditionFailed('fishing session', row.version);
    return fullSession(inTx(deps, tx), id);
  });
}

/**
 * Deletes a session; its entries are kept, detached. The owner's personal-best lock first, as every
 * change of their entries takes it: detaching locks the entries, and a change of an entry locks its
 * session (its version, migration 0049), so the two would otherwise deadlock.
 */
export async function deleteSession(deps: ServiceDeps, viewerId: string, id: string, precondition?: Precondition): Promise<void> {
  const { db } = deps;
  await db.transaction(async (tx) => {
    await lockPersonalBests(inTx(deps, tx), viewerId);
    const row = await authorize(sessionPolicy, viewerId, 'delete', await repo.lockSession(tx, id), inTx(deps, tx), () => FishingLogErrors.sessionNotFound(id));
    if (!(await repo.deleteSession(tx, id, precondition))) throw preconditionFailed('fishing session', row.version);
  });
}
