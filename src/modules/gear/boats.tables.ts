import { index, numeric, pgTable, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { ownedByUser } from '../../core/db/references.js';
import { clientCreated, rowVersion, timestamps } from '../../core/db/columns.js';

export const HULL_TYPES = ['Deep-V', 'Modified-V', 'Flat bottom', 'Tunnel', 'Catamaran', 'Pontoon', 'Inflatable', 'Kayak', 'Canoe', 'Drift boat'] as const;
export const HULL_MATERIALS = ['Aluminum', 'Fiberglass', 'Polyethylene', 'PVC', 'Wood', 'Composite'] as const;

/** A user's boats. Length in centimetres, motor power in horsepower. */
export const boats = pgTable(
  'boats',
  {
    id: uuid().primaryKey(),
    ownerId: ownedByUser(),
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
    ...rowVersion(),
    ...clientCreated(),
    ...timestamps(),
  },
  (t) => [index('boats_owner_name_idx').on(t.ownerId, t.name, t.id)],
);

export type BoatRow = typeof boats.$inferSelect;
