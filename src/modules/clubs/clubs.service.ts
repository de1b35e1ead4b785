import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { featureChange } from '../../core/admin/change.js';
import { setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import { uuidv7 } from '../../core/db/ids.js';
import { notify } from '../../core/notifications/outbox.js';
import { clubPolicy, type ClubRecord } from '../../core/access/policies/clubs.js';
import { allows, authorize, type Viewer } from '../../core/access/policy.js';
import type { AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import { isFeatured, type FeatureInput } from '../../core/db/featured.js';
import { nearFromQuery, toKm } from '../../core/db/geo.js';
import type { Page } from '../../core/http/pagination.js';
import { ClubErrors } from './clubs.errors.js';
import * as repo from './clubs.repository.js';
import { ClubRoleEnum, type ClubsQueryType, type CreateClubInput } from './clubs.schemas.js';
import type { ClubMemberRow, ClubRole } from './clubs.tables.js';

/**
 * Clubs: the creator is the owner; public clubs are joined at once, private ones by a request the
 * club's admins approve; club admins remove members, the owner also changes roles. Membership
 * changes lock the club row and recount its active members.
 */

type ClubAction = Parameters<typeof clubPolicy.can>[1];

function asRecord(club: repo.ClubWithOwner, membership: ClubMemberRow | undefined): ClubRecord {
  return { ownerId: club.ownerId, privacy: club.privacy, isActive: club.isActive, membership: membership ? { role: membership.role, status: membership.status } : null };
}

async function permitted(deps: ServiceDeps<DbOrTx>, viewer: Viewer, action: ClubAction, id: string, options: { lock?: boolean } = {}) {
  const { db } = deps;
  const club = await repo.findClub(db, id, options);
  const membership = club ? await repo.findMember(db, id, viewer.userId) : undefined;
  await authorize(clubPolicy, viewer, action, club ? asRecord(club, membership) : undefined, deps, () => ClubErrors.notFound(id));
  return { club: club!, membership };
}

export function clubView(club: repo.ClubWithOwner & { distanceM?: number | null }, membership: ClubMemberRow | undefined, now: Date) {
  return {
    id: club.id,
    name: club.name,
    description: club.description,
    privacy: club.privacy,
    homeWater: club.homeWater,
    city: club.city,
    stateCode: club.stateCode,
    location: { latitude: club.lat, longitude: club.lon },
    websiteUrl: club.websiteUrl,
    memberCount: club.memberCount,
    featured: isFeatured(club, now),
    isActive: club.isActive,
    myMembership: membership ? { role: ClubRoleEnum.toApi(membership.role), status: membership.status } : null,
    ...(club.distanceM == null ? {} : { distanceKm: toKm(club.distanceM) }),
    owner: { userId: club.ownerId, username: club.ownerUsername },
    createdAt: club.createdAt.toISOString(),
  };
}

/** Creates the club and its owner membership (also used by the demo seed). */
export async function insertClubWithOwner(deps: ServiceDeps<DbOrTx>, ownerId: string, input: CreateClubInput): Promise<string> {
  const { db: tx } = deps;
  const id = uuidv7();
  await repo.insertClub(tx, {
    id,
    ownerId,
    name: input.name.trim(),
    description: input.description ?? null,
    privacy: input.privacy === 'Private' ? 'Private' : 'Public',
    homeWater: input.homeWater ?? null,
    city: input.city ?? null,
    stateCode: input.stateCode?.toUpperCase() ?? null,
    lat: input.location.latitude,
    lon: input.location.longitude,
    websiteUrl: input.websiteUrl ?? null,
    memberCount: 1,
  });
  await repo.insertMember(tx, id, ownerId, 'owner', true);
  return id;
}

export async function createClub(deps: ServiceDeps, viewer: Viewer, input: CreateClubInput) {
  const { db } = deps;
  const id = await db.transaction((tx) => insertClubWithOwner(inTx(deps, tx), viewer.userId, input));
  return getClub(deps, viewer, id);
}

export async function getClub(deps: ServiceDeps<DbOrTx>, viewer: Viewer, id: string) {
  const { db } = deps;
  const { club, membership } = await permitted(deps, viewer, 'view', id);
  const record = asRecord(club, membership);
  const seeMembers = await allows(clubPolicy, viewer, 'seeMembers', record, deps);
  const withPending = await allows(clubPolicy, viewer, 'manageMembers', record, deps);
  const members = seeMembers ? await repo.members(db, id, withPending) : null;
  return {
    ...clubView(club, membership, new Date()),
    members:
      members?.map(({ member, username }) => ({
        userId: member.userId,
        username,
        role: ClubRoleEnum.toApi(member.role),
        status: member.status,
        requestedAt: member.requestedAt.toISOString(),
        joinedAt: member.joinedAt?.toISOString() ?? null,
      })) ?? null,
  };
}

export async function listClubs(deps: ServiceDeps, viewer: Viewer, query: ClubsQueryType, page: Page) {
  const { db } = deps;
  const near = nearFromQuery(query, 50);
  if (near === 'incomplete') throw ClubErrors.nearIncomplete();
  const now = new Date();
  const { items, total } = await repo.listClubs(db, { q: query.q, state: query.state?.toUpperCase(), near }, now, page);
  const mine = await repo.memberships(
    db,
    viewer.userId,
    items.map((c) => c.id),
  );
  return { items: items.map((c) => clubView(c, mine.get(c.id), now)), total };
}

export async function myClubs(deps: ServiceDeps, viewer: Viewer, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.myClubs(db, viewer.userId, page);
  const mine = await repo.memberships(
    db,
    viewer.userId,
    items.map((c) => c.id),
  );
  const now = new Date();
  return { items: items.map((c) => clubView(c, mine.get(c.id), now)), total };
}

export async function join(deps: ServiceDeps, viewer: Viewer, id: string) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const { club } = await permitted(inTx(deps, tx), viewer, 'join', id, { lock: true });
    await repo.insertMember(tx, id, viewer.userId, 'member', club.privacy === 'Public');
    await repo.recount(tx, id);
    if (club.privacy !== 'Public') {
      // The club's owner and admins decide requests (they see the requester in the member list).
      const deciders = (await repo.members(tx, id, false)).filter(({ member }) => member.role === 'owner' || member.role === 'admin');
      await notify(tx, {
        type: 'clubs.join_requested',
        path: `/api/clubs/${id}`,
        payload: { id, name: club.name },
        recipients: deciders.map(({ member }) => ({ userId: member.userId, title: 'Join request', body: `Someone asked to join "${club.name}". Approve or decline the request among the members.` })),
      });
    }
    return getClub(inTx(deps, tx), viewer, id);
  });
}

export async function leave(deps: ServiceDeps, viewer: Viewer, id: string) {
  const { db } = deps;
  await db.transaction(async (tx) => {
    await permitted(inTx(deps, tx), viewer, 'leave', id, { lock: true });
    await repo.deleteMember(tx, id, viewer.userId);
    await repo.recount(tx, id);
  });
}

async function targetMember(deps: ServiceDeps<DbOrTx>, id: string, userId: string) {
  const { db: tx } = deps;
  const member = await repo.findMember(tx, id, userId);
  if (!member) throw ClubErrors.memberNotFound(userId);
  return member;
}

export async function approveMember(deps: ServiceDeps, viewer: Viewer, id: string, userId: string) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    await permitted(inTx(deps, tx), viewer, 'manageMembers', id, { lock: true });
    const member = await targetMember(inTx(deps, tx), id, userId);
    if (member.status !== 'Pending') throw ClubErrors.notPending();
    await repo.activateMember(tx, id, userId);
    await repo.recount(tx, id);
    await notifyJoinDecision(inTx(deps, tx), id, userId, true);
    return getClub(inTx(deps, tx), viewer, id);
  });
}

/** Removes a member or declines a request: club admins; a club admin only by the owner; never the owner. */
export async function removeMember(deps: ServiceDeps, viewer: Viewer, id: string, userId: string) {
  const { db } = deps;
  await db.transaction(async (tx) => {
    const { membership } = await permitted(inTx(deps, tx), viewer, 'manageMembers', id, { lock: true });
    const member = await targetMember(inTx(deps, tx), id, userId);
    if (member.role === 'owner') throw ClubErrors.cannotRemoveOwner();
    if (member.role === 'admin' && membership?.role !== 'owner') throw ClubErrors.adminRemovesAdmin();
    await repo.deleteMember(tx, id, userId);
    await repo.recount(tx, id);
    if (member.status === 'Pending') await notifyJoinDecision(inTx(deps, tx), id, userId, false);
  });
}

async function notifyJoinDecision(deps: ServiceDeps<DbOrTx>, clubId: string, userId: string, approved: boolean) {
  const { db: tx } = deps;
  const club = (await repo.findClub(tx, clubId))!;
  await notify(tx, {
    type: 'clubs.join_decided',
    path: `/api/clubs/${clubId}`,
    payload: { id: clubId, name: club.name, approved },
    recipients: [{ userId, title: approved ? 'Welcome to the club' : 'Join request declined', body: approved ? `Your request to join "${club.name}" was approved.` : `Your request to join "${club.name}" was declined.` }],
  });
}

export async function changeRole(deps: ServiceDeps, viewer: Viewer, id: string, userId: string, role: Exclude<ClubRole, 'owner'>) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    await permitted(inTx(deps, tx), viewer, 'changeRoles', id, { lock: true });
    const member = await targetMember(inTx(deps, tx), id, userId);
    if (member.role === 'owner') throw ClubErrors.ownerRole();
    if (member.status !== 'Active') throw ClubErrors.notPending();
    await repo.setRole(tx, id, userId, role);
    return getClub(inTx(deps, tx), viewer, id);
  });
}

// ---- administration ----

/** Deactivation (never deletion) and back, through core/admin/lifecycle; the answer is the club as the viewer sees it. */
export async function setClubActive(deps: ServiceDeps, context: AuditContext, viewer: Viewer, id: string, active: boolean, reason: string | undefined) {
  return setActive(deps, context, clubLifecycle(viewer), id, active, reason);
}

const clubLifecycle = (viewer: Viewer): Lifecycle<repo.ClubWithOwner, ReturnType<typeof clubView>> => ({
  lock: (tx, id) => repo.findClub(tx, id, { lock: true }),
  update: (tx, id, values) => repo.updateClub(tx, id, values),
  view: async ({ db }, id) => clubView((await repo.findClub(db, id))!, await repo.findMember(db, id, viewer.userId), new Date()),
  notFound: ClubErrors.notFound,
  alreadyActive: ClubErrors.alreadyActive,
  alreadyInactive: ClubErrors.alreadyInactive,
  audit: { targetType: 'club', deactivated: 'clubs.deactivated', reactivated: 'clubs.reactivated' },
});

export async function featureClub(deps: ServiceDeps, context: AuditContext, viewer: Viewer, id: string, input: FeatureInput | null) {
  return featureChange(deps, context, { ...clubLifecycle(viewer), write: (tx, id, values) => repo.updateClub(tx, id, values) }, id, 'clubs', input);
}
