import { inTx } from '../../core/service-deps.js';
import { uuidv7 } from '../../core/db/ids.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { authorize, isSelf, type Viewer } from '../../core/access/policy.js';
import { bookingPolicy, listingPolicy } from '../../core/access/policies/charters.js';
import type { Page } from '../../core/http/pagination.js';
import { idempotent } from '../payments/payments.service.js';
import { CharterErrors } from './charters.errors.js';
import * as repo from './charters.repository.js';
import { CanceledByEnum, type BookInput, type BookingsFilter } from './charters.schemas.js';
import type { BookingRow } from './charters.tables.js';
import { formatInZone } from './charters.time.js';
import { notifyBooking } from './charters.notifications.js';
import { ACCEPT_WITHIN_MS, DAY_MS, licenceValid, type ChartersDeps } from './charters.deps.js';

/** Charter bookings: booking with a deposit, the state machine and its refunds, the timed job; money goes through the payments service. */


function bookingView(found: repo.BookingWithTitle) {
  const b = found.booking;
  return {
    id: b.id,
    listingId: b.listingId,
    listingTitle: found.listingTitle,
    slotId: b.slotId,
    customerId: b.customerId,
    captainId: b.captainId,
    tripType: b.tripType,
    partySize: b.partySize,
    startsAt: formatInZone(b.startsAt, b.timeZone),
    timeZone: b.timeZone,
    priceCents: b.priceCents,
    depositCents: b.depositCents,
    currency: b.currency,
    policy: b.policy,
    state: b.state,
    acceptBy: b.acceptBy ? formatInZone(b.acceptBy, b.timeZone) : null,
    paymentId: b.paymentId,
    refundedCents: b.refundedCents,
    declineReason: b.declineReason,
    canceledBy: b.canceledBy && CanceledByEnum.toApi(b.canceledBy),
    canceledByUserId: b.canceledByUserId,
    cancelReason: b.cancelReason,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  return (e.code === '23505' && e.constraint === constraint) || (e.cause?.code === '23505' && e.cause.constraint === constraint);
}

/**
 * Books a slot: the price and the cancellation/deposit policy in force are copied into the
 * booking. The unique index on holding bookings per slot makes double booking impossible; the
 * deposit is charged through the payments service (a decline leaves the booking Declined and
 * answers 402). Instant-book listings confirm at once, others wait 24 h for the captain.
 */
export async function book(deps: ChartersDeps, viewer: Viewer, context: AuditContext, listingId: string, input: BookInput, idempotencyKey: string | undefined) {
  const now = (deps.now ?? (() => new Date()))();
  return idempotent(deps.db, { scope: `charters.book:${viewer.userId}`, key: idempotencyKey, request: { listingId, ...input } }, async () => {
    const found = await repo.findListing(deps.db, listingId);
    await authorize(listingPolicy, viewer, 'book', found?.listing, deps, () => CharterErrors.listingNotFound(listingId));
    const { listing, captain } = found!;
    if (!licenceValid(captain, now)) throw CharterErrors.licenceExpired(captain.licenceExpiresOn);
    const tripType = listing.tripTypes.find((t) => t.id === input.tripTypeId);
    if (!tripType) throw CharterErrors.tripTypeNotFound(input.tripTypeId);
    if (input.partySize > tripType.maxPartySize) throw CharterErrors.partyTooLarge(tripType.maxPartySize);
    const slot = await repo.findSlot(deps.db, listingId, input.slotId);
    if (!slot) throw CharterErrors.slotNotFound(input.slotId);
    if (slot.startsAt <= now) throw CharterErrors.slotPast();
    const priceCents = tripType.pricing === 'PerPerson' ? tripType.priceCents * input.partySize : tripType.priceCents;
    const depositCents = Math.round((priceCents * listing.depositPercent) / 100);
    if (depositCents > 0 && !input.paymentMethod) throw CharterErrors.paymentMethodRequired();
    const id = uuidv7();
    let booking: BookingRow;
    try {
      booking = await deps.db.transaction(async (tx) => {
        const row = await repo.insertBooking(tx, {
          id,
          listingId,
          slotId: slot.id,
          customerId: viewer.userId,
          captainId: listing.captainId,
          tripType,
          partySize: input.partySize,
          startsAt: slot.startsAt,
          timeZone: listing.timeZone,
          priceCents,
          depositCents,
          currency: listing.currency,
          policy: { freeCancellationDays: listing.freeCancellationDays, lateCancellationRefundPercent: listing.lateCancellationRefundPercent, depositPercent: listing.depositPercent, instantBook: listing.instantBook },
          state: listing.instantBook ? 'Confirmed' : 'Pending',
          acceptBy: listing.instantBook ? null : new Date(now.getTime() + ACCEPT_WITHIN_MS),
          decidedAt: listing.instantBook ? now : null,
        });
        await recordAudit(inTx(deps, tx), context, { action: 'charters.booked', targetType: 'charter_booking', targetId: id, after: { state: row.state, priceCents, depositCents } });
        // Without a deposit the captain hears of the booking in its own transaction.
        if (depositCents === 0) await notifyBooking(tx, 'charters.booking_requested', row, listing.title, 'captain');
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error, 'charter_bookings_slot_holding_key')) throw CharterErrors.slotTaken();
      throw error;
    }
    if (depositCents === 0) return bookingView({ booking, listingTitle: listing.title });
    const payment = await deps.payments.createPayment(
      {
        kind: 'CharterDeposit',
        payerId: viewer.userId,
        related: { type: 'charter_booking', id },
        amountCents: depositCents,
        currency: listing.currency,
        paymentMethod: input.paymentMethod!,
        description: `Deposit: ${listing.title}, ${formatInZone(slot.startsAt, listing.timeZone)}`,
        idempotencyKey: `charter-booking-${id}`,
      },
      context,
    );
    if (payment.status === 'Failed') {
      await repo.updateBooking(deps.db, id, { state: 'Declined', paymentId: payment.id, decidedAt: now, declineReason: `deposit payment failed: ${payment.failureReason}` });
      throw CharterErrors.paymentDeclined(payment.id, payment.failureReason ?? 'declined');
    }
    // With a deposit the captain hears of the booking once it is paid.
    const paid = await deps.db.transaction(async (tx) => {
      const row = await repo.updateBooking(tx, id, { paymentId: payment.id });
      await notifyBooking(tx, 'charters.booking_requested', row, listing.title, 'captain');
      return row;
    });
    return bookingView({ booking: paid, listingTitle: listing.title });
  });
}

export async function listBookings(deps: ChartersDeps, viewer: Viewer, filter: BookingsFilter, page: Page) {
  const { items, total } = await repo.listBookings(deps.db, viewer.userId, filter, page);
  return { items: items.map(bookingView), total };
}

export async function getBooking(deps: ChartersDeps, viewer: Viewer, id: string) {
  const found = await repo.findBooking(deps.db, id);
  await authorize(bookingPolicy, viewer, 'view', found?.booking, deps, () => CharterErrors.bookingNotFound(id));
  return bookingView(found!);
}

/** The refund a cancellation earns under the booking's own policy (weather, captain and declines: everything paid). */
export function refundDue(booking: Pick<BookingRow, 'depositCents' | 'startsAt' | 'policy' | 'state'>, by: 'customer' | 'captain' | 'weather' | 'decline', now: Date): number {
  const paid = booking.depositCents;
  if (by !== 'customer' || booking.state === 'Pending') return paid;
  const daysBefore = (booking.startsAt.getTime() - now.getTime()) / DAY_MS;
  if (daysBefore >= booking.policy.freeCancellationDays) return paid;
  return Math.floor((paid * booking.policy.lateCancellationRefundPercent) / 100);
}

type Transition = { action: 'accept' } | { action: 'decline'; reason: string; system?: boolean } | { action: 'cancel'; by: 'customer' | 'captain' | 'weather'; reason: string };

const ALLOWED: Record<Transition['action'], readonly BookingRow['state'][]> = {
  accept: ['Pending'],
  decline: ['Pending'],
  cancel: ['Pending', 'Confirmed', 'CancelRequested'],
};

/**
 * Moves a booking along: accept (Pending → Confirmed), decline (Pending → Declined, full refund),
 * cancel (→ CancelRequested → Canceled once the refund the policy gives has been asked of the
 * payments service). `viewer` null: the system (the auto-decline job).
 */
export async function transition(deps: ChartersDeps, viewer: Viewer | null, context: AuditContext, id: string, change: Transition) {
  const now = (deps.now ?? (() => new Date()))();
  const { before, after } = await deps.db.transaction(async (tx) => {
    const found = await repo.findBooking(tx, id, true);
    const ctx = inTx(deps, tx);
    const notFound = () => CharterErrors.bookingNotFound(id);
    if (viewer) {
      if (change.action === 'cancel' && change.by !== 'weather') {
        await authorize(bookingPolicy, viewer, 'cancel', found?.booking, ctx, notFound);
      } else {
        await authorize(bookingPolicy, viewer, 'decide', found?.booking, ctx, notFound);
      }
    } else if (!found) throw notFound();
    const booking = found!.booking;
    if (!ALLOWED[change.action].includes(booking.state)) throw CharterErrors.badTransition(booking.state, `${change.action}ed`.replace('eed', 'ed'));
    let values: Partial<BookingRow>;
    if (change.action === 'accept') values = { state: 'Confirmed', decidedAt: now };
    else if (change.action === 'decline') values = { state: 'Declined', decidedAt: now, declineReason: change.reason };
    else {
      const by = change.by === 'customer' && viewer && isSelf(viewer, booking.captainId) ? 'captain' : change.by;
      values = booking.state === 'CancelRequested' ? {} : { state: 'CancelRequested', canceledBy: by, canceledByUserId: viewer?.userId ?? null, cancelReason: change.reason };
    }
    const row = Object.keys(values).length > 0 ? await repo.updateBooking(tx, id, values) : booking;
    await recordAudit(inTx(deps, tx), context, {
      action: `charters.booking_${change.action === 'cancel' ? 'cancel_requested' : change.action === 'accept' ? 'accepted' : 'declined'}`,
      targetType: 'charter_booking',
      targetId: id,
      reason: 'reason' in change ? change.reason : null,
      before: { state: booking.state },
      after: { state: row.state },
    });
    if (change.action === 'accept') await notifyBooking(tx, 'charters.booking_accepted', row, found!.listingTitle, 'customer');
    if (change.action === 'decline') await notifyBooking(tx, viewer ? 'charters.booking_declined' : 'charters.booking_auto_declined', row, found!.listingTitle, 'customer');
    return { before: booking, after: { booking: row, listingTitle: found!.listingTitle } };
  });
  if (after.booking.state === 'Confirmed') return bookingView(after);
  // Declined or cancel requested: refund what the policy gives, then close the booking.
  const by = after.booking.state === 'Declined' ? 'decline' : after.booking.canceledBy!;
  const due = refundDue(before, by, now) - after.booking.refundedCents;
  if (after.booking.paymentId && due > 0) {
    const payment = await deps.payments.getPayment(after.booking.paymentId);
    const amount = Math.min(due, payment.refundableCents);
    if (amount > 0) {
      await deps.payments.refund({
        paymentId: after.booking.paymentId,
        amountCents: amount,
        reason: after.booking.state === 'Declined' ? `Booking declined: ${after.booking.declineReason}` : `Booking canceled by ${by}: ${after.booking.cancelReason}`,
        actor: context,
        idempotencyKey: `charter-refund-${id}`,
      });
      after.booking = await repo.updateBooking(deps.db, id, { refundedCents: after.booking.refundedCents + amount });
    }
  }
  if (after.booking.state === 'CancelRequested') {
    after.booking = await deps.db.transaction(async (tx) => {
      const row = await repo.updateBooking(tx, id, { state: 'Canceled', decidedAt: now });
      // The other party hears of it: the customer of a captain's (or the weather's) cancellation, the captain of the customer's.
      if (row.canceledBy === 'weather') await notifyBooking(tx, 'charters.booking_weather_canceled', row, after.listingTitle, 'customer');
      else await notifyBooking(tx, 'charters.booking_canceled', row, after.listingTitle, row.canceledBy === 'customer' ? 'captain' : 'customer');
      return row;
    });
  }
  return bookingView(after);
}

/**
 * The charters job: declines Pending bookings the captain did not accept within 24 h (full
 * refund) and completes Confirmed trips that have ended. The server runs it every minute; tests
 * call it with their own clock.
 */
export async function runChartersJob(deps: ChartersDeps): Promise<{ declined: number; completed: number }> {
  const now = (deps.now ?? (() => new Date()))();
  const context: AuditContext = { actor: { type: 'system' }, userAgent: 'fishlog charters job' };
  let declined = 0;
  for (const id of await repo.overduePending(deps.db, now)) {
    try {
      await transition(deps, null, context, id, { action: 'decline', reason: 'The captain did not accept within 24 hours' });
      declined++;
    } catch {
      // Accepted or canceled meanwhile: nothing to do.
    }
  }
  let completed = 0;
  for (const id of await repo.finishedTrips(deps.db, now)) {
    await repo.updateBooking(deps.db, id, { state: 'Completed' });
    completed++;
  }
  return { declined, completed };
}
