import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { uuidv7 } from '../../core/db/ids.js';
import { notify } from '../../core/notifications/outbox.js';
import { eventPolicy } from '../../core/access/policies/events.js';
import { authorize, isSelf, type Viewer } from '../../core/access/policy.js';
import { adminChange, featureChange, type AdminRecord } from '../../core/admin/change.js';
import type { AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import { isFeatured, type FeatureInput } from '../../core/db/featured.js';
import { nearFromQuery, toKm } from '../../core/db/geo.js';
import type { Page } from '../../core/http/pagination.js';
import { EventErrors } from './events.errors.js';
import * as repo from './events.repository.js';
import type { CreateEventInput, EventsQueryType } from './events.schemas.js';
import { assertLookupValues } from '../lookups/index.js';
import type { EventStatus } from './events.tables.js';

/**
 * Community events: proposed by any angler (PendingApproval), approved or rejected by an
 * administrator (Events.Approve / Events.Reject), then listed publicly. Registration is once per
 * user, closes at the deadline, and never exceeds the capacity: the event row is locked while a
 * registration is counted (and a CHECK backs the count).
 */

const asRecord = (row: repo.EventWithCreator) => ({ ownerId: row.creatorId, status: row.status, isActive: row.isActive });
type EventAction = Parameters<typeof eventPolicy.can>[1];

async function permitted(deps: ServiceDeps<DbOrTx>, viewer: Viewer, action: EventAction, id: string, row: repo.EventWithCreator | undefined) {
  await authorize(eventPolicy, viewer, action, row ? asRecord(row) : undefined, deps, () => EventErrors.notFound(id));
  return row!;
}

function spotsLeft(row: { capacity: number | null; registeredCount: number }): number | null {
  return row.capacity === null ? null : Math.max(0, row.capacity - row.registeredCount);
}

export function eventView(row: repo.EventWithCreator & { distanceM?: number | null }, viewerId: string | null, registered: boolean, now: Date) {
  const showReason = viewerId === null || isSelf(viewerId, row.creatorId);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    type: row.type,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    venue: { name: row.venueName, address: row.address, city: row.city, stateCode: row.stateCode, location: { latitude: row.lat, longitude: row.lon } },
    websiteUrl: row.websiteUrl,
    capacity: row.capacity,
    registrationDeadline: row.registrationDeadline?.toISOString() ?? null,
    registeredCount: row.registeredCount,
    spotsLeft: spotsLeft(row),
    registered,
    status: row.status,
    rejectionReason: showReason ? row.rejectionReason : null,
    featured: isFeatured(row, now),
    ...(row.distanceM == null ? {} : { distanceKm: toKm(row.distanceM) }),
    createdBy: { userId: row.creatorId, username: row.creatorUsername },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function views(deps: ServiceDeps<DbOrTx>, viewerId: string, rows: Array<repo.EventWithCreator & { distanceM?: number | null }>, now: Date, options: { staff?: boolean } = {}) {
  const { db } = deps;
  const registered = await repo.registeredEventIds(
    db,
    viewerId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => eventView(row, options.staff ? null : viewerId, registered.has(row.id), now));
}

/** The stored values of a proposed event (also used by the demo seed). */
export function eventValues(creatorId: string, input: CreateEventInput, now: Date) {
  const startsAt = new Date(input.startsAt);
  const endsAt = new Date(input.endsAt);
  const deadline = input.registrationDeadline ? new Date(input.registrationDeadline) : null;
  if (endsAt < startsAt) throw EventErrors.endsBeforeStart();
  if (endsAt < now) throw EventErrors.inPast();
  if (deadline && deadline > startsAt) throw EventErrors.deadlineAfterStart();
  return {
    id: uuidv7(),
    creatorId,
    title: input.title.trim(),
    description: input.description ?? null,
    type: input.type,
    startsAt,
    endsAt,
    venueName: input.venueName,
    address: input.address ?? null,
    city: input.city ?? null,
    stateCode: input.stateCode?.toUpperCase() ?? null,
    lat: input.location.latitude,
    lon: input.location.longitude,
    websiteUrl: input.websiteUrl ?? null,
    capacity: input.capacity ?? null,
    registrationDeadline: deadline,
  };
}

export async function createEvent(deps: ServiceDeps, viewer: Viewer, input: CreateEventInput, now = new Date()) {
  const { db } = deps;
  await assertLookupValues(deps, [{ category: 'EventType', code: input.type, pointer: '/type' }]);
  const row = await repo.insertEvent(db, eventValues(viewer.userId, input, now));
  return getEvent(deps, viewer, row.id, now);
}

export async function getEvent(deps: ServiceDeps<DbOrTx>, viewer: Viewer, id: string, now = new Date()) {
  const { db } = deps;
  const row = await permitted(deps, viewer, 'view', id, await repo.findEvent(db, id));
  return (await views(deps, viewer.userId, [row], now))[0]!;
}

export async function listEvents(deps: ServiceDeps, viewer: Viewer, query: EventsQueryType, page: Page, now = new Date()) {
  const { db } = deps;
  const near = nearFromQuery(query, 50);
  if (near === 'incomplete') throw EventErrors.nearIncomplete();
  await assertLookupValues(deps, [{ category: 'EventType', code: query.type, pointer: '/type', in: 'query', allowInactive: true }]);
  const { items, total } = await repo.listPublicEvents(
    db,
    {
      type: query.type,
      from: query.from ? new Date(query.from) : now,
      to: query.to ? new Date(query.to) : undefined,
      state: query.state?.toUpperCase(),
      near,
      featuredOnly: query.featured === true,
    },
    now,
    page,
  );
  return { items: await views(deps, viewer.userId, items, now), total };
}

/** Registers (or cancels) the viewer; the event row is locked so the capacity holds under concurrency. */
export async function setRegistration(deps: ServiceDeps, viewer: Viewer, id: string, register: boolean, now = new Date()) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const row = await permitted(inTx(deps, tx), viewer, 'register', id, await repo.findEvent(tx, id, { lock: true }));
    if (register) {
      if (row.registrationDeadline && now > row.registrationDeadline) throw EventErrors.deadlinePassed(row.registrationDeadline.toISOString());
      if (now > row.endsAt) throw EventErrors.deadlinePassed(row.endsAt.toISOString());
      const already = await repo.registeredEventIds(tx, viewer.userId, [row.id]);
      if (already.size > 0) throw EventErrors.alreadyRegistered();
      if (row.capacity !== null && row.registeredCount >= row.capacity) throw EventErrors.full(row.capacity);
      await repo.register(tx, row.id, viewer.userId);
      await notify(tx, {
        type: 'events.registration_confirmed',
        path: `/api/events/${row.id}`,
        payload: { id: row.id, title: row.title },
        recipients: [{ userId: viewer.userId, title: 'Registration confirmed', body: `You are registered for "${row.title}" (${row.startsAt.toISOString()}).` }],
      });
    } else if (!(await repo.unregister(tx, row.id, viewer.userId))) {
      throw EventErrors.notRegistered();
    }
    const after = (await repo.findEvent(tx, id))!;
    return { registered: register, registeredCount: after.registeredCount, spotsLeft: spotsLeft(after) };
  });
}

// ---- administration ----

export async function adminListEvents(deps: ServiceDeps, viewer: Viewer, status: EventStatus, page: Page, now = new Date()) {
  const { db } = deps;
  const { items, total } = await repo.listByStatus(db, status, page);
  return { items: await views(deps, viewer.userId, items, now, { staff: true }), total };
}

/** The event as an administrator's action changes it (core/admin/change), answered with its staff view. */
const eventRecord = (viewer: Viewer, now: Date): AdminRecord<repo.EventWithCreator, Awaited<ReturnType<typeof views>>[number]> => ({
  lock: (tx, id) => repo.findEvent(tx, id, { lock: true }),
  write: (tx, id, values) => repo.updateEvent(tx, id, values),
  view: async (deps, id) => (await views(deps, viewer.userId, [(await repo.findEvent(deps.db, id))!], now, { staff: true }))[0]!,
  notFound: EventErrors.notFound,
  audit: { targetType: 'event' },
});

export async function reviewEvent(deps: ServiceDeps, context: AuditContext, viewer: Viewer, id: string, decision: 'approve' | 'reject', reason: string | null, now = new Date()) {
  const status: EventStatus = decision === 'approve' ? 'Approved' : 'Rejected';
  return adminChange(
    deps,
    context,
    eventRecord(viewer, now),
    id,
    `events.${decision === 'approve' ? 'approved' : 'rejected'}`,
    reason,
    (row) => {
      if (row.status === status) throw EventErrors.alreadyDecided(status);
      return { status, rejectionReason: decision === 'reject' ? reason : null, reviewedAt: now, reviewedBy: viewer.userId };
    },
    async (tx, row) => {
      if (decision !== 'approve') return;
      await notify(tx, {
        type: 'events.approved',
        path: `/api/events/${id}`,
        payload: { id, title: row.title, status },
        recipients: [{ userId: row.creatorId, title: 'Event approved', body: `Your event "${row.title}" was approved and is listed.` }],
      });
    },
  );
}

export async function featureEvent(deps: ServiceDeps, context: AuditContext, viewer: Viewer, id: string, input: FeatureInput | null, now = new Date()) {
  return featureChange(deps, context, eventRecord(viewer, now), id, 'events', input, now);
}

/** How many events have each type (the lookups module's usage statistics). */
export const eventsByType = (db: DbOrTx, codes: readonly string[]) => repo.countByType(db, codes);
