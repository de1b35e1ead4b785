import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from '../../core/db/columns.js';

/**
 * The application's user, created on first sight from the identity provider's claims.
 * `sub` (the identity provider's user id) is the natural key; `role` is stored as an integer
 * (Standard=0 … Owner=5, see core/access/roles.ts).
 */
export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey(),
    sub: text().notNull(),
    username: text().notNull(),
    email: text(),
    role: smallint().notNull().default(0),
    isActive: boolean().notNull().default(true),
    deactivatedAt: timestamp({ withTimezone: true }),
    deactivatedBy: uuid(),
    /**
     * Set while the person's own deletion of their account is pending (the accounts module): the
     * account is deactivated meanwhile, but its person may still sign in, read and cancel it.
     */
    deletionRequestedAt: timestamp({ withTimezone: true }),
    /** When the account was erased: the row stays as "a former angler" (no name, e-mail or sign-in) for the records kept. */
    erasedAt: timestamp({ withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('users_sub_key').on(t.sub),
    index('users_username_lower_idx').on(sql`lower(${t.username})`),
    // Prefix search by username (GET /api/social/users?username=): LIKE 'prefix%' whatever the collation.
    index('users_username_lower_prefix_idx').on(sql`lower(${t.username}) text_pattern_ops`),
    index('users_role_idx').on(t.role),
    // Admin user list: e-mail prefix search and the created range.
    index('users_email_lower_prefix_idx').on(sql`lower(${t.email}) text_pattern_ops`),
    index('users_created_idx').on(t.createdAt),
    // The owners whose content nobody else sees (core/access/visibility.ts: hiddenOwners): few rows.
    index('users_inactive_idx').on(t.id).where(sql`NOT ${t.isActive}`),
  ],
);

/** Successful sign-ins (POST /api/auth/login): last sign-in and the activity timeline. */
export const userSignIns = pgTable(
  'user_sign_ins',
  {
    id: uuid().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    signedInAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    ipAddress: text(),
    userAgent: text(),
  },
  (t) => [index('user_sign_ins_user_idx').on(t.userId, t.signedInAt.desc()), index('user_sign_ins_at_idx').on(t.signedInAt)],
);

export type UserRow = typeof users.$inferSelect;
