import { sql } from 'drizzle-orm';
import { check, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { idOf } from '../../core/db/references.js';
import { timestamps } from '../../core/db/columns.js';

/**
 * A user's profile. The row is created lazily by the first PUT /api/userprofile/me; a user
 * without a row has the defaults (no texts, imperial units, Public). Research consent is kept
 * in its own table (research_consents, below): the profile shows and edits it, the fishing log's
 * DNR research applies it.
 */
export const userProfiles = pgTable(
  'user_profiles',
  {
    userId: uuid()
      .primaryKey()
      .references(() => idOf('users'), { onDelete: 'cascade' }),
    displayName: text(),
    bio: text(),
    /** Two-letter state or province code, upper case (e.g. MN). */
    homeState: text(),
    /** Free text: a region, county or town. */
    homeRegion: text(),
    avatarUrl: text(),
    favouriteSpeciesId: uuid().references(() => idOf('fish_species')),
    unitsPreference: text({ enum: ['imperial', 'metric'] })
      .notNull()
      .default('imperial'),
    visibility: text({ enum: ['Public', 'Private', 'Friends', 'Circle'] })
      .notNull()
      .default('Public'),
    ...timestamps(),
  },
  (t) => [
    check('user_profiles_units_check', sql`${t.unitsPreference} IN ('imperial', 'metric')`),
    check('user_profiles_visibility_check', sql`${t.visibility} IN ('Public', 'Private', 'Friends', 'Circle')`),
  ],
);

export type UserProfileRow = typeof userProfiles.$inferSelect;

/** An angler's consent to DNR research on their log data (an angler's own setting): None (default), Anonymized, Identified. */
export const researchConsents = pgTable('research_consents', {
  userId: uuid()
    .primaryKey()
    .references(() => idOf('users'), { onDelete: 'cascade' }),
  level: text({ enum: ['None', 'Anonymized', 'Identified'] }).notNull(),
  givenAt: timestamp({ withTimezone: true }).notNull(),
});
