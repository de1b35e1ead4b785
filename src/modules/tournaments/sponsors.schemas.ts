import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { SPONSOR_TIERS } from './tournaments.tables.js';
import { Cents, ID_EXAMPLE, literals, Url } from './tournaments.schemas.js';

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
