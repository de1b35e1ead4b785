import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, PastTimestamp, Timestamp, Uuid } from '../../core/http/schemas.js';
import { TOURNAMENT_CATCH_STATUSES } from './tournaments.tables.js';
import { ID_EXAMPLE, literals, Reason, SPECIES_EXAMPLE, Url } from './tournaments.schemas.js';

// ---------- catches ----------

export const catchMeasures = {
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
// ---------- judges ----------

export const JudgeBodyAdd = Type.Object({ userId: Uuid }, { additionalProperties: false, examples: [{ userId: ID_EXAMPLE }] });
export const Judge = Type.Object(
  { userId: Uuid, createdAt: Timestamp },
  { additionalProperties: false, $id: 'TournamentJudge', examples: [{ userId: ID_EXAMPLE, createdAt: '2026-05-01T12:00:00.000Z' }] },
);
