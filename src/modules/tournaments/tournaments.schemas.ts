import { Type, type Static, type TSchema } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, PastTimestamp, StateCode, Timestamp, Uuid } from '../../core/http/schemas.js';
import { pascalEnum } from '../../core/http/enums.js';
import {
  FEE_STATUSES,
  MEASURES,
  ORGANIZER_STATUSES,
  REGISTRATION_STATUSES,
  SPONSOR_TIERS,
  TIE_BREAKS,
  TOURNAMENT_CATCH_STATUSES,
  TOURNAMENT_FORMATS,
  TOURNAMENT_STATUSES,
  TOURNAMENT_VISIBILITIES,
} from './tournaments.tables.js';

/** Length (CPR) or Weight (weigh-in); `length`, `weight` are still accepted. */
export const MeasureEnum = pascalEnum(MEASURES, 'Length (CPR) or Weight (weigh-in).');
/** BiggestFish, EarliestLastCatch; `biggestFish`, `earliestLastCatch` are still accepted. */
export const TieBreakEnum = pascalEnum(TIE_BREAKS, 'BiggestFish: biggest single counted fish; EarliestLastCatch: earliest capture of the last counted fish.');

const literals = <T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );
const optionalText = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) })));
const Url = Type.String({ maxLength: 500, pattern: '^https?://[^\\s/$.?#][^\\s]*$', description: 'http(s) URL', examples: ['https://example.com/photo.jpg'] });
const Reason = Type.String({ minLength: 1, maxLength: 1000, description: 'Why (kept in the audit log)', examples: ['Checked the photos and the permit'] });
const Cents = (description: string) => Type.Integer({ minimum: 0, maximum: 100_000_000, description: `${description}, integer cents` });

export const ID_EXAMPLE = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21';
const SPECIES_EXAMPLE = '0193b7a4-0000-7000-8000-000000000001';

// ---------- organizers ----------

export const OrganizerStatusSchema = literals(ORGANIZER_STATUSES, { description: 'Pending → Verified | Rejected; Verified → Suspended → Verified' });

const organizerProperties = {
  id: Uuid,
  userId: Uuid,
  name: Type.String({ examples: ['Lake Country Bass Club'] }),
  contactEmail: Type.String({ examples: ['events@example.com'] }),
  contactPhone: Nullable(Type.String()),
  website: Nullable(Type.String()),
  takesPayments: Type.Boolean({ description: 'The organizer asked to take entry fees' }),
  paymentsAllowed: Type.Boolean({ description: 'The verification allows paid tournaments' }),
  status: OrganizerStatusSchema,
  statusReason: Nullable(Type.String({ description: 'Why it was rejected or suspended' })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

const organizerExample = {
  id: ID_EXAMPLE,
  userId: ID_EXAMPLE,
  name: 'Lake Country Bass Club',
  contactEmail: 'events@example.com',
  contactPhone: null,
  website: 'https://example.com',
  takesPayments: true,
  paymentsAllowed: false,
  status: 'Pending',
  statusReason: null,
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:00:00.000Z',
};

export const Organizer = Type.Object(organizerProperties, { additionalProperties: false, $id: 'TournamentOrganizer', examples: [organizerExample] });

export const AdminOrganizer = Type.Object(
  {
    ...organizerProperties,
    reviewedAt: Nullable(Timestamp),
    usage: Type.Object(
      { tournaments: Type.Integer({ description: 'Tournaments created' }), registrations: Type.Integer({ description: 'Active registrations in them' }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, $id: 'AdminTournamentOrganizer' },
);

export const ApplyOrganizerBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120, description: 'Club, business or person running the tournaments' }),
    contactEmail: Type.String({ format: 'email', maxLength: 200, examples: ['events@example.com'] }),
    contactPhone: optionalText(40),
    website: Type.Optional(Nullable(Url)),
    takesPayments: Type.Optional(Type.Boolean({ default: false, description: 'Ask to run paid tournaments (entry fees)' })),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'Lake Country Bass Club', contactEmail: 'events@example.com', website: 'https://example.com', takesPayments: true }],
  },
);
export type ApplyOrganizerInput = Static<typeof ApplyOrganizerBody>;

// ---------- tournaments ----------

const PenaltyRuleSchema = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 40, pattern: '^[a-z0-9_-]+$', examples: ['late_checkin'] }),
    description: Type.String({ minLength: 1, maxLength: 200, examples: ['Late check-in, per started minute'] }),
    points: Type.Integer({ minimum: 1, maximum: 100_000, description: 'Deducted in the division’s units: quarter inches (length) or hundredths of a pound (weight)' }),
  },
  { additionalProperties: false },
);

export const DivisionInput = Type.Object(
  {
    id: Type.Optional(Type.String({ format: 'uuid', description: 'On PUT: the division to keep (omit for a new one)' })),
    name: Type.String({ minLength: 1, maxLength: 60, examples: ['Kayak'] }),
    speciesIds: Type.Array(Uuid, { minItems: 1, maxItems: 50, uniqueItems: true, description: 'Species that count' }),
    measure: Type.Optional(Type.Unsafe<Static<typeof MeasureEnum.input>>({ ...MeasureEnum.input, description: 'Length (CPR) or Weight (weigh-in); defaults from the format. The older length, weight are still accepted (deprecated).' })),
    bestN: Type.Integer({ minimum: 1, maximum: 50, description: 'Catches counted per angler (culling: a better catch replaces the worst counted one)' }),
    minLengthInches: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 200, description: 'Minimum length, inches (rounded down to the ¼ inch)' }))),
    penaltyRules: Type.Optional(Type.Array(PenaltyRuleSchema, { maxItems: 20 })),
  },
  { additionalProperties: false },
);
export type DivisionInputType = Static<typeof DivisionInput>;

const Division = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    speciesIds: Type.Array(Uuid),
    measure: MeasureEnum.output,
    unit: Type.Union([Type.Literal('in'), Type.Literal('lb')], { description: 'Unit of totals and measures: inches (¼) or pounds (0.01) — unit symbols, not vocabulary values, so they stay lower-case' }),
    bestN: Type.Integer(),
    minLengthInches: Nullable(Type.Number()),
    penaltyRules: Type.Array(PenaltyRuleSchema),
  },
  { additionalProperties: false },
);

const tieBreaksOptions = {
  uniqueItems: true,
  maxItems: 2,
  description: 'Tie-breaks after the total, in order: BiggestFish (biggest single counted fish), EarliestLastCatch (earliest capture of the last counted fish). Default both, in that order; [] ranks ties equal.',
};
const TieBreaks = Type.Array(TieBreakEnum.output, tieBreaksOptions);
const TieBreaksInput = Type.Array(TieBreakEnum.input, { ...tieBreaksOptions, maxItems: 4, examples: [['BiggestFish', 'EarliestLastCatch']] });

const tournamentFields = {
  name: Type.String({ minLength: 1, maxLength: 120, examples: ['Spring Kayak Bass Classic'] }),
  description: optionalText(5000),
  waterBody: optionalText(200, 'Lake, river or bay'),
  stateCode: Type.Optional(Nullable(StateCode)),
  timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of the event', examples: ['America/Chicago'] }),
  startsAt: Type.String({ format: 'date-time', description: 'Start of the fishing window' }),
  endsAt: Type.String({ format: 'date-time', description: 'End of the fishing window' }),
  registrationDeadline: Type.String({ format: 'date-time', description: 'At or before startsAt' }),
  capacity: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000, description: 'Most anglers (active registrations); null: no cap' }))),
  entryFeeCents: Type.Optional(Cents('Entry fee per registration (0: free)')),
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', default: 'USD', description: 'ISO 4217 code', examples: ['USD'] })),
  visibility: Type.Optional(Type.Union([Type.Literal('Public'), Type.Literal('Unlisted')], { description: 'Public: listed; Unlisted: reachable by id only' })),
  format: Type.Union([Type.Literal('CPR'), Type.Literal('WeighIn')], { description: 'CPR: catch-photo-release, scored by length; WeighIn: scored by weight' }),
  refundWindowHours: Type.Optional(Type.Integer({ minimum: 0, maximum: 2160, default: 48, description: 'Registrants may cancel with a refund until this many hours before the start' })),
  tieBreaks: Type.Optional(TieBreaksInput),
  divisions: Type.Array(DivisionInput, { minItems: 1, maxItems: 20 }),
};

const createExample = {
  name: 'Spring Kayak Bass Classic',
  description: 'Two-day CPR event, best 5 bass.',
  waterBody: 'Lake Minnetonka',
  stateCode: 'US-MN',
  timeZone: 'America/Chicago',
  startsAt: '2026-06-06T11:00:00.000Z',
  endsAt: '2026-06-06T23:00:00.000Z',
  registrationDeadline: '2026-06-05T05:00:00.000Z',
  capacity: 150,
  entryFeeCents: 5000,
  currency: 'USD',
  visibility: 'Public',
  format: 'CPR',
  divisions: [{ name: 'Open', speciesIds: [SPECIES_EXAMPLE], bestN: 5, minLengthInches: 12, penaltyRules: [{ code: 'late_checkin', description: 'Late check-in', points: 4 }] }],
};

export const CreateTournamentBody = Type.Object(
  { ...tournamentFields, draft: Type.Optional(Type.Boolean({ default: false, description: 'true: keep as Draft; else it goes to PendingApproval' })) },
  { additionalProperties: false, examples: [createExample] },
);
export type CreateTournamentInput = Static<typeof CreateTournamentBody>;

export const UpdateTournamentBody = Type.Object(tournamentFields, {
  additionalProperties: false,
  description: 'The whole tournament (PUT replaces it). After the start only name, description, waterBody and visibility may differ.',
  examples: [createExample],
});
export type UpdateTournamentInput = Static<typeof UpdateTournamentBody>;

const tournamentProperties = {
  id: Uuid,
  organizer: Type.Object({ id: Uuid, name: Type.String() }, { additionalProperties: false }),
  name: Type.String(),
  description: Nullable(Type.String()),
  waterBody: Nullable(Type.String()),
  stateCode: Nullable(Type.String()),
  timeZone: Type.String(),
  startsAt: Timestamp,
  endsAt: Timestamp,
  registrationDeadline: Timestamp,
  capacity: Nullable(Type.Integer()),
  entryFeeCents: Type.Integer(),
  currency: Type.String(),
  visibility: literals(TOURNAMENT_VISIBILITIES),
  format: literals(TOURNAMENT_FORMATS),
  identifierCode: Type.String({ description: 'Shown in every catch photo', examples: ['FL-7KQ2MX'] }),
  refundWindowHours: Type.Integer(),
  tieBreaks: TieBreaks,
  status: literals(TOURNAMENT_STATUSES),
  statusReason: Nullable(Type.String()),
  registrationsOpen: Type.Boolean({ description: 'Approved, before the deadline, not closed and not full' }),
  registrationsCount: Type.Integer({ description: 'Active registrations' }),
  resultsPublishedAt: Nullable(Timestamp),
  divisions: Type.Array(Division),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

const tournamentExample = {
  ...createExample,
  id: ID_EXAMPLE,
  organizer: { id: ID_EXAMPLE, name: 'Lake Country Bass Club' },
  identifierCode: 'FL-7KQ2MX',
  refundWindowHours: 48,
  tieBreaks: ['BiggestFish', 'EarliestLastCatch'],
  status: 'Approved',
  statusReason: null,
  registrationsOpen: true,
  registrationsCount: 12,
  resultsPublishedAt: null,
  divisions: [
    {
      id: ID_EXAMPLE,
      name: 'Open',
      speciesIds: [SPECIES_EXAMPLE],
      measure: 'Length',
      unit: 'in',
      bestN: 5,
      minLengthInches: 12,
      penaltyRules: [{ code: 'late_checkin', description: 'Late check-in', points: 4 }],
    },
  ],
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:00:00.000Z',
};

export const Tournament = Type.Object(tournamentProperties, { additionalProperties: false, $id: 'Tournament', examples: [tournamentExample] });

export const AdminTournament = Type.Object(
  {
    ...tournamentProperties,
    organizerStatus: OrganizerStatusSchema,
    reviewedAt: Nullable(Timestamp),
    usage: Type.Object(
      { registrations: Type.Integer({ description: 'Active registrations' }), submissions: Type.Integer({ description: 'Catch submissions' }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, $id: 'AdminTournament' },
);

export const TournamentsQuery = listQuery({
  status: Type.Optional(literals(TOURNAMENT_STATUSES)),
  state: Type.Optional(StateCode),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Tournaments ending at or after' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Tournaments starting at or before' })),
  speciesId: Type.Optional(Uuid),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text in the name, description or water body' })),
  mine: Type.Optional(Type.Boolean({ description: 'Only the ones you organize or are registered in' })),
});
export type TournamentsQueryType = Static<typeof TournamentsQuery>;

export const AdminTournamentsQuery = listQuery({
  status: Type.Optional(literals(TOURNAMENT_STATUSES, { description: 'Default: PendingApproval' })),
  organizerId: Type.Optional(Uuid),
  state: Type.Optional(StateCode),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
export const AdminOrganizersQuery = listQuery({
  status: Type.Optional(literals(ORGANIZER_STATUSES, { description: 'Default: Pending' })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text in the name or e-mail' })),
});

export const TournamentParams = Type.Object({ tournamentId: Uuid }, { additionalProperties: false });
export const RegistrationParams = Type.Object({ tournamentId: Uuid, registrationId: Uuid }, { additionalProperties: false });
export const SubmissionParams = Type.Object({ tournamentId: Uuid, catchId: Uuid }, { additionalProperties: false });

// ---------- registrations ----------

export const RegisterBody = Type.Object(
  {
    divisionId: Uuid,
    anglerName: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'Name on the public leaderboard (default: your profile’s display name or username)' })),
    paymentMethod: Type.Optional(
      Type.String({
        minLength: 4,
        maxLength: 64,
        description:
          'Required when the tournament has an entry fee (ignored otherwise): a card number (local payments: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 declines) or a Stripe payment method id',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ divisionId: ID_EXAMPLE, anglerName: 'Jo Angler', paymentMethod: '4242424242424242' }] },
);
export type RegisterInput = Static<typeof RegisterBody>;

export const Registration = Type.Object(
  {
    id: Uuid,
    tournamentId: Uuid,
    divisionId: Uuid,
    userId: Uuid,
    anglerName: Type.String(),
    status: literals(REGISTRATION_STATUSES),
    fee: Nullable(
      Type.Object(
        {
          amountCents: Type.Integer(),
          currency: Type.String(),
          status: literals(FEE_STATUSES),
          paymentId: Nullable(Type.String({ format: 'uuid', description: 'The payments service’s payment (null until charged)' })),
        },
        { additionalProperties: false, description: 'The entry fee (null for free tournaments), charged through the payments service' },
      ),
    ),
    cancelledAt: Nullable(Timestamp),
    createdAt: Timestamp,
  },
  {
    additionalProperties: false,
    $id: 'TournamentRegistration',
    examples: [
      {
        id: ID_EXAMPLE,
        tournamentId: ID_EXAMPLE,
        divisionId: ID_EXAMPLE,
        userId: ID_EXAMPLE,
        anglerName: 'Jo Angler',
        status: 'Active',
        fee: { amountCents: 5000, currency: 'USD', status: 'Paid', paymentId: ID_EXAMPLE },
        cancelledAt: null,
        createdAt: '2026-05-01T12:00:00.000Z',
      },
    ],
  },
);

export const RegistrationsQuery = listQuery({
  divisionId: Type.Optional(Uuid),
  status: Type.Optional(literals(REGISTRATION_STATUSES)),
});

// ---------- catches ----------

const catchMeasures = {
  speciesId: Uuid,
  lengthInches: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 200, description: 'Length, inches; CPR rounds it down to the ¼ inch' })),
  weightLb: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2000, description: 'Weight, pounds; rounded down to 0.01 lb' })),
  photoUrl: Type.Optional(Url),
  photoHash: Type.Optional(Type.String({ pattern: '^[a-f0-9]{64}$', description: 'SHA-256 of the photo file, lower-case hex: the same photo cannot be submitted twice' })),
  capturedAt: Type.String({ ...PastTimestamp, description: 'When the fish was caught (inside the fishing window; from 1900, at most 24 hours from now); may be sent later' }),
};

export const SubmitCatchBody = Type.Object(
  {
    divisionId: Uuid,
    ...catchMeasures,
    fishingLogCatchId: Type.Optional(Type.String({ format: 'uuid', description: 'Your fishing-log catch this submission comes from (once per tournament)' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        divisionId: ID_EXAMPLE,
        speciesId: SPECIES_EXAMPLE,
        lengthInches: 18.6,
        photoUrl: 'https://example.com/photo.jpg',
        photoHash: 'a'.repeat(64),
        capturedAt: '2026-06-06T14:05:00.000Z',
      },
    ],
  },
);
export type SubmitCatchInput = Static<typeof SubmitCatchBody>;

export const Submission = Type.Object(
  {
    id: Uuid,
    tournamentId: Uuid,
    divisionId: Uuid,
    registrationId: Uuid,
    anglerName: Type.String(),
    speciesId: Uuid,
    lengthInches: Nullable(Type.Number({ description: 'Counted length (multiple of 0.25)' })),
    weightLb: Nullable(Type.Number()),
    photoUrl: Nullable(Type.String()),
    photoHash: Nullable(Type.String()),
    capturedAt: Timestamp,
    fishingLogCatchId: Nullable(Uuid),
    status: literals(TOURNAMENT_CATCH_STATUSES),
    rejectionReason: Nullable(Type.String()),
    judgedAt: Nullable(Timestamp),
    createdAt: Timestamp,
  },
  {
    additionalProperties: false,
    $id: 'TournamentCatch',
    examples: [
      {
        id: ID_EXAMPLE,
        tournamentId: ID_EXAMPLE,
        divisionId: ID_EXAMPLE,
        registrationId: ID_EXAMPLE,
        anglerName: 'Jo Angler',
        speciesId: SPECIES_EXAMPLE,
        lengthInches: 18.5,
        weightLb: null,
        photoUrl: 'https://example.com/photo.jpg',
        photoHash: 'a'.repeat(64),
        capturedAt: '2026-06-06T14:05:00.000Z',
        fishingLogCatchId: null,
        status: 'Pending',
        rejectionReason: null,
        judgedAt: null,
        createdAt: '2026-06-06T14:06:00.000Z',
      },
    ],
  },
);

export const SubmissionsQuery = listQuery({
  status: Type.Optional(literals(TOURNAMENT_CATCH_STATUSES)),
  divisionId: Type.Optional(Uuid),
});

export const JudgeBody = Type.Object(
  {
    decision: Type.Union([Type.Literal('Verified'), Type.Literal('Rejected')]),
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false, description: 'A rejection, and changing a decision, need a reason', examples: [{ decision: 'Rejected', reason: 'Identifier code not visible' }] },
);
export type JudgeInput = Static<typeof JudgeBody>;

// ---------- results ----------

const LeaderboardRow = Type.Object(
  {
    rank: Type.Integer(),
    registrationId: Uuid,
    anglerName: Type.String(),
    total: Type.Number({ description: 'Sum of the counted catches minus penalties, in the division’s unit' }),
    penalties: Type.Number({ description: 'Penalties deducted, in the division’s unit' }),
    biggest: Type.Number({ description: 'Biggest single counted fish (first tie-break)' }),
    lastCountedAt: Timestamp,
    countedCatches: Type.Array(
      Type.Object({ id: Uuid, speciesId: Uuid, measure: Type.Number(), capturedAt: Timestamp }, { additionalProperties: false }),
      { description: 'The best N verified catches, biggest first' },
    ),
  },
  { additionalProperties: false },
);

const Placing = Type.Object(
  {
    id: Uuid,
    place: Type.Integer(),
    registrationId: Uuid,
    anglerName: Type.String(),
    total: Type.Number(),
    payoutCents: Type.Integer(),
    note: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

export const Results = Type.Object(
  {
    tournamentId: Uuid,
    status: literals(TOURNAMENT_STATUSES),
    resultsPublishedAt: Nullable(Timestamp),
    tieBreaks: TieBreaks,
    divisions: Type.Array(
      Type.Object(
        {
          divisionId: Uuid,
          name: Type.String(),
          unit: Type.Union([Type.Literal('in'), Type.Literal('lb')]),
          bestN: Type.Integer(),
          leaderboard: Type.Array(LeaderboardRow),
          placings: Type.Array(Placing, { description: 'Official placings, once published' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    $id: 'TournamentResults',
    examples: [
      {
        tournamentId: ID_EXAMPLE,
        status: 'InProgress',
        resultsPublishedAt: null,
        tieBreaks: ['BiggestFish', 'EarliestLastCatch'],
        divisions: [
          {
            divisionId: ID_EXAMPLE,
            name: 'Open',
            unit: 'in',
            bestN: 2,
            leaderboard: [
              {
                rank: 1,
                registrationId: ID_EXAMPLE,
                anglerName: 'Jo Angler',
                total: 37.25,
                penalties: 0,
                biggest: 19,
                lastCountedAt: '2026-06-06T15:00:00.000Z',
                countedCatches: [{ id: ID_EXAMPLE, speciesId: SPECIES_EXAMPLE, measure: 19, capturedAt: '2026-06-06T15:00:00.000Z' }],
              },
            ],
            placings: [],
          },
        ],
      },
    ],
  },
);

export const AddResultBody = Type.Union(
  [
    Type.Object(
      {
        kind: Type.Union([Type.Literal('Catch'), Type.Literal('catch')], { description: 'Catch (the older catch is still accepted)' }),
        registrationId: Uuid,
        ...catchMeasures,
      },
      { additionalProperties: false, description: 'A catch judged at the scale by the organizer: recorded as Verified' },
    ),
    Type.Object(
      {
        kind: Type.Union([Type.Literal('Penalty'), Type.Literal('penalty')], { description: 'Penalty (the older penalty is still accepted)' }),
        registrationId: Uuid,
        code: Type.String({ minLength: 1, maxLength: 40, description: 'One of the division’s penaltyRules codes' }),
        reason: Reason,
      },
      { additionalProperties: false, description: 'A penalty from the division’s rules' },
    ),
    Type.Object(
      {
        kind: Type.Union([Type.Literal('Placing'), Type.Literal('placing')], { description: 'Placing (the older placing is still accepted)' }),
        divisionId: Uuid,
        registrationId: Uuid,
        place: Type.Integer({ minimum: 1, maximum: 100_000 }),
        payoutCents: Type.Optional(Cents('Payout')),
        note: optionalText(500),
        reason: Type.Optional(Reason),
      },
      { additionalProperties: false, description: 'One official placing; changing an existing one needs a reason (audit-logged)' },
    ),
    Type.Object(
      {
        kind: Type.Union([Type.Literal('Publish'), Type.Literal('publish')], { description: 'Publish (the older publish is still accepted)' }),
        payoutsCents: Type.Optional(Type.Array(Cents('Payout by place (first item: 1st place)'), { maxItems: 100 })),
        reason: Type.Optional(Reason),
      },
      { additionalProperties: false, description: 'Publishes every division’s placings from the leaderboard (after the end); republishing needs a reason' },
    ),
  ],
  {
    examples: [
      { kind: 'Publish', payoutsCents: [50000, 25000, 10000] },
      { kind: 'Placing', divisionId: ID_EXAMPLE, registrationId: ID_EXAMPLE, place: 2, payoutCents: 25000, reason: 'Scorecard correction' },
    ],
  },
);
export type AddResultInput = Static<typeof AddResultBody>;

// ---------- judges ----------

export const JudgeBodyAdd = Type.Object({ userId: Uuid }, { additionalProperties: false, examples: [{ userId: ID_EXAMPLE }] });
export const Judge = Type.Object(
  { userId: Uuid, createdAt: Timestamp },
  { additionalProperties: false, $id: 'TournamentJudge', examples: [{ userId: ID_EXAMPLE, createdAt: '2026-05-01T12:00:00.000Z' }] },
);

// ---------- sponsors ----------

export const SponsorBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    tier: Type.Union([Type.Literal('Title'), Type.Literal('Gold'), Type.Literal('Silver'), Type.Literal('Bronze'), Type.Literal('Supporter')]),
    amountCents: Type.Optional(Cents('Sponsorship amount')),
    website: Type.Optional(Nullable(Url)),
    logoUrl: Type.Optional(Nullable(Url)),
  },
  { additionalProperties: false, examples: [{ name: 'North Shore Tackle', tier: 'Gold', amountCents: 150000, website: 'https://example.com' }] },
);
export type SponsorInput = Static<typeof SponsorBody>;

export const Sponsor = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    tier: literals(SPONSOR_TIERS),
    amountCents: Type.Integer(),
    website: Nullable(Type.String()),
    logoUrl: Nullable(Type.String()),
    createdAt: Timestamp,
  },
  {
    additionalProperties: false,
    $id: 'TournamentSponsor',
    examples: [{ id: ID_EXAMPLE, name: 'North Shore Tackle', tier: 'Gold', amountCents: 150000, website: 'https://example.com', logoUrl: null, createdAt: '2026-03-01T12:00:00.000Z' }],
  },
);

// ---------- admin ----------

export const AdminReasonBody = Type.Object({ reason: Reason }, { additionalProperties: false, examples: [{ reason: 'Rules and permit checked' }] });
export const VerifyOrganizerBody = Type.Object(
  { reason: Reason, allowPayments: Type.Optional(Type.Boolean({ description: 'Allow paid tournaments (default: what the organizer asked for)' })) },
  { additionalProperties: false, examples: [{ reason: 'Club registration checked', allowPayments: true }] },
);

export const CsvResponse: TSchema = Type.String({ description: 'text/csv; header row first' });
