import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { legacyPointNote, PointBody, ShownLocation } from '../../core/http/coordinates.js';
import { Nullable, StateCode, Timestamp, Uuid } from '../../core/http/schemas.js';
import { pascalEnum } from '../../core/http/enums.js';

const DateOnly = Type.String({ format: 'date', description: 'Calendar date (YYYY-MM-DD)', examples: ['2027-05-31'] });
const LocalDateTime = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2})?$',
  description: "Local date-time in the listing's time zone (YYYY-MM-DDTHH:MM[:SS[.fraction]]), or an RFC 3339 date-time with any offset (what Date#toISOString sends)",
  examples: ['2026-07-04T06:00'],
});
const ZonedTime = Type.String({ description: "ISO 8601 date-time with the listing's UTC offset", examples: ['2026-07-04T06:00:00-04:00'] });
const LicenceType = Type.Union([Type.Literal('OUPV'), Type.Literal('Master')], { description: 'USCG licence: OUPV ("six-pack", at most 6 passengers) or Master' });
const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });

const APPLICATION_EXAMPLE = {
  licenceType: 'OUPV',
  licenceNumber: '1234567',
  licenceExpiresOn: '2029-03-31',
  vesselName: 'Reel Therapy',
  vesselRegistration: 'FL 1234 AB',
  insuranceCarrier: 'Example Marine Insurance',
  insurancePolicyNumber: 'EMI-2026-0042',
  insuranceExpiresOn: '2027-01-31',
};

/** Who cancelled a booking: Customer, Captain or Weather (answered only). */
export const CanceledByEnum = pascalEnum(['customer', 'captain', 'weather'] as const, 'Who cancelled: Customer, Captain, or Weather (the captain, for the weather).');
/** Which bookings to list: Customer (default) or Captain; `customer`, `captain` are still accepted. */
export const BookingRoleEnum = pascalEnum(['customer', 'captain'] as const, 'Customer (default): trips you booked; Captain: bookings of your listings.');

export const CaptainApplication = Type.Object(
  {
    licenceType: LicenceType,
    licenceNumber: Text(40),
    licenceExpiresOn: DateOnly,
    vesselName: Text(120),
    vesselRegistration: Text(40),
    insuranceCarrier: Text(120),
    insurancePolicyNumber: Text(60),
    insuranceExpiresOn: DateOnly,
  },
  {
    additionalProperties: false,
    examples: [APPLICATION_EXAMPLE],
  },
);
export type CaptainApplicationInput = Static<typeof CaptainApplication>;

const CAPTAIN_EXAMPLE = {
  ...APPLICATION_EXAMPLE,
  userId: '0193b7a4-0000-7c3a-9a57-2f1f0c3e8d21',
  status: 'Verified',
  licenceValid: true,
  reviewedAt: '2026-06-01T05:30:00.000Z',
  reviewReason: null,
  createdAt: '2026-05-30T05:30:00.000Z',
  updatedAt: '2026-06-01T05:30:00.000Z',
};

export const Captain = Type.Object(
  {
    userId: Uuid,
    ...CaptainApplication.properties,
    status: Type.Union([Type.Literal('Pending'), Type.Literal('Verified'), Type.Literal('Rejected')]),
    licenceValid: Type.Boolean({ description: 'false once the licence has expired: new bookings are blocked' }),
    reviewedAt: Nullable(Timestamp),
    reviewReason: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'CharterCaptain', additionalProperties: false, examples: [CAPTAIN_EXAMPLE] },
);

export const ReviewBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 3, maxLength: 500 })) },
  { additionalProperties: false, examples: [{ reason: 'Licence checked against the USCG record' }] },
);
export const RequiredReasonBody = Type.Object({ reason: Type.String({ minLength: 3, maxLength: 500 }) }, { additionalProperties: false, examples: [{ reason: 'Small craft advisory' }] });

export const TripTypeInput = Type.Object(
  {
    id: Type.Optional(Uuid),
    name: Text(80),
    durationHours: Type.Number({ minimum: 1, maximum: 240, multipleOf: 0.5 }),
    pricing: Type.Union([Type.Literal('PerTrip'), Type.Literal('PerPerson')]),
    priceCents: Type.Integer({ minimum: 100, maximum: 100_000_000 }),
    maxPartySize: Type.Integer({ minimum: 1, maximum: 150 }),
  },
  { additionalProperties: false },
);

const listingFields = {
  title: Text(120),
  description: Text(4000),
  boatName: Text(120),
  homePort: Text(120),
  state: StateCode,
  location: PointBody({ description: `Where the home port is. ${legacyPointNote('latitude', 'longitude')}` }),
  timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of the home port', examples: ['America/New_York'] }),
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', default: 'USD' })),
  tripTypes: Type.Array(TripTypeInput, { minItems: 1, maxItems: 20 }),
  targetSpecies: Type.Optional(Type.Array(Text(80), { maxItems: 30 })),
  included: Type.Optional(Type.Array(Text(120), { maxItems: 30 })),
  freeCancellationDays: Type.Integer({ minimum: 1, maximum: 60, description: 'Full refund when the customer cancels at least this many days before' }),
  lateCancellationRefundPercent: Type.Integer({ minimum: 0, maximum: 100, description: 'Share of the deposit refunded for a later cancellation by the customer' }),
  depositPercent: Type.Union([Type.Literal(0), Type.Integer({ minimum: 10, maximum: 30 })], { description: 'Deposit charged at booking: 0 or 10-30 % of the price' }),
  instantBook: Type.Boolean({ description: 'true: bookings are Confirmed at once; false: the captain accepts within 24 h' }),
};

export const LISTING_INPUT_EXAMPLE = {
  title: 'Half-day inshore on Tampa Bay',
  description: 'Snook, redfish and trout on light tackle.',
  boatName: 'Reel Therapy',
  homePort: 'St. Petersburg Municipal Marina',
  state: 'US-FL',
  location: { latitude: 27.7676, longitude: -82.6309 },
  timeZone: 'America/New_York',
  tripTypes: [{ name: 'Half day', durationHours: 4, pricing: 'PerTrip', priceCents: 45000, maxPartySize: 4 }],
  targetSpecies: ['Snook', 'Redfish'],
  included: ['Rods and tackle', 'Bait', 'Fishing licence'],
  freeCancellationDays: 7,
  lateCancellationRefundPercent: 50,
  depositPercent: 20,
  instantBook: false,
};

export const ListingBody = Type.Object(listingFields, { additionalProperties: false, examples: [LISTING_INPUT_EXAMPLE] });
export type ListingInput = Static<typeof ListingBody>;

const TripType = Type.Object(
  { id: Uuid, name: Type.String(), durationHours: Type.Number(), pricing: Type.Union([Type.Literal('PerTrip'), Type.Literal('PerPerson')]), priceCents: Type.Integer(), maxPartySize: Type.Integer() },
  { additionalProperties: false },
);

const LISTING_EXAMPLE = {
  ...LISTING_INPUT_EXAMPLE,
  id: '0193b7a4-3333-7c3a-9a57-2f1f0c3e8d21',
  location: { latitude: 27.77, longitude: -82.63, precision: 'Approximate' },
  currency: 'USD',
  tripTypes: [{ id: '0193b7a4-4444-7c3a-9a57-2f1f0c3e8d21', name: 'Half day', durationHours: 4, pricing: 'PerTrip', priceCents: 45000, maxPartySize: 4 }],
  captain: { userId: '0193b7a4-0000-7c3a-9a57-2f1f0c3e8d21', username: 'captain_joe', licenceType: 'OUPV', licenceValid: true },
  bookable: true,
  notice: null,
  distanceKm: null,
  isActive: true,
  createdAt: '2026-06-01T05:30:00.000Z',
  updatedAt: '2026-06-01T05:30:00.000Z',
};

export const Listing = Type.Object(
  {
    id: Uuid,
    ...listingFields,
    currency: Type.String(),
    targetSpecies: Type.Array(Type.String()),
    included: Type.Array(Type.String()),
    tripTypes: Type.Array(TripType),
    location: { ...ShownLocation, description: 'The home port: rounded to 0.01° (about 1 km) for everyone but the captain' },
    captain: Type.Object({ userId: Uuid, username: Type.String(), licenceType: LicenceType, licenceValid: Type.Boolean() }, { additionalProperties: false }),
    bookable: Type.Boolean({ description: 'false while the listing is inactive or the captain\'s licence has expired' }),
    notice: Nullable(Type.String({ description: 'Why the listing is not bookable' })),
    distanceKm: Nullable(Type.Number({ description: 'Distance from near= (km), when searching near a point' })),
    isActive: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'CharterListing', additionalProperties: false, examples: [LISTING_EXAMPLE] },
);

export const ListingsQuery = listQuery({
  state: Type.Optional(StateCode),
  lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  radiusKm: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000, default: 50, description: 'With lat and lon' })),
  date: Type.Optional(Type.String({ format: 'date', description: 'Has a free slot on this local date' })),
  partySize: Type.Optional(Type.Integer({ minimum: 1, maximum: 150 })),
  minPriceCents: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
  maxPriceCents: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
  species: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Words in the title, description or home port' })),
});
export type ListingsFilter = Static<typeof ListingsQuery>;

export const SlotsBody = Type.Object(
  { startsAt: Type.Array(LocalDateTime, { minItems: 1, maxItems: 200 }) },
  { additionalProperties: false, examples: [{ startsAt: ['2026-07-04T06:00', '2026-07-04T13:00'] }] },
);
export const SlotsQuery = Type.Object({ from: Type.Optional(Type.String({ format: 'date' })), to: Type.Optional(Type.String({ format: 'date' })) }, { additionalProperties: false });
export const Slot = Type.Object(
  { id: Uuid, startsAt: ZonedTime, booked: Type.Boolean() },
  { additionalProperties: false, examples: [{ id: '0193b7a4-5555-7c3a-9a57-2f1f0c3e8d21', startsAt: '2026-07-04T06:00:00-04:00', booked: false }] },
);

export const BookBody = Type.Object(
  {
    slotId: Uuid,
    tripTypeId: Uuid,
    partySize: Type.Integer({ minimum: 1, maximum: 150 }),
    paymentMethod: Type.Optional(Type.String({ minLength: 4, maxLength: 64, description: 'Card number (test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 declines) or a Stripe payment method id' })),
  },
  { additionalProperties: false, examples: [{ slotId: '0193b7a4-5555-7c3a-9a57-2f1f0c3e8d21', tripTypeId: '0193b7a4-4444-7c3a-9a57-2f1f0c3e8d21', partySize: 3, paymentMethod: '4242424242424242' }] },
);
export type BookInput = Static<typeof BookBody>;

const STATES = [Type.Literal('Pending'), Type.Literal('Confirmed'), Type.Literal('Declined'), Type.Literal('CancelRequested'), Type.Literal('Canceled'), Type.Literal('Completed')];

export const Booking = Type.Object(
  {
    id: Uuid,
    listingId: Uuid,
    listingTitle: Type.String(),
    slotId: Uuid,
    customerId: Uuid,
    captainId: Uuid,
    tripType: TripType,
    partySize: Type.Integer(),
    startsAt: ZonedTime,
    timeZone: Type.String(),
    priceCents: Type.Integer(),
    depositCents: Type.Integer(),
    currency: Type.String(),
    policy: Type.Object(
      { freeCancellationDays: Type.Integer(), lateCancellationRefundPercent: Type.Integer(), depositPercent: Type.Integer(), instantBook: Type.Boolean() },
      { additionalProperties: false, description: 'The policy in force at booking time; it governs this booking' },
    ),
    state: Type.Union(STATES),
    acceptBy: Nullable(ZonedTime),
    paymentId: Nullable(Uuid),
    refundedCents: Type.Integer(),
    declineReason: Nullable(Type.String()),
    canceledBy: Nullable(CanceledByEnum.output),
    canceledByUserId: Nullable(Uuid),
    cancelReason: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    $id: 'CharterBooking',
    additionalProperties: false,
    examples: [
      {
        id: '0193b7a4-6666-7c3a-9a57-2f1f0c3e8d21',
        listingId: '0193b7a4-3333-7c3a-9a57-2f1f0c3e8d21',
        listingTitle: 'Half-day inshore on Tampa Bay',
        slotId: '0193b7a4-5555-7c3a-9a57-2f1f0c3e8d21',
        customerId: '0193b7a4-7777-7c3a-9a57-2f1f0c3e8d21',
        captainId: '0193b7a4-0000-7c3a-9a57-2f1f0c3e8d21',
        tripType: LISTING_EXAMPLE.tripTypes[0],
        partySize: 3,
        startsAt: '2026-07-04T06:00:00-04:00',
        timeZone: 'America/New_York',
        priceCents: 45000,
        depositCents: 9000,
        currency: 'USD',
        policy: { freeCancellationDays: 7, lateCancellationRefundPercent: 50, depositPercent: 20, instantBook: false },
        state: 'Pending',
        acceptBy: '2026-06-02T01:30:00-04:00',
        paymentId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
        refundedCents: 0,
        declineReason: null,
        canceledBy: null,
        canceledByUserId: null,
        cancelReason: null,
        createdAt: '2026-06-01T05:30:00.000Z',
        updatedAt: '2026-06-01T05:30:00.000Z',
      },
    ],
  },
);

export const BookingsQuery = listQuery({
  as: Type.Optional(BookingRoleEnum.input),
  state: Type.Optional(Type.Union(STATES)),
  listingId: Type.Optional(Uuid),
});
export type BookingsFilter = Static<typeof BookingsQuery>;

export const CaptainsQuery = listQuery({ status: Type.Optional(Type.Union([Type.Literal('Pending'), Type.Literal('Verified'), Type.Literal('Rejected')])) });
export const UserIdParams = Type.Object({ userId: Uuid }, { additionalProperties: false });
export const ListingIdParams = Type.Object({ listingId: Uuid }, { additionalProperties: false });
