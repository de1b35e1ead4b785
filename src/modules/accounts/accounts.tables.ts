import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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

export const EXPORT_STATUSES = ['Pending', 'Ready', 'Expired', 'Failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/**
 * A person's copies of their data (POST /api/account/export): `Pending` while the job writes the
 * archive (FISHLOG_DATA_DIR/exports/<id>.tar.gz), `Ready` from `readyAt` until `expiresAt` (7 days),
 * then `Expired` (the sweep deletes the file); `Failed` when the job gave up. At most one `Pending`
 * per user (the partial unique index); the once-a-day rule is checked under a per-user lock.
 */
export const accountExports = pgTable(
  'account_exports',
  {
    id: uuid().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => idOf('users')),
    status: text({ enum: EXPORT_STATUSES }).notNull(),
    requestedAt: timestamp({ withTimezone: true }).notNull(),
    readyAt: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }),
    size: bigint({ mode: 'number' }),
    ...timestamps(),
  },
  (t) => [
    index('account_exports_user_idx').on(t.userId, t.requestedAt.desc()),
    uniqueIndex('account_exports_one_pending_idx').on(t.userId).where(sql`${t.status} = 'Pending'`),
    index('account_exports_expiry_idx').on(t.expiresAt).where(sql`${t.status} = 'Ready'`),
    check('account_exports_status_check', sql`${t.status} IN ('Pending', 'Ready', 'Expired', 'Failed')`),
  ],
);

export type AccountExportRow = typeof accountExports.$inferSelect;
