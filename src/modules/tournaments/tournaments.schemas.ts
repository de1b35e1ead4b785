import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, StateCode, Timestamp, Uuid } from '../../core/http/schemas.js';
import { pascalEnum } from '../../core/http/enums.js';
import { MEASURES, ORGANIZER_STATUSES, TIE_BREAKS, TOURNAMENT_FORMATS, TOURNAMENT_STATUSES, TOURNAMENT_VISIBILITIES } from './tournaments.tables.js';

/** Length (CPR) or Weight (weigh-in); `length`, `weight` are still accepted. */
export const MeasureEnum = pascalEnum(MEASURES, 'Length (CPR) or Weight (weigh-in).');
/** BiggestFish, EarliestLastCatch; `biggestFish`, `earliestLastCatch` are still accepted. */
export const TieBreakEnum = pascalEnum(TIE_BREAKS, 'BiggestFish: biggest single counted fish; EarliestLastCatch: earliest capture of the last counted fish.');

export const literals = <T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );
export const optionalText = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) })));
export const Url = Type.String({ maxLength: 500, pattern: '^https?://[^\\s/$.?#][^\\s]*$', description: 'http(s) URL', examples: ['https://example.com/photo.jpg'] });
export const Reason = Type.String({ minLength: 1, maxLength: 1000, description: 'Why (kept in the audit log)', examples: ['Checked the photos and the permit'] });
export const Cents = (description: string) => Type.Integer({ minimum: 0, maximum: 100_000_000, description: `${description}, integer cents` });

export const OrganizerStatusSchema = literals(ORGANIZER_STATUSES, { description: 'Pending → Verified | Rejected; Verified → Suspended → Verified' });

export const ID_EXAMPLE = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21';
export const SPECIES_EXAMPLE = '0193b7a4-0000-7000-8000-000000000001';
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
export const TieBreaks = Type.Array(TieBreakEnum.output, tieBreaksOptions);
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

// ---------- admin ----------

export const AdminReasonBody = Type.Object({ reason: Reason }, { additionalProperties: false, examples: [{ reason: 'Rules and permit checked' }] });
