import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from '../../core/db/columns.js';
import { idOf } from '../../core/db/references.js';

export const DELETION_STATUSES = ['Pending', 'Cancelled', 'Erased'] as const;
export type DeletionStatus = (typeof DELETION_STATUSES)[number];

/**
 * Account deletions asked for by their person (DELETE /api/userprofile/me, POST /api/account/deletion):
 * one row per user (a cancelled deletion asked again reuses it). `Pending` until `eraseAfter`,
 * when the erasure job erases the account (`Erased`) unless a legal hold (`legalHoldAt`) keeps it
 * waiting; `Cancelled` by the person during the grace period. `idpSubject` is the identity
 * provider's user id, kept only from the erasure until the provider has deleted that user.
 */
export const accountDeletions = pgTable(
  'account_deletions',
  {
    userId: uuid()
      .primaryKey()
      .references(() => idOf('users')),
    status: text({ enum: DELETION_STATUSES }).notNull(),
    requestedAt: timestamp({ withTimezone: true }).notNull(),
    eraseAfter: timestamp({ withTimezone: true }).notNull(),
    cancelledAt: timestamp({ withTimezone: true }),
    erasedAt: timestamp({ withTimezone: true }),
    legalHoldAt: timestamp({ withTimezone: true }),
    legalHoldBy: uuid().references(() => idOf('users')),
    legalHoldReason: text(),
    idpSubject: text(),
    ...timestamps(),
  },
  (t) => [
    index('account_deletions_due_idx').on(t.eraseAfter).where(sql`${t.status} = 'Pending'`),
    index('account_deletions_status_idx').on(t.status, t.requestedAt.desc()),
    index('account_deletions_idp_idx').on(t.erasedAt).where(sql`${t.idpSubject} IS NOT NULL`),
    check('account_deletions_status_check', sql`${t.status} IN ('Pending', 'Cancelled', 'Erased')`),
  ],
);

export type AccountDeletionRow = typeof accountDeletions.$inferSelect;
