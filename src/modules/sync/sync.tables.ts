import { sql } from 'drizzle-orm';
import { customType, index, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The change cursor of offline sync (issue 45): a 64-bit transaction id (`xid8`). Every synced table
 * has a `change_xid` column, set by a trigger to the writing transaction's id (`pg_current_xact_id()`)
 * at every INSERT and UPDATE (migration 0051, hand-written: the tables of other modules do not name
 * it). Drizzle reads and writes it as text (a decimal number).
 */
export const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * One row per deleted record of a synced table, written by a trigger in the deleting transaction:
 * whose it was (null for the shared tables: species, lookups, gear items, brands), which table
 * (the sync protocol's name), which record, and the deleting transaction's id. A pull returns the
 * ids in `deleted`; the `sync.tombstones` job deletes rows older than the retention setting.
 */
export const syncTombstones = pgTable(
  'sync_tombstones',
  {
    ownerId: uuid(),
    tableName: text().notNull(),
    recordId: uuid().notNull(),
    changeXid: xid8().notNull().default(sql`pg_current_xact_id()`),
    deletedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sync_tombstones_owner_xid_idx').on(t.ownerId, t.changeXid), index('sync_tombstones_deleted_at_idx').on(t.deletedAt)],
);

/**
 * One row: the highest change id of the tombstones purged so far. A device whose `lastPulledAt` is
 * not above it may have missed a deletion, and gets a full re-sync (WatermelonDB's replacement).
 */
export const syncHorizon = pgTable('sync_horizon', {
  id: smallint().primaryKey().default(1),
  purgedThrough: xid8().notNull().default(sql`'0'::xid8`),
});
