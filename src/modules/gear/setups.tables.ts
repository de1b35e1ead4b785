import { index, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { ownedByUser } from '../../core/db/references.js';
import { clientCreated, rowVersion, timestamps } from '../../core/db/columns.js';
import { gearItems } from './gear.tables.js';

/**
 * A user's gear setups: a rod, a reel, a line and lures from the catalog (each optional), with a
 * name and notes. Catalog items are never deleted (only deactivated), so the references stay.
 * Catches may name the setup they were caught with (catches.gear_setup_id, ON DELETE SET NULL).
 */
export const gearSetups = pgTable(
  'gear_setups',
  {
    id: uuid().primaryKey(),
    ownerId: ownedByUser(),
    name: text().notNull(),
    rodId: uuid().references(() => gearItems.id),
    reelId: uuid().references(() => gearItems.id),
    lineId: uuid().references(() => gearItems.id),
    technique: text(),
    notes: text(),
    ...rowVersion(),
    ...clientCreated(),
    ...timestamps(),
  },
  (t) => [
    index('gear_setups_owner_name_idx').on(t.ownerId, t.name, t.id),
    index('gear_setups_rod_idx').on(t.rodId),
    index('gear_setups_reel_idx').on(t.reelId),
    index('gear_setups_line_idx').on(t.lineId),
  ],
);

/** The lures of a setup, in the order the user gave them. */
export const gearSetupLures = pgTable(
  'gear_setup_lures',
  {
    setupId: uuid()
      .notNull()
      .references(() => gearSetups.id, { onDelete: 'cascade' }),
    lureId: uuid()
      .notNull()
      .references(() => gearItems.id),
    position: smallint().notNull(),
  },
  (t) => [primaryKey({ columns: [t.setupId, t.lureId] }), index('gear_setup_lures_lure_idx').on(t.lureId, t.setupId)],
);

export type SetupRow = typeof gearSetups.$inferSelect;
