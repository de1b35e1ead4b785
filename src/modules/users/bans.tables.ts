import { sql } from 'drizzle-orm';
import { index, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from '../../core/db/columns.js';
import { users } from './users.tables.js';

/**
 * Bans of users. A ban is in force from `startsAt` until `endsAt` (null: permanent) unless it was
 * lifted (`liftedAt`); it expires by itself, nothing rewrites the row when it does. One ban in
 * force per user is kept by the ban service under the user's row lock (time cannot be indexed).
 */
export const userBans = pgTable(
  'user_bans',
  {
    id: uuid().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    bannedBy: uuid().references(() => users.id),
    reason: text().notNull(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }),
    liftedAt: timestamp({ withTimezone: true }),
    liftedBy: uuid().references(() => users.id),
    liftReason: text(),
    /**
     * Written when the banned account is erased: keyed hashes (HMAC-SHA-256 under a server key that
     * is not in the database) of its identity-provider subject and e-mail (bans-identity.ts), so a
     * new account of the same identity is recognised and banned again; nothing else of the person is
     * kept. `identityHashVersion`: 2 keyed; 1 the unkeyed SHA-256 of before migration 0048, which the
     * users module re-keys at start-up (null: no hashes).
     */
    subjectHash: text(),
    emailHash: text(),
    identityHashVersion: smallint(),
    ...timestamps(),
  },
  (t) => [
    index('user_bans_user_idx').on(t.userId, t.startsAt.desc()),
    index('user_bans_banned_by_idx').on(t.bannedBy, t.startsAt.desc()),
    index('user_bans_unlifted_idx').on(t.endsAt).where(sql`${t.liftedAt} IS NULL`),
    index('user_bans_starts_idx').on(t.startsAt.desc()),
    index('user_bans_subject_hash_idx').on(t.subjectHash).where(sql`${t.subjectHash} IS NOT NULL`),
    index('user_bans_email_hash_idx').on(t.emailHash).where(sql`${t.emailHash} IS NOT NULL`),
  ],
);

/** One appeal per ban (unique `banId`): `Open → Upheld | Overturned`, with a reply the user sees. */
export const banAppeals = pgTable(
  'ban_appeals',
  {
    id: uuid().primaryKey(),
    banId: uuid()
      .notNull()
      .references(() => userBans.id),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    text: text().notNull(),
    status: text({ enum: ['Open', 'Upheld', 'Overturned'] }).notNull().default('Open'),
    reply: text(),
    decidedBy: uuid().references(() => users.id),
    decidedAt: timestamp({ withTimezone: true }),
    ...timestamps(),
  },
  (t) => [uniqueIndex('ban_appeals_ban_key').on(t.banId), index('ban_appeals_status_idx').on(t.status, t.createdAt)],
);

export type BanRow = typeof userBans.$inferSelect;
export type AppealRow = typeof banAppeals.$inferSelect;
