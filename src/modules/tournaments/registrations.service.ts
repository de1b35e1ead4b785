import { type ServiceDeps, inTx } from '../../core/service-deps.js';
import { uuidv7 } from '../../core/db/ids.js';
import { registrationPolicy, tournamentPolicy } from '../../core/access/policies/tournaments.js';
import { authorize, type Viewer } from '../../core/access/policy.js';
import type { AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import type { PaymentSettlement, PaymentsService } from '../payments/payments.service.js';
import { getOwnProfile } from '../profiles/profiles.service.js';
import { TournamentErrors, uniqueViolation } from './tournaments.errors.js';
import { notifyRegistrationConfirmed } from './tournaments.notifications.js';
import type { FeePaymentRow, RegistrationRow } from './tournaments.tables.js';
import type { RegisterInput } from './registrations.schemas.js';
import * as tournamentsRepo from './tournaments.repository.js';
import * as repo from './registrations.repository.js';
import { accessRecord, authorizedTournament, iso, lockAuthorizedTournament as lockAuthorized } from './tournaments.service.js';

/**
 * Registrations with the entry fee: charged through the payments service, refunded or forfeited
 * on cancellation, settled by the provider's webhook. Access: the tournaments policy.
 */

function feeView(fee: FeePaymentRow | undefined) {
  return fee ? { amountCents: fee.amountCents, currency: fee.currency, status: fee.status, paymentId: fee.externalPaymentId } : null;
}

export function registrationView(row: RegistrationRow, fee: FeePaymentRow | undefined) {
  return {
    id: row.id,
    tournamentId: row.tournamentId,
    divisionId: row.divisionId,
    userId: row.userId,
    anglerName: row.anglerName,
    status: row.status,
    fee: feeView(fee),
    cancelledAt: iso(row.cancelledAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export interface FeeRequest {
  registrationId: string;
  tournamentId: string;
  userId: string;
  amountCents: number;
  currency: string;
}

/** What the tournament module needs of the app: its database and the payments service. */
export interface TournamentsDeps extends ServiceDeps {
  payments: PaymentsService;
}

/**
 * Charges the entry fee of a registration just committed (the capacity and one-per-person rules
 * hold under the tournament's lock; the charge is outside it). A declined card cancels the
 * registration (402); a retried request cannot charge twice (the key is the registration's).
 */
async function chargeFee(deps: TournamentsDeps, viewer: Viewer, context: AuditContext, fee: FeeRequest & { tournamentName: string }, paymentMethod: string, now: Date) {
  const payment = await deps.payments.createPayment(
    {
      kind: 'TournamentFee',
      payerId: viewer.userId,
      related: { type: 'tournament_registration', id: fee.registrationId },
      amountCents: fee.amountCents,
      currency: fee.currency,
      paymentMethod,
      description: `Entry fee: ${fee.tournamentName}`,
      idempotencyKey: `tournament-registration-${fee.registrationId}`,
    },
    context,
  );
  if (payment.status === 'Failed') {
    await deps.db.transaction(async (tx) => {
      await repo.updateRegistration(tx, fee.registrationId, { status: 'Cancelled', cancelledAt: now });
      await repo.setFee(tx, fee.registrationId, { status: 'Declined', externalPaymentId: payment.id });
    });
    throw TournamentErrors.paymentDeclined(payment.id, payment.failureReason ?? 'declined');
  }
  // A payment still Pending is settled later by the provider's webhook (settleEntryFee), which may even come first.
  const settled = await deps.db.transaction(async (tx) => {
    const paid = await repo.setFee(tx, fee.registrationId, { status: payment.status === 'Pending' ? 'Pending' : 'Paid', externalPaymentId: payment.id }, 'Pending');
    if (paid?.status === 'Paid') await notifyRegistrationConfirmed(tx, fee.registrationId);
    return paid;
  });
  return settled ?? (await repo.feesOf(deps.db, [fee.registrationId])).get(fee.registrationId);
}

/**
 * The payments service reports the outcome of an entry fee that was still Pending at the provider
 * (a Stripe webhook), in its transaction: paid, or declined — then the registration is cancelled,
 * which gives its place back. A fee no longer Pending is left as it is.
 */
export async function settleEntryFee(tx: DbOrTx, settlement: PaymentSettlement): Promise<void> {
  const registrationId = settlement.relatedId;
  if (settlement.status === 'Succeeded') {
    if (await repo.setFee(tx, registrationId, { status: 'Paid', externalPaymentId: settlement.paymentId }, 'Pending')) await notifyRegistrationConfirmed(tx, registrationId);
    return;
  }
  const declined = await repo.setFee(tx, registrationId, { status: 'Declined', externalPaymentId: settlement.paymentId }, 'Pending');
  if (declined) await repo.updateRegistration(tx, registrationId, { status: 'Cancelled', cancelledAt: new Date() });
}

async function displayName(deps: ServiceDeps, viewer: Viewer, given: string | undefined): Promise<string> {
  if (given) return given.trim();
  const profile = await getOwnProfile(deps, viewer.userId);
  return profile.displayName ?? profile.username;
}

export async function register(deps: TournamentsDeps, viewer: Viewer, context: AuditContext, tournamentId: string, input: RegisterInput, now = new Date()) {
  const { db } = deps;
  const anglerName = await displayName(deps, viewer, input.anglerName);
  const registered = await db.transaction(async (tx) => {
    // The row lock serialises registrations of one tournament: the capacity count below is exact.
    const t = await lockAuthorized(inTx(deps, tx), viewer, tournamentId, 'register');
    if (t.registrationsClosedReason) throw TournamentErrors.registrationClosed(`Registrations are closed: ${t.registrationsClosedReason}.`);
    if (now >= t.registrationDeadline) throw TournamentErrors.registrationClosed(`The registration deadline (${t.registrationDeadline.toISOString()}) has passed.`);
    if (t.entryFeeCents > 0 && !input.paymentMethod) throw TournamentErrors.paymentMethodRequired();
    const division = (await tournamentsRepo.divisionsOf(tx, [tournamentId])).find((d) => d.id === input.divisionId);
    if (!division) throw TournamentErrors.unknownDivision(input.divisionId);
    if (await repo.findActiveRegistration(tx, division.id, viewer.userId)) throw TournamentErrors.alreadyRegistered();
    const active = (await repo.activeRegistrationCounts(tx, [tournamentId])).get(tournamentId) ?? 0;
    if (t.capacity !== null && active >= t.capacity) throw TournamentErrors.full(t.capacity);
    let row: RegistrationRow;
    try {
      row = await repo.insertRegistration(tx, { id: uuidv7(), tournamentId, divisionId: division.id, userId: viewer.userId, anglerName });
    } catch (error) {
      if (uniqueViolation(error) !== undefined) throw TournamentErrors.alreadyRegistered();
      throw error;
    }
    const fee =
      t.entryFeeCents > 0
        ? await repo.insertFee(tx, { id: uuidv7(), registrationId: row.id, tournamentId, userId: viewer.userId, amountCents: t.entryFeeCents, currency: t.currency, status: 'Pending' })
        : undefined;
    if (!fee) await notifyRegistrationConfirmed(tx, row.id);
    return { row, fee, tournamentName: t.name };
  });
  const { row, fee, tournamentName } = registered;
  if (!fee) return registrationView(row, undefined);
  const charged = await chargeFee(deps, viewer, context, { ...fee, tournamentName }, input.paymentMethod!, now);
  return registrationView(row, charged);
}

export async function listRegistrations(
  deps: ServiceDeps,
  viewer: Viewer,
  tournamentId: string,
  filter: { divisionId?: string | undefined; status?: 'Active' | 'Cancelled' | undefined },
  page: Page,
) {
  const { db } = deps;
  const row = await authorizedTournament(deps, viewer, tournamentId, 'view');
  const organizer = (await tournamentPolicy.can(viewer, 'manage', accessRecord(deps, row.t), deps)) === true;
  // Anyone but the organizer sees their own registrations only.
  const { items, total } = await repo.listRegistrations(db, tournamentId, { ...filter, userId: organizer ? undefined : viewer.userId }, page);
  const fees = await repo.feesOf(db, items.map((r) => r.id));
  return { items: items.map((r) => registrationView(r, fees.get(r.id))), total };
}

async function authorizedRegistration(deps: ServiceDeps<DbOrTx>, viewer: Viewer, tournamentId: string, registrationId: string, action: 'view' | 'cancel', lock = false) {
  const { db } = deps;
  const t = await tournamentsRepo.findTournament(db, tournamentId);
  if (!t) throw TournamentErrors.notFound(tournamentId);
  const row = await repo.findRegistration(db, tournamentId, registrationId, lock);
  await authorize(registrationPolicy, viewer, action, row ? { ownerId: t.t.ownerId, userId: row.userId } : undefined, deps, () =>
    TournamentErrors.registrationNotFound(registrationId),
  );
  return { tournament: t.t, registration: row! };
}

export async function getRegistration(deps: ServiceDeps, viewer: Viewer, tournamentId: string, registrationId: string) {
  const { db } = deps;
  const { registration } = await authorizedRegistration(deps, viewer, tournamentId, registrationId, 'view');
  return registrationView(registration, (await repo.feesOf(db, [registration.id])).get(registration.id));
}

/**
 * The registrant cancels: the fee is refunded (through the payments service) up to
 * `refundWindowHours` before the start and forfeited after; impossible once started. A fee never
 * charged is waived.
 */
export async function cancelRegistration(deps: TournamentsDeps, viewer: Viewer, context: AuditContext, tournamentId: string, registrationId: string, now = new Date()) {
  const { row, fee, refund } = await deps.db.transaction(async (tx) => {
    const { tournament, registration } = await authorizedRegistration(inTx(deps, tx), viewer, tournamentId, registrationId, 'cancel', true);
    if (registration.status === 'Cancelled') throw TournamentErrors.alreadyCancelled();
    if (now >= tournament.startsAt) throw TournamentErrors.cannotCancel('The tournament has started; registrations can no longer be cancelled.');
    const inWindow = now.getTime() <= tournament.startsAt.getTime() - tournament.refundWindowHours * 3_600_000;
    const row = await repo.updateRegistration(tx, registration.id, { status: 'Cancelled', cancelledAt: now });
    let fee = (await repo.feesOf(tx, [row.id])).get(row.id);
    const refund = inWindow && fee?.status === 'Paid' && fee.externalPaymentId !== null;
    if (fee && !refund) fee = await repo.setFee(tx, row.id, { status: fee.status === 'Paid' ? 'Forfeited' : 'Waived' });
    return { row, fee, refund };
  });
  if (!refund || !fee?.externalPaymentId) return registrationView(row, fee);
  const { refund: done } = await deps.payments.refund({
    paymentId: fee.externalPaymentId,
    reason: 'Tournament registration cancelled inside the refund window',
    actor: context,
    idempotencyKey: `tournament-registration-refund-${row.id}`,
  });
  // A refund the provider refused stays on the payment (admins see it under /api/admin/payments); the fee stays Paid.
  const settled = done.status === 'Succeeded' ? await repo.setFee(deps.db, row.id, { status: 'Refunded' }) : fee;
  return registrationView(row, settled);
}

export { registrationPathById } from './tournaments.notifications.js';
