import { sql } from 'drizzle-orm';
import { boolean, check, date, doublePrecision, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deactivation, timestamps } from '../../core/db/columns.js';
import { idOf } from '../../core/db/references.js';

export const LICENCE_TYPES = ['OUPV', 'Master'] as const;
export type LicenceType = (typeof LICENCE_TYPES)[number];
export const CAPTAIN_STATUSES = ['Pending', 'Verified', 'Rejected'] as const;
export const BOOKING_STATES = ['Pending', 'Confirmed', 'Declined', 'CancelRequested', 'Canceled', 'Completed'] as const;
export type BookingState = (typeof BOOKING_STATES)[number];
/** States that hold their slot: a slot is bookable again only when its booking is Declined or Canceled. */
export const HOLDING_STATES: readonly BookingState[] = ['Pending', 'Confirmed', 'CancelRequested', 'Completed'];
/** USCG OUPV ("six-pack") licence: at most six passengers for hire. */
export const OUPV_MAX_PASSENGERS = 6;

/** A user's charter-captain capability: their USCG licence, vessel and insurance, verified by an admin. */
export const charterCaptains = pgTable(
  'charter_captains',
  {
    userId: uuid()
      .primaryKey()
      .references(() => idOf('users')),
    licenceType: text({ enum: LICENCE_TYPES }).notNull(),
    licenceNumber: text().notNull(),
    licenceExpiresOn: date().notNull(),
    vesselName: text().notNull(),
    vesselRegistration: text().notNull(),
    insuranceCarrier: text().notNull(),
    insurancePolicyNumber: text().notNull(),
    insuranceExpiresOn: date().notNull(),
    status: text({ enum: CAPTAIN_STATUSES }).notNull().default('Pending'),
    reviewedBy: uuid(),
    reviewedAt: timestamp({ withTimezone: true }),
    reviewReason: text(),
    ...timestamps(),
  },
  (t) => [index('charter_captains_status_idx').on(t.status, t.createdAt)],
);

/** One kind of trip a listing offers (stored in the listing). */
export interface TripType {
  id: string;
  name: string;
  durationHours: number;
  pricing: 'PerTrip' | 'PerPerson';
  priceCents: number;
  maxPartySize: number;
}

export const charterListings = pgTable(
  'charter_listings',
  {
    id: uuid().primaryKey(),
    captainId: uuid()
      .notNull()
      .references(() => charterCaptains.userId),
    title: text().notNull(),
    description: text().notNull(),
    boatName: text().notNull(),
    homePort: text().notNull(),
    /** ISO 3166-2, upper case (US-FL). */
    state: text().notNull(),
    latitude: doublePrecision().notNull(),
    longitude: doublePrecision().notNull(),
    /** IANA time zone of the home port: trip times are entered and shown in it. */
    timeZone: text().notNull(),
    currency: text().notNull().default('USD'),
    tripTypes: jsonb().$type<TripType[]>().notNull(),
    targetSpecies: text().array().notNull().default(sql`'{}'::text[]`),
    included: text().array().notNull().default(sql`'{}'::text[]`),
    freeCancellationDays: smallint().notNull(),
    lateCancellationRefundPercent: smallint().notNull(),
    depositPercent: smallint().notNull(),
    instantBook: boolean().notNull().default(false),
    ...deactivation(),
    ...timestamps(),
  },
  (t) => [
    check('charter_listings_free_days', sql`${t.freeCancellationDays} BETWEEN 1 AND 60`),
    check('charter_listings_late_refund', sql`${t.lateCancellationRefundPercent} BETWEEN 0 AND 100`),
    check('charter_listings_deposit', sql`${t.depositPercent} = 0 OR ${t.depositPercent} BETWEEN 10 AND 30`),
    check('charter_listings_lat', sql`${t.latitude} BETWEEN -90 AND 90 AND ${t.longitude} BETWEEN -180 AND 180`),
    index('charter_listings_captain_idx').on(t.captainId),
    index('charter_listings_active_state_idx').on(t.state, t.id).where(sql`is_active`),
  ],
);

/** Bookable start times of a listing (the whole boat). */
export const charterSlots = pgTable(
  'charter_slots',
  {
    id: uuid().primaryKey(),
    listingId: uuid()
      .notNull()
      .references(() => charterListings.id),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('charter_slots_listing_start_key').on(t.listingId, t.startsAt)],
);

/** The policy in force when the booking was made: it governs cancellations and refunds later. */
export interface BookingPolicy {
  freeCancellationDays: number;
  lateCancellationRefundPercent: number;
  depositPercent: number;
  instantBook: boolean;
}

export const charterBookings = pgTable(
  'charter_bookings',
  {
    id: uuid().primaryKey(),
    listingId: uuid()
      .notNull()
      .references(() => charterListings.id),
    slotId: uuid()
      .notNull()
      .references(() => charterSlots.id),
    customerId: uuid()
      .notNull()
      .references(() => idOf('users')),
    captainId: uuid()
      .notNull()
      .references(() => idOf('users')),
    tripType: jsonb().$type<TripType>().notNull(),
    partySize: smallint().notNull(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    timeZone: text().notNull(),
    priceCents: integer().notNull(),
    depositCents: integer().notNull(),
    currency: text().notNull(),
    policy: jsonb().$type<BookingPolicy>().notNull(),
    state: text({ enum: BOOKING_STATES }).notNull(),
    acceptBy: timestamp({ withTimezone: true }),
    paymentId: uuid(),
    refundedCents: integer().notNull().default(0),
    decidedAt: timestamp({ withTimezone: true }),
    declineReason: text(),
    canceledBy: text({ enum: ['customer', 'captain', 'weather'] }),
    canceledByUserId: uuid(),
    cancelReason: text(),
    ...timestamps(),
  },
  (t) => [
    check('charter_bookings_party', sql`${t.partySize} >= 1`),
    check('charter_bookings_amounts', sql`${t.priceCents} > 0 AND ${t.depositCents} >= 0 AND ${t.depositCents} <= ${t.priceCents}`),
    // Double booking is impossible: one holding booking per slot.
    uniqueIndex('charter_bookings_slot_holding_key')
      .on(t.slotId)
      .where(sql`state IN ('Pending', 'Confirmed', 'CancelRequested', 'Completed')`),
    index('charter_bookings_customer_idx').on(t.customerId, t.startsAt),
    index('charter_bookings_captain_idx').on(t.captainId, t.startsAt),
    index('charter_bookings_pending_idx').on(t.acceptBy).where(sql`state = 'Pending'`),
  ],
);

export type CaptainRow = typeof charterCaptains.$inferSelect;
export type ListingRow = typeof charterListings.$inferSelect;
export type SlotRow = typeof charterSlots.$inferSelect;
export type BookingRow = typeof charterBookings.$inferSelect;
