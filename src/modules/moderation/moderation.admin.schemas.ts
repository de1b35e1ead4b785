import { Type } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Timestamp, Uuid } from '../../core/http/schemas.js';
import { HOLD_REASONS } from './moderation.types.js';
import { ModerationStatusSchema } from '../social/index.js';

export const ContentTypeSchema = Type.Union([Type.Literal('post'), Type.Literal('comment')]);

const Scores = Type.Record(Type.String(), Type.Number({ minimum: 0, maximum: 1 }), { description: 'Score per category, 0..1' });

export const QueueItem = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Id of this queue item (the moderation record that held the content), not of the content: decisions take `contentId`' }),
    contentType: ContentTypeSchema,
    contentId: Type.String({
      format: 'uuid',
      description: 'Id of the held post or comment: approve or reject it with POST /api/admin/moderation/{contentType}/{contentId}/approve or /reject',
    }),
    postId: Type.String({ format: 'uuid', description: 'The post the content belongs to: the post itself, or the post a held comment is on' }),
    author: Type.Ref('UserRef'),
    text: Type.String(),
    photoUrls: Type.Array(Type.String()),
    moderationStatus: ModerationStatusSchema,
    heldBecause: Type.Union(HOLD_REASONS.map((r) => Type.Literal(r)), {
      description: 'flagged: the provider flagged it; rule: a flag rule matched; provider_error / provider_timeout: the provider failed (held rather than published unchecked); rule_timeout: a rule ran out of time; edited_after_rejection: edited after a moderator rejected it',
    }),
    provider: Type.Union([Type.String(), Type.Null()]),
    model: Type.Union([Type.String(), Type.Null()]),
    categories: Type.Array(Type.String(), { description: 'Flagged categories' }),
    scores: Scores,
    matchedRules: Type.Array(
      Type.Object({ id: Uuid, name: Type.String(), action: Type.Union([Type.Literal('flag'), Type.Literal('reject')]) }, { additionalProperties: false }),
    ),
    flaggedAt: Timestamp,
    createdAt: Timestamp,
  },
  { additionalProperties: false, $id: 'ModerationQueueItem' },
);

export const PendingQuery = listQuery({
  contentType: Type.Optional(ContentTypeSchema),
});

export const Decision = Type.Object(
  {
    contentType: ContentTypeSchema,
    contentId: Uuid,
    moderationStatus: ModerationStatusSchema,
    moderationReason: Type.Union([Type.String(), Type.Null()], { description: 'The reason the author sees (rejections)' }),
    decidedBy: Uuid,
    decidedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'ModerationDecision' },
);

export const ApproveBody = Type.Object(
  { note: Type.Optional(Type.String({ maxLength: 1000, description: 'Kept in the audit log' })) },
  { additionalProperties: false },
);

export const RejectBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S', description: 'Shown to the author' }) },
  { additionalProperties: false },
);
