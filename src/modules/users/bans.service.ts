import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { banPolicy, userBanPolicy } from '../../core/access/policies/bans.js';
import { authorize } from '../../core/access/policy.js';
import { Role } from '../../core/access/roles.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { notifyPrincipalChanged } from '../../core/auth/notify.js';
import { notify } from '../../core/notifications/outbox.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { BanErrors } from './bans.errors.js';
import * as repo from './bans.repository.js';
import type { BanStatus, BanWithNames } from './bans.repository.js';
import type { AppealRow, BanRow } from './bans.tables.js';
import { UserErrors } from './users.errors.js';
import * as users from './users.repository.js';

/**
 * Bans and appeals. A ban is in force from its start until its end (null: permanent) unless lifted;
 * it expires by itself (every decision compares with the clock the caller passes: `now`).
 * Authentication refuses a banned user everywhere but reading and appealing their ban
 * (core/auth/authenticate.ts, through the users module's UserDirectory).
 */

/** Who acts: the principal's id and role. */
export interface Actor {
  userId: string;
  role: number;
}

/** Called once a change committed: drops the user's cached principal in this process (others get a NOTIFY). */
export type Invalidate = (sub: string) => void;

export function banStatus(ban: Pick<BanRow, 'liftedAt' | 'endsAt'>, now: Date): BanStatus {
  if (ban.liftedAt) return 'Lifted';
  return ban.endsAt === null || ban.endsAt > now ? 'Active' : 'Expired';
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** Tells the user of their ban, its lifting or the decision on their appeal (in the change's transaction). */
function notifyBan(deps: ServiceDeps<DbOrTx>, type: 'bans.issued' | 'bans.lifted' | 'bans.appeal_decided', ban: Pick<BanRow, 'id' | 'userId' | 'endsAt'>, title: string, body: string) {
  const { db: tx } = deps;
  return notify(tx, { type, path: '/api/bans/me', payload: { id: ban.id, userId: ban.userId, endsAt: iso(ban.endsAt) }, recipients: [{ userId: ban.userId, title, body }] });
}

function appealView(a: AppealRow) {
  return { id: a.id, banId: a.banId, text: a.text, status: a.status, reply: a.reply, decidedBy: a.decidedBy, decidedAt: iso(a.decidedAt), createdAt: a.createdAt.toISOString() };
}

export function banView(ban: BanWithNames, now: Date) {
  return {
    id: ban.id,
    userId: ban.userId,
    username: ban.username,
    reason: ban.reason,
    startsAt: ban.startsAt.toISOString(),
    endsAt: iso(ban.endsAt),
    permanent: ban.endsAt === null,
    status: banStatus(ban, now),
    bannedBy: ban.bannedBy,
    bannedByUsername: ban.bannedByUsername,
    liftedAt: iso(ban.liftedAt),
    liftedBy: ban.liftedBy,
    liftReason: ban.liftReason,
    appeal: ban.appeal ? appealView(ban.appeal) : null,
  };
}

function myBanView(ban: BanWithNames, now: Date) {
  const a = ban.appeal;
  return {
    id: ban.id,
    reason: ban.reason,
    startsAt: ban.startsAt.toISOString(),
    endsAt: iso(ban.endsAt),
    permanent: ban.endsAt === null,
    status: banStatus(ban, now),
    liftedAt: iso(ban.liftedAt),
    appeal: a ? { id: a.id, text: a.text, status: a.status, reply: a.reply, decidedAt: iso(a.decidedAt), createdAt: a.createdAt.toISOString() } : null,
  };
}

async function viewOf(deps: ServiceDeps<DbOrTx>, id: string, now: Date) {
  const { db } = deps;
  const ban = await repo.findBan(db, id);
  if (!ban) throw BanErrors.notFound(id);
  return banView(ban, now);
}

/** The duration cap of the caller's `Users.Ban` grant (`restrictions.maxBanDays`), if any. */
function maxBanDays(restrictions: Record<string, unknown> | null): number | undefined {
  const days = restrictions?.maxBanDays;
  return typeof days === 'number' && Number.isFinite(days) ? days : undefined;
}

export async function banUser(
  deps: ServiceDeps,
  context: AuditContext,
  actor: Actor,
  restrictions: Record<string, unknown> | null,
  userId: string,
  input: { reason: string; durationDays: number | null },
  now: Date,
  invalidate: Invalidate,
) {
  const { db } = deps;
  const cap = maxBanDays(restrictions);
  if (cap !== undefined && (input.durationDays === null || input.durationDays > cap)) throw BanErrors.overLimit(cap, input.durationDays);
  const reason = input.reason.trim();
  const { view, sub } = await db.transaction(async (tx) => {
    // The user's row lock serialises bans of one user: of concurrent requests, exactly one wins.
    const target = await authorize(userBanPolicy, actor, 'ban', await users.findByIdForUpdate(tx, userId), inTx(deps, tx), () => UserErrors.notFound(userId));
    const current = await repo.banInForce(tx, userId, now);
    if (current) throw BanErrors.alreadyBanned(current.id, current.endsAt);
    if (target.role === Role.Admin) {
      // Banning removes an Admin as surely as a demotion: the last one who can sign in stays.
      await users.lockRoleChanges(tx);
      if ((await users.lockIdsWhoCanSignIn(tx, Role.Admin)).every((id) => id === userId)) throw UserErrors.lastAdminBan();
    }
    const endsAt = input.durationDays === null ? null : new Date(now.getTime() + input.durationDays * 86_400_000);
    const ban = await repo.insertBan(tx, { userId, bannedBy: actor.userId, reason, startsAt: now, endsAt });
    await notifyPrincipalChanged(tx, target.sub);
    await recordAudit(inTx(deps, tx), context, {
      action: 'users.banned',
      targetType: 'user',
      targetId: userId,
      reason,
      after: { banId: ban.id, durationDays: input.durationDays, endsAt: iso(endsAt) },
    });
    await notifyBan(inTx(deps, tx), 'bans.issued', ban, 'Your account is banned', `You are banned ${endsAt ? `until ${endsAt.toISOString()}` : 'permanently'}: ${reason}. You can read the ban and appeal it once.`);
    return { view: await viewOf(inTx(deps, tx), ban.id, now), sub: target.sub };
  });
  invalidate(sub);
  return view;
}

export async function liftBan(deps: ServiceDeps, context: AuditContext, id: string, reason: string, now: Date, invalidate: Invalidate) {
  const { db } = deps;
  const { view, sub } = await db.transaction(async (tx) => {
    const ban = await repo.lockBan(tx, id);
    if (!ban) throw BanErrors.notFound(id);
    const status = banStatus(ban, now);
    if (status !== 'Active') throw BanErrors.notInForce(id, status);
    await repo.liftBan(tx, id, { liftedBy: context.actor.userId ?? null, liftReason: reason.trim(), liftedAt: now });
    const user = await users.findById(tx, ban.userId);
    await notifyPrincipalChanged(tx, user!.sub);
    await recordAudit(inTx(deps, tx), context, { action: 'users.unbanned', targetType: 'user', targetId: ban.userId, reason: reason.trim(), before: { banId: id, status }, after: { banId: id, status: 'Lifted' } });
    await notifyBan(inTx(deps, tx), 'bans.lifted', ban, 'Your ban was lifted', `Your ban was lifted: ${reason.trim()}.`);
    return { view: await viewOf(inTx(deps, tx), id, now), sub: user!.sub };
  });
  invalidate(sub);
  return view;
}

export async function getBan(deps: ServiceDeps, id: string, now: Date) {
  return viewOf(deps, id, now);
}

export async function listBans(deps: ServiceDeps, filter: repo.BanFilter, page: Page, now: Date) {
  const { db } = deps;
  const { items, total } = await repo.listBans(db, filter, now, page);
  return { items: items.map((b) => banView(b, now)), total };
}

export async function listAppeals(deps: ServiceDeps, filter: { status?: 'Open' | 'Upheld' | 'Overturned' | undefined }, page: Page, now: Date) {
  const { db } = deps;
  const { items, total } = await repo.listAppeals(db, filter, page);
  return { items: items.map((b) => banView(b, now)), total };
}

/** The caller's ban in force and latest bans, with appeals and replies. */
export async function myBans(deps: ServiceDeps, userId: string, now: Date) {
  const { db } = deps;
  const bans = await repo.bansOfUser(db, userId, 20);
  const current = bans.find((b) => banStatus(b, now) === 'Active') ?? null;
  return { current: current ? myBanView(current, now) : null, recent: bans.map((b) => myBanView(b, now)) };
}

/** The banned user appeals their ban in force, once. */
export async function appeal(deps: ServiceDeps, actor: Actor, banId: string, text: string, now: Date) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const ban = await repo.lockBan(tx, banId);
    await authorize(banPolicy, actor, 'appeal', ban ? { ...ban, ownerId: ban.userId } : undefined, inTx(deps, tx), () => BanErrors.notFound(banId));
    const status = banStatus(ban!, now);
    if (status !== 'Active') throw BanErrors.notInForce(banId, status);
    const row = await repo.insertAppeal(tx, { banId, userId: actor.userId, text: text.trim() });
    if (!row) throw BanErrors.appealExists(banId);
    return myBanView((await repo.findBan(tx, banId))!, now);
  });
}

/** Someone other than the banner decides an open appeal; Overturned lifts the ban (if still in force). */
export async function decideAppeal(
  deps: ServiceDeps,
  context: AuditContext,
  actor: Actor,
  appealId: string,
  input: { decision: 'Upheld' | 'Overturned'; reply: string },
  now: Date,
  invalidate: Invalidate,
) {
  const { db } = deps;
  const reply = input.reply.trim();
  const { view, sub } = await db.transaction(async (tx) => {
    const appealRow = await repo.lockAppeal(tx, appealId);
    if (!appealRow) throw BanErrors.appealNotFound(appealId);
    const ban = (await repo.lockBan(tx, appealRow.banId))!;
    await authorize(banPolicy, actor, 'decideAppeal', { ...ban, ownerId: ban.userId }, inTx(deps, tx), () => BanErrors.notFound(ban.id));
    if (appealRow.status !== 'Open') throw BanErrors.appealDecided(appealId, appealRow.status);
    await repo.decideAppeal(tx, appealId, { status: input.decision, reply, decidedBy: actor.userId, decidedAt: now });
    const status = banStatus(ban, now);
    const lift = input.decision === 'Overturned' && status === 'Active';
    if (lift) await repo.liftBan(tx, ban.id, { liftedBy: actor.userId, liftReason: `Appeal overturned: ${reply}`, liftedAt: now });
    const user = (await users.findById(tx, ban.userId))!;
    if (lift) await notifyPrincipalChanged(tx, user.sub);
    await recordAudit(inTx(deps, tx), context, {
      action: input.decision === 'Overturned' ? 'users.ban_appeal_overturned' : 'users.ban_appeal_upheld',
      targetType: 'user',
      targetId: ban.userId,
      reason: reply,
      before: { appealId, banId: ban.id, appeal: 'Open', ban: status },
      after: { appealId, banId: ban.id, appeal: input.decision, ban: lift ? 'Lifted' : status },
    });
    await notifyBan(inTx(deps, tx), 'bans.appeal_decided', ban, input.decision === 'Overturned' ? 'Appeal accepted' : 'Appeal rejected', input.decision === 'Overturned' ? `Your appeal was accepted and the ban lifted: ${reply}` : `Your appeal was rejected; the ban stays: ${reply}`);
    return { view: await viewOf(inTx(deps, tx), ban.id, now), sub: lift ? user.sub : null };
  });
  if (sub) invalidate(sub);
  return view;
}

/** For other modules (dashboard): bans in force now. */
export function countBansInForce(deps: ServiceDeps<DbOrTx>, now: Date): Promise<number> {
  const { db } = deps;
  return repo.countBansInForce(db, now);
}
