import { Type } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { pascalEnum } from '../../core/http/enums.js';

export const BAN_STATUSES = ['Active', 'Expired', 'Lifted'] as const;
export const APPEAL_STATUSES = ['Open', 'Upheld', 'Overturned'] as const;

const reasonText = (description: string) => Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S', description });

export const Appeal = Type.Object(
  {
    id: Uuid,
    banId: Uuid,
    text: Type.String({ description: "The banned user's appeal" }),
    status: literals(APPEAL_STATUSES, 'Open until decided; Overturned lifts the ban'),
    reply: Nullable(Type.String(), { description: 'The decision, as the user reads it' }),
    decidedBy: Nullable(Uuid),
    decidedAt: Nullable(Timestamp),
    createdAt: Timestamp,
  },
  { $id: 'BanAppeal', additionalProperties: false },
);

export const Ban = Type.Object(
  {
    id: Uuid,
    userId: Uuid,
    username: Type.String(),
    reason: Type.String(),
    startsAt: Timestamp,
    endsAt: Nullable(Timestamp, { description: 'null: permanent' }),
    permanent: Type.Boolean(),
    status: literals(BAN_STATUSES, 'Active (in force), Expired (ended by itself) or Lifted'),
    bannedBy: Nullable(Uuid, { description: 'null: an operator (CLI)' }),
    bannedByUsername: Nullable(Type.String()),
    liftedAt: Nullable(Timestamp),
    liftedBy: Nullable(Uuid),
    liftReason: Nullable(Type.String()),
    appeal: Nullable(Type.Ref('BanAppeal')),
  },
  {
    $id: 'Ban',
    additionalProperties: false,
    examples: [
      {
        id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
        userId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22',
        username: 'troll_tom',
        reason: 'Repeated harassment of other anglers in comments',
        startsAt: '2026-06-01T05:30:00.000Z',
        endsAt: '2026-06-08T05:30:00.000Z',
        permanent: false,
        status: 'Active',
        bannedBy: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d23',
        bannedByUsername: 'admin_ann',
        liftedAt: null,
        liftedBy: null,
        liftReason: null,
        appeal: null,
      },
    ],
  },
);

/** The banned user's view of a ban: no employee ids. */
export const MyBan = Type.Object(
  {
    id: Uuid,
    reason: Type.String(),
    startsAt: Timestamp,
    endsAt: Nullable(Timestamp, { description: 'null: permanent' }),
    permanent: Type.Boolean(),
    status: literals(BAN_STATUSES),
    liftedAt: Nullable(Timestamp),
    appeal: Nullable(
      Type.Object(
        {
          id: Uuid,
          text: Type.String(),
          status: literals(APPEAL_STATUSES),
          reply: Nullable(Type.String()),
          decidedAt: Nullable(Timestamp),
          createdAt: Timestamp,
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    $id: 'MyBan',
    additionalProperties: false,
    examples: [
      {
        id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
        reason: 'Repeated harassment of other anglers in comments',
        startsAt: '2026-06-01T05:30:00.000Z',
        endsAt: '2026-06-08T05:30:00.000Z',
        permanent: false,
        status: 'Active',
        liftedAt: null,
        appeal: { id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d24', text: 'It was my brother.', status: 'Open', reply: null, decidedAt: null, createdAt: '2026-06-01T08:00:00.000Z' },
      },
    ],
  },
);

export const MyBans = Type.Object(
  {
    current: Nullable(Type.Ref('MyBan'), { description: 'The ban in force, or null' }),
    recent: Type.Array(Type.Ref('MyBan'), { maxItems: 20, description: 'Your 20 latest bans (the current one included), newest first, with their appeals' }),
  },
  { additionalProperties: false },
);

export const BanBody = Type.Object(
  {
    reason: reasonText('Why: shown to the banned user and kept in the audit log'),
    durationDays: Nullable(Type.Integer({ minimum: 1, maximum: 3650 }), {
      description: 'Length in days (1-3650), or null for a permanent ban; a grant with `maxBanDays` caps it',
    }),
  },
  { additionalProperties: false, examples: [{ reason: 'Repeated harassment of other anglers in comments', durationDays: 7 }] },
);

export const LiftBody = Type.Object(
  { reason: reasonText('Why the ban is lifted (audit log)') },
  { additionalProperties: false, examples: [{ reason: 'Banned by mistake: the reports were about another account' }] },
);

export const AppealBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: 4000, pattern: '\\S', description: 'Why the ban should be lifted' }) },
  { additionalProperties: false, examples: [{ text: 'My account was shared with my brother; it will not happen again.' }] },
);

export const DecideBody = Type.Object(
  {
    decision: literals(['Upheld', 'Overturned'] as const, 'Overturned lifts the ban at once'),
    reply: reasonText('The answer the user reads (also the audit reason)'),
  },
  { additionalProperties: false, examples: [{ decision: 'Overturned', reply: 'Thanks for explaining; the ban is lifted.' }] },
);

/** Active, Expired or Lifted, as bans answer them; `active`, `expired`, `lifted` are still accepted. */
export const BanStatusFilterEnum = pascalEnum(['active', 'expired', 'lifted'] as const, 'Active (in force), Expired (ended by itself) or Lifted.');

export const BansQuery = listQuery({
  status: Type.Optional(BanStatusFilterEnum.input),
  userId: Type.Optional(Uuid),
  bannedBy: Type.Optional(Uuid),
});

export const AppealsQuery = listQuery({
  status: Type.Optional(literals(APPEAL_STATUSES)),
});
