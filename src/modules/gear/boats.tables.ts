import { index, numeric, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables.js';

export const HULL_TYPES = ['Deep-V', 'Modified-V', 'Flat bottom', 'Tunnel', 'Catamaran', 'Pontoon', 'Inflatable', 'Kayak', 'Canoe', 'Drift boat'] as const;
export const HULL_MATERIALS = ['Aluminum', 'Fiberglass', 'Polyethylene', 'PVC', 'Wood', 'Composite'] as const;

/** A user's boats. Length in centimetres, motor power in horsepower. */
export const boats = pgTable(
  'boats',
  {
    id: uuid().primaryKey(),
    ownerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    make: text(),
    model: text(),
    year: smallint(),
    lengthCm: numeric({ precision: 6, scale: 1, mode: 'number' }),
    hullType: text({ enum: HULL_TYPES }),
    hullMaterial: text({ enum: HULL_MATERIALS }),
    motor: text(),
    horsepower: numeric({ precision: 5, scale: 1, mode: 'number' }),
    homeWater: text(),
    notes: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('boats_owner_name_idx').on(t.ownerId, t.name, t.id)],
);

export type BoatRow = typeof boats.$inferSelect;
