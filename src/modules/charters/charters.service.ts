import { setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import { uuidv7 } from '../../core/db/ids.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { authorize, isSelf, type Viewer } from '../../core/access/policy.js';
import { bookingPolicy, listingPolicy } from '../../core/access/policies/charters.js';
import type { Db, DbOrTx } from '../../core/db/client.js';
import { shownLocation } from '../../core/http/coordinates.js';
import { applyChange, type Change } from '../../core/http/merge-patch.js';
import type { Page } from '../../core/http/pagination.js';
import { idempotent, type PaymentsService } from '../payments/payments.service.js';
import { CharterErrors } from './charters.errors.js';
import * as repo from './charters.repository.js';
import { CanceledByEnum, type BookInput, type BookingsFilter, type CaptainApplicationInput, ListingBody, type ListingInput, type ListingsFilter } from './charters.schemas.js';
import { OUPV_MAX_PASSENGERS, type BookingRow, type CaptainRow, type ListingRow, type TripType } from './charters.tables.js';
import { formatInZone, isTimeZone, zonedToUtc } from './charters.time.js';
import { notifyBooking, notifyCaptainReview } from './charters.notifications.js';

export { bookingPath } from './charters.notifications.js';

/** Charter captains, listings, availability and bookings; money goes through the payments service. */

export const ACCEPT_WITHIN_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ChartersDeps {
  db: Db;
  payments: PaymentsService;
  now?: () => Date;
}

const today = (now: Date) => now.toISOString().slice(0, 10);
const licenceValid = (captain: CaptainRow, now: Date) => captain.status === 'Verified' && captain.licenceExpiresOn >= today(now);

// Captains

function captainView(row: CaptainRow, now: Date) {
  return {
    userId: row.userId,
    licenceType: row.licenceType,
    licenceNumber: row.licenceNumber,
    licenceExpiresOn: row.licenceExpiresOn,
    vesselName: row.vesselName,
    vesselRegistration: row.vesselRegistration,
    insuranceCarrier: row.insuranceCarrier,
    insurancePolicyNumber: row.insurancePolicyNumber,
    insuranceExpiresOn: row.insuranceExpiresOn,
    status: row.status,
    licenceValid: licenceValid(row, now),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    reviewReason: row.reviewReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Applies (or re-applies with a renewed licence): the application waits for an admin's verification. */
export async function applyAsCaptain(deps: ChartersDeps, context: AuditContext, userId: string, input: CaptainApplicationInput) {
  const now = (deps.now ?? (() => new Date()))();
  return deps.db.transaction(async (tx) => {
    const row = await repo.upsertCaptain(tx, { userId, ...input, status: 'Pending', reviewedAt: null, reviewedBy: null, reviewReason: null });
    await recordAudit(tx, context, { action: 'charters.captain_applied', targetType: 'charter_captain', targetId: userId, after: { licenceType: row.licenceType, licenceExpiresOn: row.licenceExpiresOn } });
    return captainView(row, now);
  });
}

export async function myCaptainProfile(deps: ChartersDeps, userId: string) {
  const row = await repo.findCaptain(deps.db, userId);
  if (!row) throw CharterErrors.noApplication();
  return captainView(row, (deps.now ?? (() => new Date()))());
}

export async function listCaptains(deps: ChartersDeps, status: CaptainRow['status'] | undefined, page: Page) {
  const now = (deps.now ?? (() => new Date()))();
  const { items, total } = await repo.listCaptains(deps.db, status, page);
  return { items: items.map((r) => captainView(r, now)), total };
}

export async function getCaptain(deps: ChartersDeps, userId: string) {
  const row = await repo.findCaptain(deps.db, userId);
  if (!row) throw CharterErrors.captainNotFound(userId);
  return captainView(row, (deps.now ?? (() => new Date()))());
}

/** An admin verifies or rejects a Pending application (audit-logged, reason kept). */
export async function reviewCaptain(deps: ChartersDeps, context: AuditContext, userId: string, verdict: 'Verified' | 'Rejected', reason: string | undefined) {
  const now = (deps.now ?? (() => new Date()))();
  return deps.db.transaction(async (tx) => {
    const current = await repo.findCaptain(tx, userId, true);
    if (!current) throw CharterErrors.captainNotFound(userId);
    if (current.status !== 'Pending') throw CharterErrors.alreadyReviewed(current.status);
    const row = await repo.updateCaptain(tx, userId, { status: verdict, reviewedAt: now, reviewedBy: context.actor.userId ?? null, reviewReason: reason ?? null });
    await recordAudit(tx, context, {
      action: verdict === 'Verified' ? 'charters.captain_verified' : 'charters.captain_rejected',
      targetType: 'charter_captain',
      targetId: userId,
      reason: reason ?? null,
      before: { status: current.status },
      after: { status: row.status },
    });
    await notifyCaptainReview(tx, userId, verdict, reason);
    return captainView(row, now);
  });
}

// Listings

function listingView(found: repo.ListingWithCaptain, viewer: Viewer, now: Date) {
  const { listing, captain } = found;
  const own = isSelf(viewer, listing.captainId);
  const valid = licenceValid(captain, now);
  const round = (v: number) => Math.round(v * 100) / 100;
  const point = { latitude: listing.latitude, longitude: listing.longitude };
  return {
    id: listing.id,
    title: listing.title,
    description: listing.description,
    boatName: listing.boatName,
    homePort: listing.homePort,
    state: listing.state,
    location: shownLocation(own, point, { latitude: round(point.latitude), longitude: round(point.longitude) }),
    timeZone: listing.timeZone,
    currency: listing.currency,
    tripTypes: listing.tripTypes,
    targetSpecies: listing.targetSpecies,
    included: listing.included,
    freeCancellationDays: listing.freeCancellationDays,
    lateCancellationRefundPercent: listing.lateCancellationRefundPercent,
    depositPercent: listing.depositPercent as 0,
    instantBook: listing.instantBook,
    captain: { userId: captain.userId, username: found.username, licenceType: captain.licenceType, licenceValid: valid },
    bookable: listing.isActive && valid,
    notice: !listing.isActive
      ? 'This listing is deactivated and takes no bookings.'
      : valid
        ? null
        : "The captain's licence has expired or is not verified: new bookings are paused until it is renewed and verified.",
    distanceKm: found.distanceKm === null ? null : Math.round(found.distanceKm * 10) / 10,
    isActive: listing.isActive,
    createdAt: listing.createdAt.toISOString(),
    updatedAt: listing.updatedAt.toISOString(),
  };
}

function checkListing(input: ListingInput, captain: CaptainRow): void {
  if (input.timeZone !== undefined && !isTimeZone(input.timeZone)) throw CharterErrors.badTimeZone(input.timeZone);
  if (captain.licenceType === 'OUPV') {
    const index = input.tripTypes.findIndex((t) => t.maxPartySize > OUPV_MAX_PASSENGERS);
    if (index >= 0) throw CharterErrors.oupvLimit(index);
  }
}

function tripTypes(input: ListingInput['tripTypes']): TripType[] {
  return input.map((t) => ({ ...t, id: t.id ?? uuidv7() }));
}

/** The columns of a listing body (a PUT replaces every field: optional ones left out take their defaults). */
function listingValues({ location, ...input }: ListingInput) {
  return {
    ...input,
    latitude: location.latitude,
    longitude: location.longitude,
    state: input.state.toUpperCase(),
    currency: input.currency ?? 'USD',
    tripTypes: tripTypes(input.tripTypes),
    targetSpecies: input.targetSpecies ?? [],
    included: input.included ?? [],
  };
}

const LISTING_FIELDS = Object.keys(ListingBody.properties).filter((field) => field !== 'location') as (keyof ListingInput & keyof ListingRow)[];

/** A listing as a PUT body (for a merge patch): the body's fields of the row. */
function listingAsInput(listing: ListingRow): ListingInput {
  const fields = Object.fromEntries(LISTING_FIELDS.map((field) => [field, listing[field]]));
  return { ...fields, location: { latitude: listing.latitude, longitude: listing.longitude } } as ListingInput;
}

async function verifiedCaptain(db: DbOrTx, userId: string): Promise<CaptainRow> {
  const captain = await repo.findCaptain(db, userId);
  if (!captain) throw CharterErrors.notACaptain();
  if (captain.status !== 'Verified') throw CharterErrors.captainNotVerified(captain.status);
  return captain;
}

export async function createListing(deps: ChartersDeps, viewer: Viewer, input: ListingInput) {
  const captain = await verifiedCaptain(deps.db, viewer.userId);
  checkListing(input, captain);
  const row = await repo.insertListing(deps.db, { id: uuidv7(), captainId: viewer.userId, ...listingValues(input) });
  return getListing(deps, viewer, row.id);
}

export async function getListing(deps: ChartersDeps, viewer: Viewer, id: string) {
  const found = await repo.findListing(deps.db, id);
  await authorize(listingPolicy, viewer, 'view', found?.listing, { db: deps.db }, () => CharterErrors.listingNotFound(id));
  return listingView(found!, viewer, (deps.now ?? (() => new Date()))());
}

export async function searchListings(deps: ChartersDeps, viewer: Viewer, filter: ListingsFilter, page: Page) {
  const now = (deps.now ?? (() => new Date()))();
  const { items, total } = await repo.searchListings(deps.db, filter, page, now);
  return { items: items.map((i) => listingView(i, viewer, now)), total };
}

/** PUT (replace) or PATCH (merge patch) by the listing's captain. */
export async function updateListing(deps: ChartersDeps, viewer: Viewer, id: string, change: Change<ListingInput>) {
  await deps.db.transaction(async (tx) => {
    const found = await repo.findListing(tx, id, true);
    const listing = await authorize(listingPolicy, viewer, 'edit', found?.listing, { db: tx }, () => CharterErrors.listingNotFound(id));
    const input = applyChange(change, ListingBody, () => listingAsInput(listing));
    checkListing(input, found!.captain);
    await repo.updateListing(tx, id, listingValues(input));
  });
  return getListing(deps, viewer, id);
}

/** The captain deactivates (never deletes) or reactivates their listing (core/admin/lifecycle: lock, 409 when already so, audit). */
export async function setListingActive(deps: ChartersDeps, viewer: Viewer, context: AuditContext, id: string, active: boolean, reason: string | undefined) {
  await setActive(deps.db, context, listingLifecycle(viewer), id, active, reason);
  return getListing(deps, viewer, id);
}

const listingLifecycle = (viewer: Viewer): Lifecycle<{ isActive: boolean }, void> => ({
  async lock(tx, id) {
    const found = await repo.findListing(tx, id, true);
    await authorize(listingPolicy, viewer, 'edit', found?.listing, { db: tx }, () => CharterErrors.listingNotFound(id));
    return found!.listing;
  },
  update: async (tx, id, values) => {
    await repo.updateListing(tx, id, values);
  },
  view: async () => undefined,
  notFound: CharterErrors.listingNotFound,
  alreadyActive: () => CharterErrors.alreadyInState(true),
  alreadyInactive: () => CharterErrors.alreadyInState(false),
  audit: { targetType: 'charter_listing', deactivated: 'charters.listing_deactivated', reactivated: 'charters.listing_reactivated' },
});

// Availability

export async function addSlots(deps: ChartersDeps, viewer: Viewer, listingId: string, startsAt: string[]) {
  const found = await repo.findListing(deps.db, listingId);
  await authorize(listingPolicy, viewer, 'edit', found?.listing, { db: deps.db }, () => CharterErrors.listingNotFound(listingId));
  const zone = found!.listing.timeZone;
  await repo.insertSlots(deps.db, startsAt.map((local) => ({ id: uuidv7(), listingId, startsAt: zonedToUtc(local, zone) })));
  const instants = startsAt.map((local) => zonedToUtc(local, zone).getTime());
  return listSlots(deps, viewer, listingId, { from: new Date(Math.min(...instants)), to: new Date(Math.max(...instants) + 1) });
}

export async function listSlots(deps: ChartersDeps, viewer: Viewer, listingId: string, range: { from?: Date; to?: Date }) {
  const found = await repo.findListing(deps.db, listingId);
  await authorize(listingPolicy, viewer, 'view', found?.listing, { db: deps.db }, () => CharterErrors.listingNotFound(listingId));
  const now = (deps.now ?? (() => new Date()))();
  const rows = await repo.listSlots(deps.db, listingId, range.from ?? now, range.to ?? new Date(now.getTime() + 366 * DAY_MS));
  return rows.map((r) => ({ id: r.id, startsAt: formatInZone(r.startsAt, found!.listing.timeZone), booked: r.booked }));
}

// Bookings

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
    await authorize(listingPolicy, viewer, 'book', found?.listing, { db: deps.db }, () => CharterErrors.listingNotFound(listingId));
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
        await recordAudit(tx, context, { action: 'charters.booked', targetType: 'charter_booking', targetId: id, after: { state: row.state, priceCents, depositCents } });
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
  await authorize(bookingPolicy, viewer, 'view', found?.booking, { db: deps.db }, () => CharterErrors.bookingNotFound(id));
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
    const ctx = { db: tx };
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
    await recordAudit(tx, context, {
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

