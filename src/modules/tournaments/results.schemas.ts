import { Type, type Static, type TSchema } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { TOURNAMENT_STATUSES } from './tournaments.tables.js';
import { catchMeasures } from './judging.schemas.js';
import { Cents, ID_EXAMPLE, literals, optionalText, Reason, SPECIES_EXAMPLE, TieBreaks } from './tournaments.schemas.js';

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
export const CsvResponse: TSchema = Type.String({ description: 'text/csv; header row first' });
