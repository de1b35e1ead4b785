import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from '../../core/db/columns.js';
import { idOf } from '../../core/db/references.js';

/**
 * Tournaments: organizer profiles, tournaments with divisions, registrations (with the entry fee
 * recorded as a pending payment), catch submissions and their judging, published placings and
 * sponsors. Measures are integers so sums and ties are exact: lengths in quarter inches (CPR
 * rounds down to the ¼ inch), weights in hundredths of a pound, money in cents.
 */

export const ORGANIZER_STATUSES = ['Pending', 'Verified', 'Rejected', 'Suspended'] as const;
export type OrganizerStatus = (typeof ORGANIZER_STATUSES)[number];

export const TOURNAMENT_STATUSES = ['Draft', 'PendingApproval', 'Approved', 'InProgress', 'Completed', 'Rejected', 'Suspended'] as const;
export type TournamentStatus = (typeof TOURNAMENT_STATUSES)[number];

export const TOURNAMENT_FORMATS = ['CPR', 'WeighIn'] as const;
export type TournamentFormat = (typeof TOURNAMENT_FORMATS)[number];

export const TOURNAMENT_VISIBILITIES = ['Public', 'Unlisted'] as const;
export type TournamentVisibility = (typeof TOURNAMENT_VISIBILITIES)[number];

export const MEASURES = ['length', 'weight'] as const;
export type Measure = (typeof MEASURES)[number];

export const TOURNAMENT_CATCH_STATUSES = ['Pending', 'Verified', 'Rejected'] as const;
export type TournamentCatchStatus = (typeof TOURNAMENT_CATCH_STATUSES)[number];

export const REGISTRATION_STATUSES = ['Active', 'Cancelled'] as const;
/**
 * A registration's fee: Pending (the payment provider has not decided yet), Paid, Declined (the card
 * was refused: the registration was cancelled), Refunded (cancelled inside the refund window),
 * Forfeited (cancelled after it), Waived (cancelled before any charge went through).
 */
export const FEE_STATUSES = ['Pending', 'Paid', 'Declined', 'Refunded', 'Forfeited', 'Waived'] as const;
export type FeeStatus = (typeof FEE_STATUSES)[number];

/** Tie-breaks after the total, in the order a tournament applies them. */
export const TIE_BREAKS = ['biggestFish', 'earliestLastCatch'] as const;
export type TieBreak = (typeof TIE_BREAKS)[number];

export const SPONSOR_TIERS = ['Title', 'Gold', 'Silver', 'Bronze', 'Supporter'] as const;
export type SponsorTier = (typeof SPONSOR_TIERS)[number];

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export const tournamentOrganizers = pgTable(
  'tournament_organizers',
  {
    id: uuid().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => idOf('users'), { onDelete: 'cascade' }),
    name: text().notNull(),
    contactEmail: text().notNull(),
    contactPhone: text(),
    website: text(),
    /** What the applicant asked for: to take entry fees. */
    takesPayments: boolean().notNull().default(false),
    /** What the verification allowed: paid tournaments need it. */
    paymentsAllowed: boolean().notNull().default(false),
    status: text({ enum: ORGANIZER_STATUSES }).notNull().default('Pending'),
    statusReason: text(),
    reviewedBy: uuid(),
    reviewedAt: timestamp({ withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('tournament_organizers_user_key').on(t.userId),
    index('tournament_organizers_status_idx').on(t.status, t.createdAt),
    check('tournament_organizers_status_check', sql`${t.status} IN (${inList(ORGANIZER_STATUSES)})`),
  ],
);

export const tournaments = pgTable(
  'tournaments',
  {
    id: uuid().primaryKey(),
    organizerId: uuid()
      .notNull()
      .references(() => tournamentOrganizers.id),
    /** The organizer's user: the owner of the record for access policies. */
    ownerId: uuid()
      .notNull()
      .references(() => idOf('users')),
    name: text().notNull(),
    description: text(),
    waterBody: text(),
    stateCode: text(),
    timeZone: text().notNull(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    registrationDeadline: timestamp({ withTimezone: true }).notNull(),
    capacity: integer(),
    entryFeeCents: integer().notNull().default(0),
    currency: text().notNull().default('USD'),
    visibility: text({ enum: TOURNAMENT_VISIBILITIES }).notNull().default('Public'),
    format: text({ enum: TOURNAMENT_FORMATS }).notNull(),
    /** Shown by anglers in every catch photo. */
    identifierCode: text().notNull(),
    refundWindowHours: integer().notNull().default(48),
    /** Tie-breaks after the total, in order (see TIE_BREAKS). */
    tieBreaks: text({ enum: TIE_BREAKS }).array().notNull().default(sql`'{biggestFish,earliestLastCatch}'::text[]`),
    status: text({ enum: TOURNAMENT_STATUSES }).notNull().default('Draft'),
    statusReason: text(),
    /** Status to return to when a suspension is lifted. */
    statusBeforeSuspension: text({ enum: TOURNAMENT_STATUSES }),
    /** Set when registrations are closed regardless of deadline (e.g. the organizer is suspended). */
    registrationsClosedReason: text(),
    reviewedBy: uuid(),
    reviewedAt: timestamp({ withTimezone: true }),
    resultsPublishedAt: timestamp({ withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    index('tournaments_status_start_idx').on(t.status, t.startsAt),
    index('tournaments_owner_idx').on(t.ownerId, t.startsAt),
    index('tournaments_organizer_idx').on(t.organizerId),
    uniqueIndex('tournaments_identifier_code_key').on(t.identifierCode),
    check('tournaments_status_check', sql`${t.status} IN (${inList(TOURNAMENT_STATUSES)})`),
    check('tournaments_format_check', sql`${t.format} IN (${inList(TOURNAMENT_FORMATS)})`),
    check('tournaments_visibility_check', sql`${t.visibility} IN (${inList(TOURNAMENT_VISIBILITIES)})`),
    check('tournaments_window_check', sql`${t.endsAt} > ${t.startsAt}`),
    check('tournaments_deadline_check', sql`${t.registrationDeadline} <= ${t.startsAt}`),
    check('tournaments_fee_check', sql`${t.entryFeeCents} >= 0`),
    check('tournaments_capacity_check', sql`${t.capacity} IS NULL OR ${t.capacity} > 0`),
    check('tournaments_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('tournaments_refund_window_check', sql`${t.refundWindowHours} >= 0`),
    check('tournaments_tie_breaks_check', sql`${t.tieBreaks} <@ ARRAY['biggestFish', 'earliestLastCatch']::text[]`),
  ],
);

export interface PenaltyRule {
  code: string;
  description: string;
  /** Points deducted, in the division's measure units (quarter inches or hundredths of a pound). */
  points: number;
}

export const tournamentDivisions = pgTable(
  'tournament_divisions',
  {
    id: uuid().primaryKey(),
    tournamentId: uuid()
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    speciesIds: uuid().array().notNull(),
    measure: text({ enum: MEASURES }).notNull(),
    bestN: integer().notNull(),
    minLengthQuarterInches: integer(),
    penaltyRules: jsonb().$type<PenaltyRule[]>().notNull().default(sql`'[]'::jsonb`),
    position: integer().notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('tournament_divisions_name_key').on(t.tournamentId, sql`lower(${t.name})`),
    check('tournament_divisions_best_n_check', sql`${t.bestN} BETWEEN 1 AND 50`),
    check('tournament_divisions_measure_check', sql`${t.measure} IN ('length', 'weight')`),
  ],
);

export const tournamentRegistrations = pgTable(
  'tournament_registrations',
  {
    id: uuid().primaryKey(),
    tournamentId: uuid()
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    divisionId: uuid()
      .notNull()
      .references(() => tournamentDivisions.id),
    userId: uuid()
      .notNull()
      .references(() => idOf('users')),
    /** The name shown on the public leaderboard. */
    anglerName: text().notNull(),
    status: text({ enum: REGISTRATION_STATUSES }).notNull().default('Active'),
    cancelledAt: timestamp({ withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    // One active registration per person per division, enforced by the database.
    uniqueIndex('tournament_registrations_person_division_key').on(t.divisionId, t.userId).where(sql`status = 'Active'`),
    index('tournament_registrations_tournament_idx').on(t.tournamentId, t.status),
    index('tournament_registrations_user_idx').on(t.userId, t.tournamentId),
    check('tournament_registrations_status_check', sql`${t.status} IN ('Active', 'Cancelled')`),
  ],
);

/**
 * The entry fee of a registration: recorded (Pending) in the registration's transaction, then
 * charged through the payments service, whose payment it names (`externalPaymentId`). The money,
 * refunds and the ledger are the payments module's; this row is the fee's state for the tournament.
 */
export const tournamentFeePayments = pgTable(
  'tournament_fee_payments',
  {
    id: uuid().primaryKey(),
    registrationId: uuid()
      .notNull()
      .references(() => tournamentRegistrations.id, { onDelete: 'cascade' }),
    tournamentId: uuid()
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => idOf('users')),
    amountCents: integer().notNull(),
    currency: text().notNull(),
    status: text({ enum: FEE_STATUSES }).notNull().default('Pending'),
    /** The payments service's payment (GET /api/admin/payments/{id}); null until charged. */
    externalPaymentId: text(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('tournament_fee_payments_registration_key').on(t.registrationId),
    check('tournament_fee_payments_amount_check', sql`${t.amountCents} >= 0`),
    check('tournament_fee_payments_status_check', sql`${t.status} IN (${inList(FEE_STATUSES)})`),
  ],
);

export const tournamentCatches = pgTable(
  'tournament_catches',
  {
    id: uuid().primaryKey(),
    tournamentId: uuid()
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    divisionId: uuid()
      .notNull()
      .references(() => tournamentDivisions.id),
    registrationId: uuid()
      .notNull()
      .references(() => tournamentRegistrations.id),
    userId: uuid()
      .notNull()
      .references(() => idOf('users')),
    speciesId: uuid()
      .notNull()
      .references(() => idOf('fish_species')),
    lengthQuarterInches: integer(),
    weightHundredthsLb: integer(),
    /** The division's measure of this catch (quarter inches or hundredths of a pound). */
    score: integer().notNull(),
    photoUrl: text(),
    photoHash: text(),
    capturedAt: timestamp({ withTimezone: true }).notNull(),
    fishingLogCatchId: uuid().references(() => idOf('catches'), { onDelete: 'set null' }),
    status: text({ enum: TOURNAMENT_CATCH_STATUSES }).notNull().default('Pending'),
    rejectionReason: text(),
    judgedBy: uuid(),
    judgedAt: timestamp({ withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    // Duplicate detection: the same photo or the same fishing-log catch cannot be submitted twice.
    uniqueIndex('tournament_catches_photo_hash_key').on(t.tournamentId, t.photoHash).where(sql`photo_hash IS NOT NULL`),
    uniqueIndex('tournament_catches_log_catch_key').on(t.tournamentId, t.fishingLogCatchId).where(sql`fishing_log_catch_id IS NOT NULL`),
    index('tournament_catches_leaderboard_idx').on(t.tournamentId, t.status, t.registrationId, t.score),
    index('tournament_catches_registration_idx').on(t.registrationId, t.capturedAt),
    check('tournament_catches_score_check', sql`${t.score} > 0`),
    check('tournament_catches_status_check', sql`${t.status} IN (${inList(TOURNAMENT_CATCH_STATUSES)})`),
  ],
);

/** Judges the organizer named: they see the tournament and judge its catches. */
export const tournamentJudges = pgTable(
  'tournament_judges',
  {
    tournamentId: uuid()
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => idOf('users')),
    createdBy: uuid().notNull(),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.tournamentId, t.userId] }), index('tournament_judges_user_idx').on(t.userId)],
);

/** Penalties the organizer applied to a registration (e.g. late check-in), in measure units. */
export const tournamentPenalties = pgTable(
  'tournament_penalties',
  {
    id: uuid().primaryKey(),
    tournamentId: uuid()
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    registrationId: uuid()
      .notNull()
      .references(() => tournamentRegistrations.id),
    code: text().notNull(),
    points: integer().notNull(),
    reason: text().notNull(),
    createdBy: uuid().notNull(),
    ...timestamps(),
  },
  (t) => [index('tournament_penalties_registration_idx').on(t.registrationId), check('tournament_penalties_points_check', sql`${t.points} > 0`)],
);

/** Official placings published by the organizer; editable with a reason (audit-logged). */
export const tournamentResults = pgTable(
  'tournament_results',
  {
    id: uuid().primaryKey(),
    tournamentId: uuid()
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    divisionId: uuid()
      .notNull()
      .references(() => tournamentDivisions.id),
    registrationId: uuid()
      .notNull()
      .references(() => tournamentRegistrations.id),
    place: integer().notNull(),
    totalScore: integer().notNull(),
    payoutCents: integer().notNull().default(0),
    note: text(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('tournament_results_place_key').on(t.divisionId, t.place),
    uniqueIndex('tournament_results_registration_key').on(t.divisionId, t.registrationId),
    index('tournament_results_tournament_idx').on(t.tournamentId, t.divisionId, t.place),
    check('tournament_results_place_check', sql`${t.place} >= 1`),
    check('tournament_results_payout_check', sql`${t.payoutCents} >= 0`),
  ],
);

export const tournamentSponsors = pgTable(
  'tournament_sponsors',
  {
    id: uuid().primaryKey(),
    tournamentId: uuid()
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    tier: text({ enum: SPONSOR_TIERS }).notNull(),
    amountCents: integer().notNull().default(0),
    website: text(),
    logoUrl: text(),
    createdBy: uuid().notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('tournament_sponsors_name_key').on(t.tournamentId, sql`lower(${t.name})`),
    index('tournament_sponsors_tournament_idx').on(t.tournamentId, t.tier),
    check('tournament_sponsors_amount_check', sql`${t.amountCents} >= 0`),
    check('tournament_sponsors_tier_check', sql`${t.tier} IN (${inList(SPONSOR_TIERS)})`),
  ],
);

export type OrganizerRow = typeof tournamentOrganizers.$inferSelect;
export type TournamentRow = typeof tournaments.$inferSelect;
export type DivisionRow = typeof tournamentDivisions.$inferSelect;
export type RegistrationRow = typeof tournamentRegistrations.$inferSelect;
export type FeePaymentRow = typeof tournamentFeePayments.$inferSelect;
export type TournamentCatchRow = typeof tournamentCatches.$inferSelect;
export type PenaltyRow = typeof tournamentPenalties.$inferSelect;
export type ResultRow = typeof tournamentResults.$inferSelect;
export type SponsorRow = typeof tournamentSponsors.$inferSelect;
