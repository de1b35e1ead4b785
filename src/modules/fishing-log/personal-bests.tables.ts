import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idOf, ownedByUser } from '../../core/db/references.js';

/**
 * What counts as a personal best for one user: a species, a measure (weight in kg or length in
 * cm), optionally a water body, a state and released fish only. Identical criteria of one user
 * are refused by a unique index (water body compared case-insensitively).
 */
export const pbCriteria = pgTable(
  'personal_best_criteria',
  {
    id: uuid().primaryKey(),
    ownerId: ownedByUser(),
    speciesId: uuid()
      .notNull()
      .references(() => idOf('fish_species')),
    measure: text({ enum: ['weight', 'length'] }).notNull(),
    waterBody: text(),
    stateCode: text(),
    releasedOnly: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('personal_best_criteria_identity_key').on(
      t.ownerId,
      t.speciesId,
      t.measure,
      sql`coalesce(lower(${t.waterBody}), '')`,
      sql`coalesce(${t.stateCode}, '')`,
      t.releasedOnly,
    ),
    index('personal_best_criteria_owner_time_idx').on(t.ownerId, t.createdAt.desc(), t.id.desc()),
    check('personal_best_criteria_measure_check', sql`${t.measure} IN ('weight', 'length')`),
  ],
);

/**
 * Personal-best history: one row each time a criterion got a new best catch. `status`:
 * - `current`: the best in force (at most one per criterion, partial unique index);
 * - `beaten`: a better (or equal but earlier) catch took over;
 * - `withdrawn`: its catch was edited below it, no longer matches, or was deleted.
 * `value` and `caughtAt` are snapshots (kg or cm), so history survives edits and deletions of
 * catches (`catchId` becomes null when the catch is deleted). At most one row per user is the
 * ultimate personal best (partial unique index), and only a current one.
 */
export const personalBests = pgTable(
  'personal_bests',
  {
    id: uuid().primaryKey(),
    ownerId: ownedByUser(),
    criterionId: uuid()
      .notNull()
      .references(() => pbCriteria.id, { onDelete: 'cascade' }),
    catchId: uuid().references(() => idOf('catches'), { onDelete: 'set null' }),
    value: numeric({ precision: 10, scale: 3, mode: 'number' }).notNull(),
    caughtAt: timestamp({ withTimezone: true }).notNull(),
    previousId: uuid(),
    status: text({ enum: ['current', 'beaten', 'withdrawn'] }).notNull(),
    achievedAt: timestamp({ withTimezone: true }).notNull(),
    endedAt: timestamp({ withTimezone: true }),
    isUltimate: boolean().notNull().default(false),
  },
  (t) => [
    foreignKey({ name: 'personal_bests_previous_id_fk', columns: [t.previousId], foreignColumns: [t.id] }).onDelete('set null'),
    uniqueIndex('personal_bests_one_current_per_criterion').on(t.criterionId).where(sql`status = 'current'`),
    uniqueIndex('personal_bests_one_ultimate_per_owner').on(t.ownerId).where(sql`is_ultimate`),
    index('personal_bests_owner_current_idx').on(t.ownerId, t.achievedAt.desc(), t.id.desc()).where(sql`status = 'current'`),
    index('personal_bests_criterion_history_idx').on(t.criterionId, t.achievedAt.desc(), t.id.desc()),
    index('personal_bests_catch_idx').on(t.catchId),
    index('personal_bests_previous_idx').on(t.previousId),
    check('personal_bests_status_check', sql`${t.status} IN ('current', 'beaten', 'withdrawn')`),
    check('personal_bests_ultimate_is_current', sql`NOT ${t.isUltimate} OR ${t.status} = 'current'`),
  ],
);

export type PbCriterionRow = typeof pbCriteria.$inferSelect;
export type PersonalBestRow = typeof personalBests.$inferSelect;
