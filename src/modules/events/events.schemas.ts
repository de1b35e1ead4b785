import { Type, type Static } from 'typebox';
import { MAX_RADIUS_KM } from '../../core/db/geo.js';
import { legacyPointNote, PointBody, PointView } from '../../core/http/coordinates.js';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Nullable, StateCode, Timestamp, Uuid } from '../../core/http/schemas.js';
import { LookupCode } from '../lookups/index.js';
import { EVENT_STATUSES } from './events.tables.js';

const EventType = LookupCode('EventType', 'The kind of event (Expo, SwapMeet, Seminar, Tournament, Other, and what administrators add)', 'SwapMeet');

export const CreateEventBody = Type.Object(
  {
    title: Type.String({ minLength: 3, maxLength: 200 }),
    description: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 5000 }))),
    type: EventType,
    startsAt: Type.String({ format: 'date-time' }),
    endsAt: Type.String({ format: 'date-time' }),
    venueName: Type.String({ minLength: 1, maxLength: 200 }),
    address: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 300 }))),
    city: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    stateCode: Type.Optional(Nullable(StateCode)),
    location: PointBody({ description: `Where the venue is. ${legacyPointNote('lat', 'lon')}` }),
    websiteUrl: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 500 }))),
    capacity: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Places; null = no limit' }))),
    registrationDeadline: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'Registration closes then (not after the start)' }))),
  },
  {
    additionalProperties: false,
    examples: [
      {
        title: 'Spring tackle swap meet',
        type: 'SwapMeet',
        startsAt: '2027-03-20T14:00:00Z',
        endsAt: '2027-03-20T20:00:00Z',
        venueName: 'County fairgrounds, building 4',
        city: 'Brainerd',
        stateCode: 'US-MN',
        location: { latitude: 46.358, longitude: -94.2008 },
        capacity: 200,
        registrationDeadline: '2027-03-19T00:00:00Z',
      },
    ],
  },
);
export type CreateEventInput = Static<typeof CreateEventBody>;

const eventExample = {
  id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
  title: 'Spring tackle swap meet',
  description: null,
  type: 'SwapMeet',
  startsAt: '2027-03-20T14:00:00.000Z',
  endsAt: '2027-03-20T20:00:00.000Z',
  venue: { name: 'County fairgrounds, building 4', address: null, city: 'Brainerd', stateCode: 'US-MN', location: { latitude: 46.358, longitude: -94.2008 } },
  websiteUrl: null,
  capacity: 200,
  registrationDeadline: '2027-03-19T00:00:00.000Z',
  registeredCount: 12,
  spotsLeft: 188,
  registered: false,
  status: 'Approved',
  rejectionReason: null,
  featured: false,
  createdBy: { userId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22', username: 'jo' },
  createdAt: '2026-06-01T05:30:00.000Z',
  updatedAt: '2026-06-01T05:30:00.000Z',
};

export const Event = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    description: Nullable(Type.String()),
    type: EventType,
    startsAt: Timestamp,
    endsAt: Timestamp,
    venue: Type.Object(
      { name: Type.String(), address: Nullable(Type.String()), city: Nullable(Type.String()), stateCode: Nullable(Type.String()), location: PointView({ description: 'Where the venue is' }) },
      { additionalProperties: false },
    ),
    websiteUrl: Nullable(Type.String()),
    capacity: Nullable(Type.Integer()),
    registrationDeadline: Nullable(Timestamp),
    registeredCount: Type.Integer(),
    spotsLeft: Nullable(Type.Integer({ description: 'null: no limit' })),
    registered: Type.Boolean({ description: 'You are registered' }),
    status: literals(EVENT_STATUSES, 'PendingApproval until an administrator approves or rejects it'),
    rejectionReason: Nullable(Type.String({ description: 'Shown to the creator and administrators' })),
    featured: Type.Boolean(),
    distanceKm: Type.Optional(Type.Number({ description: 'With a near search: distance from the centre, km' })),
    createdBy: Type.Object({ userId: Uuid, username: Type.String() }, { additionalProperties: false }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'Event', examples: [eventExample] },
);

const radiusKm = Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, description: `With lat/lon: radius in km (default 50, at most ${MAX_RADIUS_KM})` }));

export const EventsQuery = listQuery({
  type: Type.Optional(EventType),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Events ending at or after (default: now, i.e. upcoming and running)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Events starting before' })),
  state: Type.Optional(StateCode),
  lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  radiusKm,
  featured: Type.Optional(Type.Boolean({ description: 'true: only events featured now' })),
});
export type EventsQueryType = Static<typeof EventsQuery>;

export const AdminEventsQuery = listQuery({
  status: Type.Optional(literals(EVENT_STATUSES, 'Default PendingApproval')),
});

export const RegistrationResult = Type.Object(
  { registered: Type.Boolean(), registeredCount: Type.Integer(), spotsLeft: Nullable(Type.Integer()) },
  { additionalProperties: false, $id: 'EventRegistration', examples: [{ registered: true, registeredCount: 13, spotsLeft: 187 }] },
);

export const EventRejectBody = Type.Object(
  { reason: Type.String({ minLength: 3, maxLength: 1000, description: 'Shown to the creator' }) },
  { additionalProperties: false, examples: [{ reason: 'No venue address; add where it takes place and propose it again.' }] },
);
