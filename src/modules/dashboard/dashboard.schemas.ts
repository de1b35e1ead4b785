import { Type } from 'typebox';
import { ROLES } from '../../core/access/roles.js';
import { IntervalEnum } from '../../core/http/enums.js';
import { periodQuery } from '../../core/http/period.js';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { PAYMENT_KINDS, type PaymentKind } from '../payments/index.js';
import { RegulationDataWarning } from '../regulations/index.js';

const n = (description?: string) => Type.Integer({ minimum: 0, ...(description ? { description } : {}) });
const cents = (description: string) => Type.Integer({ description });
const Delta = Type.Object({ total: n(), last7Days: n('Created in the last 7 days'), last30Days: n('Created in the last 30 days') }, { additionalProperties: false });
const Money = {
  payments: n('Succeeded payments'),
  grossCents: cents('Amount paid, integer cents'),
  refundedCents: cents('Refunded so far, integer cents'),
  netCents: cents('Gross minus refunds, integer cents'),
};
const CurrencyMoney = Type.Object({ currency: Type.String({ examples: ['USD'] }), ...Money }, { additionalProperties: false });
const KindSchema = Type.Unsafe<PaymentKind>({ type: 'string', enum: [...PAYMENT_KINDS], description: 'Payment kind' });
const IntervalSchema = IntervalEnum.output;

export const Overview = Type.Object(
  {
    generatedAt: Timestamp,
    users: Type.Object(
      {
        total: n(),
        last7Days: n('New in the last 7 days'),
        last30Days: n('New in the last 30 days'),
        byRole: Type.Object(Object.fromEntries(ROLES.map((r) => [r, n()])), { additionalProperties: false }),
        activeLast7Days: n('Signed in during the last 7 days'),
        activeLast30Days: n('Signed in during the last 30 days'),
      },
      { additionalProperties: false },
    ),
    entries: Delta,
    catches: Delta,
    posts: Delta,
    pendingModeration: Type.Object({ posts: n(), comments: n(), fishingReports: n(), total: n() }, { additionalProperties: false }),
    openReports: n('User reports not resolved yet'),
    pending: Type.Object(
      { tournaments: n('Waiting for approval'), events: n('Waiting for approval'), organizerApplications: n('Organizers waiting for verification') },
      { additionalProperties: false },
    ),
    activeBans: n('Bans in force'),
    payments: Type.Object(
      {
        last7Days: Type.Array(CurrencyMoney, { maxItems: 50, description: 'Per currency' }),
        last30Days: Type.Array(CurrencyMoney, { maxItems: 50, description: 'Per currency' }),
      },
      { additionalProperties: false },
    ),
    regulationData: Type.Array(RegulationDataWarning, { description: 'Jurisdictions whose regulation data ends within 30 days or has ended: import the next license year' }),
  },
  { additionalProperties: false },
);


export const GrowthQuery = Type.Object({ ...periodQuery, interval: Type.Optional(IntervalEnum.input) }, { additionalProperties: false });

export const Growth = Type.Object(
  {
    from: Timestamp,
    to: Timestamp,
    interval: IntervalSchema,
    totals: Type.Object({ newUsers: n() }, { additionalProperties: false }),
    periods: Type.Array(
      Type.Object({ periodStart: Timestamp, newUsers: n('Users created in the period'), activeUsers: n('Distinct users who signed in during the period') }, { additionalProperties: false }),
      { maxItems: 400 },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        from: '2026-05-01T00:00:00.000Z',
        to: '2026-05-03T00:00:00.000Z',
        interval: 'Day',
        totals: { newUsers: 7 },
        periods: [
          { periodStart: '2026-05-01T00:00:00.000Z', newUsers: 7, activeUsers: 42 },
          { periodStart: '2026-05-02T00:00:00.000Z', newUsers: 0, activeUsers: 0 },
        ],
      },
    ],
  },
);

export const RevenueQuery = Type.Object(
  {
    ...periodQuery,
    interval: Type.Optional(IntervalEnum.input),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', default: 'USD', description: 'ISO 4217 code (upper case)', examples: ['USD'] })),
    kind: Type.Optional(KindSchema),
  },
  { additionalProperties: false },
);

const KindMoney = Type.Object({ kind: KindSchema, ...Money }, { additionalProperties: false });

export const Revenue = Type.Object(
  {
    from: Timestamp,
    to: Timestamp,
    interval: IntervalSchema,
    currency: Type.String(),
    totals: Type.Object(Money, { additionalProperties: false }),
    periods: Type.Array(Type.Object({ periodStart: Timestamp, ...Money, byKind: Type.Array(KindMoney, { maxItems: 10 }) }, { additionalProperties: false }), { maxItems: 400 }),
  },
  { additionalProperties: false },
);

export const PopularQuery = Type.Object(
  { ...periodQuery, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Items per list' })) },
  { additionalProperties: false },
);

const PopularPost = {
  postId: Uuid,
  authorId: Uuid,
  authorUsername: Type.String(),
  visibility: Type.String(),
  createdAt: Timestamp,
  likeCount: n('All-time likes'),
  commentCount: n('All-time published comments'),
};

export const Popular = Type.Object(
  {
    from: Timestamp,
    to: Timestamp,
    mostLikedPosts: Type.Array(Type.Object({ ...PopularPost, likesInPeriod: n() }, { additionalProperties: false }), { maxItems: 50 }),
    mostCommentedPosts: Type.Array(Type.Object({ ...PopularPost, commentsInPeriod: n() }, { additionalProperties: false }), { maxItems: 50 }),
    mostLoggedSpecies: Type.Array(
      Type.Object(
        { speciesId: Uuid, commonName: Nullable(Type.String()), catches: n('Catches logged'), fish: n('Fish (catch counts summed)'), anglers: n('Distinct anglers') },
        { additionalProperties: false },
      ),
      { maxItems: 50 },
    ),
    mostActiveSpots: Type.Array(
      Type.Object(
        { spotId: Uuid, name: Type.String(), kind: Type.String(), ratings: n('Ratings given or changed'), confirmations: n(), activity: n('ratings + confirmations') },
        { additionalProperties: false },
      ),
      { maxItems: 50, description: 'Views of spots are not tracked: the most recent activity (ratings and confirmations) stands for popularity' },
    ),
    mostHelpfulFishingReports: Type.Array(
      Type.Object({ reportId: Uuid, waterBody: Type.String(), fishedOn: Type.String({ format: 'date' }), helpfulMarks: n('Helpful marks given in the period') }, { additionalProperties: false }),
      { maxItems: 50, description: 'Views of reports are not tracked: helpful marks given in the period stand for popularity' },
    ),
    busiestTournaments: Type.Array(
      Type.Object({ tournamentId: Uuid, name: Type.String(), status: Type.String(), startsAt: Timestamp, registrations: n('Registrations made in the period, still active') }, { additionalProperties: false }),
      { maxItems: 50 },
    ),
  },
  { additionalProperties: false },
);
