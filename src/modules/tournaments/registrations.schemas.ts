import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { FEE_STATUSES, REGISTRATION_STATUSES } from './tournaments.tables.js';
import { ID_EXAMPLE, literals } from './tournaments.schemas.js';

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
