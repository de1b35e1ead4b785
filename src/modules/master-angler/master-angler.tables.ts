import { sql } from 'drizzle-orm';
import { index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deactivation, timestamps } from '../../core/db/columns.js';
import { idOf } from '../../core/db/references.js';

/**
 * Master Angler programs (one per jurisdiction and name, a regulations jurisdiction by foreign key),
 * their species minimums, their revisions and anglers' submissions with their history.
 */

export interface AwardLevel {
  name: string;
  /** Distinct qualifying species approved in one program year. */
  speciesCount: number;
  description?: string;
}

export const MEASUREMENTS = ['length', 'weight', 'either'] as const;
export const CATEGORIES = ['any', 'release', 'harvest'] as const;

export const maPrograms = pgTable(
  'ma_programs',
  {
    id: uuid().primaryKey(),
    jurisdictionId: uuid()
      .notNull()
      .references(() => idOf('reg_jurisdictions')),
    name: text().notNull(),
    url: text().notNull(),
    sourceYear: integer().notNull(),
    measurement: text({ enum: MEASUREMENTS }).notNull(),
    /** Lengths are counted to this increment (Iowa: ¼ inch); null = as measured. */
    lengthIncrementIn: numeric({ precision: 4, scale: 3, mode: 'number' }),
    awardLevels: jsonb().$type<AwardLevel[]>().notNull().default(sql`'[]'::jsonb`),
    rules: text(),
    createdBy: uuid(),
    updatedBy: uuid(),
    /** Incremented by every administrative change; each revision's full state is in ma_program_revisions. */
    revision: integer().notNull().default(1),
    ...deactivation(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('ma_programs_name_key').on(t.jurisdictionId, sql`lower(${t.name})`)],
);

export const maProgramSpecies = pgTable(
  'ma_program_species',
  {
    id: uuid().primaryKey(),
    programId: uuid()
      .notNull()
      .references(() => maPrograms.id),
    speciesId: uuid()
      .notNull()
      .references(() => idOf('fish_species')),
    category: text({ enum: CATEGORIES }).notNull().default('any'),
    minLengthIn: numeric({ precision: 5, scale: 2, mode: 'number' }),
    minWeightLb: numeric({ precision: 6, scale: 2, mode: 'number' }),
    notes: text(),
    /** The program year the minimum is confirmed for, and where it was read. */
    dataYear: integer(),
    sourceUrl: text(),
    ...deactivation(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('ma_program_species_key').on(t.programId, t.speciesId, t.category)],
);

/**
 * History of a program: programs are edited in place (one program across the years; submissions
 * keep their own measurements and program year), and every administrative change writes the
 * program's full state after the change here, with who, when and why.
 */
export const maProgramRevisions = pgTable(
  'ma_program_revisions',
  {
    id: uuid().primaryKey(),
    programId: uuid()
      .notNull()
      .references(() => maPrograms.id),
    revision: integer().notNull(),
    snapshot: jsonb().notNull(),
    reason: text().notNull(),
    actorId: uuid(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ma_program_revisions_key').on(t.programId, t.revision)],
);

export const SUBMISSION_STATUSES = ['Submitted', 'UnderReview', 'Approved', 'Rejected'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** One entry per angler, program, species and program year (the unique index enforces it). */
export const maSubmissions = pgTable(
  'ma_submissions',
  {
    id: uuid().primaryKey(),
    programId: uuid()
      .notNull()
      .references(() => maPrograms.id),
    userId: uuid()
      .notNull()
      .references(() => idOf('users'), { onDelete: 'cascade' }),
    /** The fishing-log catch (owned by the fishing-log module: no foreign key across modules). */
    catchId: uuid().notNull(),
    speciesId: uuid()
      .notNull()
      .references(() => idOf('fish_species')),
    programYear: integer().notNull(),
    category: text({ enum: CATEGORIES }).notNull(),
    lengthCm: numeric({ precision: 6, scale: 2, mode: 'number' }),
    weightKg: numeric({ precision: 8, scale: 3, mode: 'number' }),
    caughtAt: timestamp({ withTimezone: true }).notNull(),
    waterBody: text(),
    stateCode: text(),
    photoUrl: text(),
    witness: text(),
    status: text({ enum: SUBMISSION_STATUSES }).notNull(),
    rejectionReason: text(),
    /** 1, or 2 after the one resubmission allowed after a rejection. */
    attempt: integer().notNull().default(1),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('ma_submissions_one_per_species_key').on(t.userId, t.programId, t.speciesId, t.programYear),
    index('ma_submissions_user_idx').on(t.userId, t.createdAt.desc()),
    index('ma_submissions_status_idx').on(t.status, t.createdAt),
  ],
);

export const maSubmissionEvents = pgTable(
  'ma_submission_events',
  {
    id: uuid().primaryKey(),
    submissionId: uuid()
      .notNull()
      .references(() => maSubmissions.id, { onDelete: 'cascade' }),
    status: text({ enum: SUBMISSION_STATUSES }).notNull(),
    reason: text(),
    actorId: uuid(),
    evidence: jsonb(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ma_submission_events_submission_idx').on(t.submissionId, t.at)],
);

export type ProgramRow = typeof maPrograms.$inferSelect;
export type ProgramSpeciesRow = typeof maProgramSpecies.$inferSelect;
export type ProgramRevisionRow = typeof maProgramRevisions.$inferSelect;
export type SubmissionRow = typeof maSubmissions.$inferSelect;
export type SubmissionEventRow = typeof maSubmissionEvents.$inferSelect;
