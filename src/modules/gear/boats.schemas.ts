import { Type, type Static } from 'typebox';
import { withClientId } from '../../core/http/client-ids.js';
import { VersionField } from '../../core/http/conditional.js';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { HULL_MATERIALS, HULL_TYPES } from './boats.tables.js';
import { literals } from './gear.schemas.js';

const text = (maxLength: number, description?: string) => Type.Optional(Nullable(Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) })));

export const BoatBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, examples: ['Old Blue'] }),
    make: text(100, 'Manufacturer, e.g. Lund'),
    model: text(100, 'e.g. 1875 Crossover XS'),
    year: Type.Optional(Nullable(Type.Integer({ minimum: 1900, maximum: 2100, description: 'Model year (at most next year)' }))),
    lengthCm: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'Length overall, centimetres' }))),
    hullType: Type.Optional(Nullable(literals(HULL_TYPES))),
    hullMaterial: Type.Optional(Nullable(literals(HULL_MATERIALS))),
    motor: text(200, 'e.g. Mercury 150 Pro XS'),
    horsepower: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 2000 }))),
    homeWater: text(200, 'Lake, river or bay it usually fishes'),
    notes: text(2000),
  },
  { additionalProperties: false, description: 'All fields; PUT replaces the boat (omitted optional fields become null)' },
);
export type BoatInput = Static<typeof BoatBody>;
export const BoatCreateBody = withClientId(BoatBody);
export type BoatCreateInput = Static<typeof BoatCreateBody>;

export const Boat = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    make: Nullable(Type.String()),
    model: Nullable(Type.String()),
    year: Nullable(Type.Integer()),
    lengthCm: Nullable(Type.Number({ description: 'centimetres' })),
    hullType: Nullable(literals(HULL_TYPES)),
    hullMaterial: Nullable(literals(HULL_MATERIALS)),
    motor: Nullable(Type.String()),
    horsepower: Nullable(Type.Number()),
    homeWater: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    version: VersionField,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'Boat' },
);

export const BoatsQuery = listQuery({});
