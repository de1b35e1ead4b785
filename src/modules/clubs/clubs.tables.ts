import { sql } from 'drizzle-orm';
import { doublePrecision, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { deactivation, timestamps } from '../../core/db/columns.js';
import { featuring } from '../../core/db/featured.js';
import { idOf } from '../../core/db/references.js';

export const CLUB_PRIVACIES = ['Public', 'Private'] as const;
export const CLUB_ROLES = ['owner', 'admin', 'member'] as const;
export type ClubRole = (typeof CLUB_ROLES)[number];
export const MEMBERSHIP_STATUSES = ['Active', 'Pending'] as const;

/**
 * Fishing clubs. Anyone joins a public club at once; joining a private club is a request
 * (`Pending`) its admins approve. The creator is the club's owner. `memberCount` counts active
 * members, kept in step in the transactions that change them. GiST index on ll_to_earth(lat, lon)
 * in a custom migration.
 */
export const clubs = pgTable(
  'clubs',
  {
    id: uuid().primaryKey(),
    ownerId: uuid()
      .notNull()
      .references(() => idOf('users'), { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text(),
    privacy: text({ enum: CLUB_PRIVACIES }).notNull(),
    homeWater: text(),
    city: text(),
    stateCode: text(),
    lat: doublePrecision().notNull(),
    lon: doublePrecision().notNull(),
    websiteUrl: text(),
    memberCount: integer().notNull().default(0),
    ...featuring(),
    ...deactivation(),
    ...timestamps(),
  },
  (t) => [index('clubs_state_idx').on(t.stateCode), index('clubs_name_idx').on(sql`lower(${t.name})`)],
);

export const clubMembers = pgTable(
  'club_members',
  {
    clubId: uuid()
      .notNull()
      .references(() => clubs.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => idOf('users'), { onDelete: 'cascade' }),
    role: text({ enum: CLUB_ROLES }).notNull(),
    status: text({ enum: MEMBERSHIP_STATUSES }).notNull(),
    requestedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    joinedAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.userId] }), index('club_members_user_idx').on(t.userId)],
);

export type ClubRow = typeof clubs.$inferSelect;
export type ClubMemberRow = typeof clubMembers.$inferSelect;
