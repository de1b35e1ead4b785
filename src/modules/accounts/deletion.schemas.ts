import { Type } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { DELETION_STATUSES } from './accounts.tables.js';

export const DeletionRequestBody = Type.Object(
  {
    password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description: 'Your password, entered again. Leave it out only when your sign-in (POST /api/auth/login) is under 5 minutes old.',
      }),
    ),
  },
  { additionalProperties: false, description: 'May be left out, or `{}`, after a sign-in under 5 minutes old', examples: [{ password: 'correct horse battery staple' }, {}] },
);

const EXAMPLE = { status: 'Pending', requestedAt: '2026-06-01T05:30:00.000Z', eraseAfter: '2026-07-01T05:30:00.000Z', cancelledAt: null };

export const AccountDeletion = Type.Object(
  {
    status: literals(DELETION_STATUSES, 'Pending: erased at `eraseAfter` unless cancelled; Cancelled: the account is active again'),
    requestedAt: Timestamp,
    eraseAfter: Type.String({
      format: 'date-time',
      description: 'When the account is erased (the grace period, system setting AccountDeletionGraceDays, default 30 days); cancel before it with DELETE /api/account/deletion',
    }),
    cancelledAt: Nullable(Timestamp),
  },
  { $id: 'AccountDeletion', additionalProperties: false, examples: [EXAMPLE] },
);

export const AdminAccountDeletion = Type.Object(
  {
    userId: Uuid,
    username: Type.String({ description: '"former angler" once erased' }),
    email: Nullable(Type.String()),
    status: literals(DELETION_STATUSES),
    requestedAt: Timestamp,
    eraseAfter: Timestamp,
    cancelledAt: Nullable(Timestamp),
    erasedAt: Nullable(Timestamp),
    legalHold: Nullable(
      Type.Object({ since: Timestamp, by: Nullable(Uuid, { description: 'The Owner who placed it' }), reason: Type.String() }, { additionalProperties: false }),
      { description: 'While set, erasure waits (the grace period may end meanwhile)' },
    ),
  },
  {
    $id: 'AdminAccountDeletion',
    additionalProperties: false,
    examples: [
      {
        userId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22',
        username: 'jo',
        email: 'jo@example.com',
        ...EXAMPLE,
        erasedAt: null,
        legalHold: { since: '2026-06-02T09:00:00.000Z', by: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21', reason: 'Preservation letter from the county attorney, case 26-118' },
      },
    ],
  },
);

export const AccountDeletionsQuery = listQuery({
  status: Type.Optional(literals(DELETION_STATUSES, 'Default Pending')),
  legalHold: Type.Optional(Type.Boolean({ description: 'true: on legal hold only; false: not on hold only' })),
  dueBefore: Type.Optional(Type.String({ format: 'date-time', description: 'Erasure due at or before this time' })),
});

export const LegalHoldBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S', description: 'Why (kept in the audit log)' }) },
  { additionalProperties: false, examples: [{ reason: 'Preservation letter from the county attorney, case 26-118' }] },
);

export const UserIdParams = Type.Object({ userId: Uuid }, { additionalProperties: false });
