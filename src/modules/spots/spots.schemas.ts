import { Type, type Static } from 'typebox';
import { MAX_RADIUS_KM } from '../../core/db/geo.js';
import { legacyPointNote, PointBody, ShownLocation } from '../../core/http/coordinates.js';
import { listQuery } from '../../core/http/pagination.js';
import { ActivityFilterEnum } from '../../core/http/enums.js';
import { literals, Nullable, StateCode, Timestamp, Uuid } from '../../core/http/schemas.js';
import { RAMP_TYPES, SPOT_KINDS, SPOT_PRIVACIES, SPOT_STATUSES } from './spots.tables.js';

const SpotKind = literals(SPOT_KINDS, 'Spot (fishing spot), BoatRamp, Pier or Shore (shore access)');
const Privacy = literals(SPOT_PRIVACIES, 'Public: exact location for everyone. Private: shared from your private log, shown to others snapped to a ~1 km grid. Boat ramps and piers are always Public.');

const RampFactsProperties = {
  rampType: Type.Optional(Nullable(literals(RAMP_TYPES, 'Ramp surface: Concrete, Gravel, or CarryIn (hand launch only)'))),
  lanes: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 50, description: 'Launch lanes', examples: [2] }))),
  parkingSpaces: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 5000, description: 'Trailer parking spaces', examples: [30] }))),
  feeRequired: Type.Optional(Nullable(Type.Boolean({ description: 'A launch or parking fee (or pass) is required' }))),
  feeCents: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100_000, description: 'Daily fee in US cents, when known' }))),
  accessible: Type.Optional(Nullable(Type.Boolean({ description: 'Accessible (ADA) facilities' }))),
  seasonal: Type.Optional(Nullable(Type.Boolean({ description: 'Open only part of the year' }))),
};

export const RampFactsBody = Type.Object(RampFactsProperties, { additionalProperties: false, description: 'Boat ramp facts (kind BoatRamp only); unknown facts left out' });
export type RampFactsInput = Static<typeof RampFactsBody>;

const RampFacts = Type.Object(
  {
    rampType: Nullable(literals(RAMP_TYPES)),
    lanes: Nullable(Type.Integer()),
    parkingSpaces: Nullable(Type.Integer()),
    feeRequired: Nullable(Type.Boolean()),
    feeCents: Nullable(Type.Integer()),
    accessible: Nullable(Type.Boolean()),
    seasonal: Nullable(Type.Boolean()),
  },
  { additionalProperties: false, description: 'Boat ramp facts; null = not known' },
);

const createExample = {
  name: 'Father Hennepin State Park public access',
  kind: 'BoatRamp',
  location: { latitude: 46.1474, longitude: -93.4741 },
  waterBody: 'Mille Lacs Lake',
  stateCode: 'US-MN',
  ramp: { rampType: 'Concrete', lanes: 2, feeRequired: true, accessible: true },
};

export const CreateSpotBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 150 }),
    kind: SpotKind,
    privacy: Type.Optional(Privacy),
    location: PointBody({ description: `Where the spot is. ${legacyPointNote('lat', 'lon')}` }),
    waterBody: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    stateCode: Type.Optional(Nullable(StateCode)),
    description: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2000 }))),
    ramp: Type.Optional(Nullable(RampFactsBody)),
    sourceUrl: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 500, description: 'Where the facts come from (e.g. a state ramp directory)' }))),
  },
  { additionalProperties: false, examples: [createExample] },
);
export type CreateSpotInput = Static<typeof CreateSpotBody>;

const RatingAverage = Type.Object(
  {
    average: Nullable(Type.Number({ description: 'Mean stars, 2 decimals; null without ratings', examples: [4.5] })),
    count: Type.Integer({ examples: [2] }),
  },
  { additionalProperties: false },
);

const spotProperties = {
  id: Uuid,
  name: Type.String(),
  kind: SpotKind,
  privacy: Privacy,
  location: ShownLocation,
  waterBody: Nullable(Type.String()),
  stateCode: Nullable(Type.String()),
  description: Nullable(Type.String()),
  ramp: Nullable(RampFacts),
  sourceUrl: Nullable(Type.String({ description: 'Where the facts come from (reference spots: the dataset and the record)' })),
  county: Nullable(Type.String({ examples: ['Mille Lacs County'] })),
  agency: Nullable(Type.String({ description: 'The agency whose record a reference spot comes from', examples: ['Minnesota Department of Natural Resources'] })),
  status: literals(SPOT_STATUSES, 'Unverified until an administrator verifies it or enough anglers confirm it'),
  verifiedAt: Nullable(Timestamp),
  confirmationCount: Type.Integer({ description: 'Anglers other than its creator who confirmed it' }),
  rating: RatingAverage,
  featured: Type.Boolean({ description: 'Featured by the administrators right now' }),
  photos: Type.Optional(Type.Array(Type.Ref('Photo'), { description: 'Uploaded photos, in order (POST /api/spots/{id}/photos, by the spot’s creator); on reads' })),
  isActive: Type.Boolean({ description: 'false: deactivated by an administrator (seen only by its creator and administrators)' }),
  createdBy: Nullable(Type.Object({ userId: Uuid, username: Type.String() }, { additionalProperties: false }), {
    description: 'null for a reference spot (agency data seeded with the service, e.g. the USGS boat ramps): nobody owns it, administrators correct or deactivate it',
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

const spotExample = {
  id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
  name: 'Father Hennepin State Park (East)',
  kind: 'BoatRamp',
  privacy: 'Public',
  location: { latitude: 46.1484007916, longitude: -93.4849793514, precision: 'Exact' },
  waterBody: 'Mille Lacs Lake',
  stateCode: 'US-MN',
  description: 'Public access (USGS Boat Ramp Locations, record OID_ 24414; HUC12 070102070107 Mille Lacs Lake)',
  ramp: { rampType: null, lanes: null, parkingSpaces: null, feeRequired: null, feeCents: null, accessible: null, seasonal: null },
  sourceUrl: 'https://www.sciencebase.gov/catalog/item/63b81b50d34e92aad3cc004d',
  county: 'Mille Lacs County',
  agency: 'Minnesota Department of Natural Resources',
  status: 'Verified',
  verifiedAt: '2026-06-01T05:30:00.000Z',
  confirmationCount: 0,
  rating: { average: null, count: 0 },
  featured: false,
  isActive: true,
  createdBy: null,
  createdAt: '2026-06-01T05:30:00.000Z',
  updatedAt: '2026-06-01T05:30:00.000Z',
};

export const Spot = Type.Object(spotProperties, { additionalProperties: false, $id: 'Spot', examples: [spotExample] });

export const NearbySpot = Type.Object(
  { ...spotProperties, distanceKm: Type.Number({ description: 'Great-circle distance from the search centre to the location everyone is shown, km', examples: [3.742] }) },
  { additionalProperties: false, $id: 'NearbySpot', examples: [{ ...spotExample, distanceKm: 3.742 }] },
);

export const RatingSummary = Type.Object(
  {
    average: Nullable(Type.Number({ examples: [4.5] })),
    count: Type.Integer({ examples: [2] }),
    distribution: Type.Object(
      { 1: Type.Integer(), 2: Type.Integer(), 3: Type.Integer(), 4: Type.Integer(), 5: Type.Integer() },
      { additionalProperties: false, description: 'Ratings per number of stars' },
    ),
    mine: Nullable(Type.Object({ stars: Type.Integer(), comment: Nullable(Type.String()), ratedAt: Timestamp }, { additionalProperties: false }), {
      description: 'Your rating, if any',
    }),
  },
  { additionalProperties: false, $id: 'SpotRatingSummary', examples: [{ average: 4.5, count: 2, distribution: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 1 }, mine: null }] },
);

export const SpotDetail = Type.Object(
  { ...spotProperties, ratingSummary: Type.Ref('SpotRatingSummary') },
  { additionalProperties: false, $id: 'SpotDetail', examples: [{ ...spotExample, ratingSummary: { average: null, count: 0, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 }, mine: null } }] },
);

export const NearbyQuery = listQuery({
  lat: Type.Number({ minimum: -90, maximum: 90, description: 'Latitude of the centre', examples: [46.2291] }),
  lon: Type.Number({ minimum: -180, maximum: 180, description: 'Longitude of the centre', examples: [-93.6557] }),
  radiusKm: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, default: 25, description: `Radius in km (default 25, at most ${MAX_RADIUS_KM})` })),
  kind: Type.Optional(SpotKind),
});
export type NearbyQueryType = Static<typeof NearbyQuery>;

export const RateSpotBody = Type.Object(
  {
    stars: Type.Integer({ minimum: 1, maximum: 5, description: '1 to 5 stars' }),
    comment: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 1000 }))),
  },
  { additionalProperties: false, examples: [{ stars: 5, comment: 'Two good lanes, plenty of trailer parking.' }] },
);
export type RateSpotInput = Static<typeof RateSpotBody>;

// Administration

const { photos: _photos, ...adminSpotProperties } = spotProperties;

export const AdminSpot = Type.Object(
  {
    ...adminSpotProperties,
    deactivatedAt: Nullable(Timestamp),
    deactivationReason: Nullable(Type.String()),
    featuredFrom: Nullable(Timestamp, { description: 'Start of the featuring window, if it was ever featured' }),
    featuredUntil: Nullable(Timestamp, { description: 'End of the featuring window; null: open-ended' }),
    usage: Type.Object(
      {
        ratings: Type.Integer({ description: 'Anglers who rated it' }),
        averageRating: Nullable(Type.Number({ description: 'Mean stars; null without ratings' })),
        confirmations: Type.Integer({ description: 'Anglers other than its creator who confirmed it' }),
        photos: Type.Integer({ description: 'Photos uploaded to it' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    $id: 'AdminSpot',
    examples: [
      {
        ...spotExample,
        deactivatedAt: null,
        deactivationReason: null,
        featuredFrom: null,
        featuredUntil: null,
        usage: { ratings: 0, averageRating: null, confirmations: 0, photos: 0 },
      },
    ],
  },
);

export const AdminSpotsQuery = listQuery({
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text in the name, water body or county' })),
  status: Type.Optional(ActivityFilterEnum.input),
  kind: Type.Optional(SpotKind),
  verification: Type.Optional(literals(SPOT_STATUSES, 'Unverified or Verified')),
  state: Type.Optional(StateCode),
  featured: Type.Optional(Type.Boolean({ description: 'true: featured right now; false: not featured now' })),
  reference: Type.Optional(Type.Boolean({ description: 'true: reference spots (agency data seeded with the service, no owner); false: spots anglers added' })),
});
export type AdminSpotsQueryType = Static<typeof AdminSpotsQuery>;
