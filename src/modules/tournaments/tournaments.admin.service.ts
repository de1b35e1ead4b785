import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { notifyOrganizerDecision, notifyTournamentDecision } from './tournaments.notifications.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { TournamentErrors } from './tournaments.errors.js';
import * as organizersRepo from './organizers.repository.js';
import * as tournamentsRepo from './tournaments.repository.js';
import * as registrationsRepo from './registrations.repository.js';
import { organizerView } from './organizers.service.js';
import { tournamentView } from './tournaments.service.js';
import type { OrganizerRow, OrganizerStatus, TournamentRow, TournamentStatus } from './tournaments.tables.js';

/**
 * Administration of tournaments and organizers (permissions Tournaments.* and Organizers.*):
 * review queues with usage statistics, and every decision with a required reason, audit-logged
 * in the decision's transaction.
 */

/** The closing reason written on an organizer's upcoming tournaments while they are suspended. */
export const ORGANIZER_SUSPENDED = 'the organizer is suspended';

async function adminTournamentViews(deps: ServiceDeps<DbOrTx>, rows: tournamentsRepo.TournamentWithOrganizer[], now: Date) {
  const { db } = deps;
  const ids = rows.map((r) => r.t.id);
  // One after the other: `db` may be a transaction (one connection).
  const divisions = await tournamentsRepo.divisionsOf(db, ids);
  const registrations = await registrationsRepo.activeRegistrationCounts(db, ids);
  const submissions = await registrationsRepo.submissionCounts(db, ids);
  return rows.map((r) => ({
    ...tournamentView(r, divisions, registrations.get(r.t.id) ?? 0, now),
    organizerStatus: r.organizerStatus,
    reviewedAt: r.t.reviewedAt ? r.t.reviewedAt.toISOString() : null,
    usage: { registrations: registrations.get(r.t.id) ?? 0, submissions: submissions.get(r.t.id) ?? 0 },
  }));
}

export async function listTournaments(deps: ServiceDeps, filter: tournamentsRepo.TournamentFilter, page: Page, now = new Date()) {
  const { db } = deps;
  const { items, total } = await tournamentsRepo.adminList(db, { ...filter, status: filter.status ?? 'PendingApproval' }, page);
  return { items: await adminTournamentViews(deps, items, now), total };
}

async function adminTournament(deps: ServiceDeps<DbOrTx>, id: string, now: Date) {
  const { db } = deps;
  const row = await tournamentsRepo.findTournament(db, id);
  if (!row) throw TournamentErrors.notFound(id);
  return (await adminTournamentViews(deps, [row], now))[0]!;
}

export async function getTournament(deps: ServiceDeps, id: string, now = new Date()) {
  return adminTournament(deps, id, now);
}

type TournamentDecision = 'approve' | 'reject' | 'suspend' | 'reinstate';

const TOURNAMENT_TRANSITIONS: Record<TournamentDecision, { from: readonly TournamentStatus[]; verb: string }> = {
  approve: { from: ['PendingApproval'], verb: 'approved' },
  reject: { from: ['PendingApproval'], verb: 'rejected' },
  suspend: { from: ['PendingApproval', 'Approved', 'InProgress'], verb: 'suspended' },
  reinstate: { from: ['Suspended'], verb: 'reinstated' },
};

function nextStatus(decision: TournamentDecision, current: TournamentRow, now: Date): TournamentStatus {
  if (decision === 'approve') return now >= current.startsAt ? 'InProgress' : 'Approved';
  if (decision === 'reject') return 'Rejected';
  if (decision === 'suspend') return 'Suspended';
  const previous = current.statusBeforeSuspension ?? 'PendingApproval';
  if (previous === 'Approved' && now >= current.startsAt) return now >= current.endsAt ? 'Completed' : 'InProgress';
  return previous;
}

export async function decideTournament(deps: ServiceDeps, context: AuditContext, id: string, decision: TournamentDecision, reason: string, now = new Date()) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const current = await tournamentsRepo.lockTournament(tx, id);
    if (!current) throw TournamentErrors.notFound(id);
    const rule = TOURNAMENT_TRANSITIONS[decision];
    if (!rule.from.includes(current.status)) throw TournamentErrors.badTransition(current.status, rule.verb);
    if (decision === 'approve') {
      const organizer = await organizersRepo.findOrganizer(tx, current.organizerId);
      if (organizer?.status !== 'Verified') throw TournamentErrors.badTransition(`tournament of a ${organizer?.status ?? 'missing'} organizer`, 'approved');
    }
    const status = nextStatus(decision, current, now);
    await tournamentsRepo.updateTournament(tx, id, {
      status,
      statusReason: decision === 'reject' || decision === 'suspend' ? reason : null,
      statusBeforeSuspension: decision === 'suspend' ? current.status : null,
      reviewedBy: context.actor.userId ?? null,
      reviewedAt: now,
    });
    await recordAudit(inTx(deps, tx), context, {
      action: `tournaments.${rule.verb}`,
      targetType: 'tournament',
      targetId: id,
      reason,
      before: { status: current.status },
      after: { status },
    });
    await notifyTournamentDecision(tx, current, rule.verb, status, reason);
    return adminTournament(inTx(deps, tx), id, now);
  });
}

// ---------- organizers ----------

async function adminOrganizerViews(deps: ServiceDeps<DbOrTx>, rows: OrganizerRow[]) {
  const { db } = deps;
  const usage = await organizersRepo.organizerUsage(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...organizerView(r), reviewedAt: r.reviewedAt ? r.reviewedAt.toISOString() : null, usage: usage.get(r.id)! }));
}

export async function listOrganizers(deps: ServiceDeps, filter: { status?: OrganizerStatus | undefined; q?: string | undefined }, page: Page) {
  const { db } = deps;
  const { items, total } = await organizersRepo.listOrganizers(db, { status: filter.status ?? 'Pending', q: filter.q }, page);
  return { items: await adminOrganizerViews(deps, items), total };
}

async function adminOrganizer(deps: ServiceDeps<DbOrTx>, id: string) {
  const { db } = deps;
  const row = await organizersRepo.findOrganizer(db, id);
  if (!row) throw TournamentErrors.organizerNotFound(id);
  return (await adminOrganizerViews(deps, [row]))[0]!;
}

export async function getOrganizer(deps: ServiceDeps, id: string) {
  return adminOrganizer(deps, id);
}

type OrganizerDecision = 'verify' | 'reject' | 'suspend' | 'reinstate';

const ORGANIZER_TRANSITIONS: Record<OrganizerDecision, { from: readonly OrganizerStatus[]; to: OrganizerStatus; verb: string }> = {
  verify: { from: ['Pending'], to: 'Verified', verb: 'verified' },
  reject: { from: ['Pending'], to: 'Rejected', verb: 'rejected' },
  suspend: { from: ['Verified'], to: 'Suspended', verb: 'suspended' },
  reinstate: { from: ['Suspended'], to: 'Verified', verb: 'reinstated' },
};

/**
 * Suspending an organizer closes registrations of their tournaments that have not started;
 * reinstating reopens the ones the suspension closed.
 */
export async function decideOrganizer(
  deps: ServiceDeps,
  context: AuditContext,
  id: string,
  decision: OrganizerDecision,
  input: { reason: string; allowPayments?: boolean | undefined },
  now = new Date(),
) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const current = await organizersRepo.lockOrganizer(tx, id);
    if (!current) throw TournamentErrors.organizerNotFound(id);
    const rule = ORGANIZER_TRANSITIONS[decision];
    if (!rule.from.includes(current.status)) throw TournamentErrors.badTransition(`${current.status} organizer`, rule.verb);
    const paymentsAllowed = decision === 'verify' ? (input.allowPayments ?? current.takesPayments) : current.paymentsAllowed;
    await organizersRepo.updateOrganizer(tx, id, {
      status: rule.to,
      statusReason: decision === 'reject' || decision === 'suspend' ? input.reason : null,
      paymentsAllowed,
      reviewedBy: context.actor.userId ?? null,
      reviewedAt: now,
    });
    let affected: string[] = [];
    if (decision === 'suspend') affected = await tournamentsRepo.setUpcomingRegistrationsClosed(tx, id, ORGANIZER_SUSPENDED, null, now);
    if (decision === 'reinstate') affected = await tournamentsRepo.setUpcomingRegistrationsClosed(tx, id, null, ORGANIZER_SUSPENDED, now);
    await recordAudit(inTx(deps, tx), context, {
      action: `organizers.${rule.verb}`,
      targetType: 'tournament_organizer',
      targetId: id,
      reason: input.reason,
      before: { status: current.status, paymentsAllowed: current.paymentsAllowed },
      after: { status: rule.to, paymentsAllowed, tournamentsAffected: affected },
    });
    await notifyOrganizerDecision(tx, current, rule.verb, input.reason);
    return adminOrganizer(inTx(deps, tx), id);
  });
}
