import { Type } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Timestamp, Uuid } from '../../core/http/schemas.js';
import { pascalEnum } from '../../core/http/enums.js';
import { CONTENT_TYPES, HOLD_REASONS, RULE_ACTIONS } from './moderation.types.js';
import { ModerationStatusSchema } from './moderation.schemas.js';

/** Post or Comment; `post`, `comment` are still accepted. (The decision paths keep their lower-case resource segments: /api/admin/moderation/post/{id}/approve.) */
export const ContentTypeEnum = pascalEnum(CONTENT_TYPES, 'Post or Comment.');
export const ContentTypeSchema = ContentTypeEnum.output;
/** Why an item waits in the queue; the old snake_case spellings are never sent, so only the output is needed. */
export const HoldReasonEnum = pascalEnum(
  HOLD_REASONS,
  'Flagged: the provider flagged it; Rule: a flag rule matched; ProviderError / ProviderTimeout: the provider failed (held rather than published unchecked); RuleTimeout: the regular-expression rules could not run (RE2 ran out of memory; before rules ran on RE2, a rule ran out of time); EditedAfterRejection: edited after a moderator rejected it.',
);
/** Flag or Reject; `flag`, `reject` are still accepted. */
export const RuleActionEnum = pascalEnum(RULE_ACTIONS, 'Flag: hold for review; Reject: refuse, telling the author the reason.');

const Scores = Type.Record(Type.String(), Type.Number({ minimum: 0, maximum: 1 }), { description: 'Score per category, 0..1' });

export const QueueItem = Type.Object(
  {
    id: Type.String({
      format: 'uuid',
      description: 'Id of this queue item (the moderation record that held the content), not of the content: decisions and reports take `contentId`',
    }),
    contentType: ContentTypeSchema,
    contentId: Type.String({
      format: 'uuid',
      description:
        'Id of the held post or comment (the content, not the queue item): approve or reject it with POST /api/admin/moderation/post/{contentId}/approve or /reject (comment/{contentId} for a Comment)',
    }),
    postId: Type.String({ format: 'uuid', description: 'The post the content belongs to: the post itself, or the post a held comment is on' }),
    author: Type.Ref('UserRef'),
    text: Type.String(),
    photoUrls: Type.Array(Type.String(), { description: 'Links to pictures elsewhere that the author gave' }),
    photos: Type.Array(Type.Ref('Photo'), {
      description:
        'The post’s uploaded photos in order, whatever their moderation status; `displayUrl` and `thumbnailUrl` are the review endpoints (GET /api/admin/photos/{id}/{size}), ' +
        'readable by whoever may act on the queue. A comment has none.',
    }),
    moderationStatus: ModerationStatusSchema,
    heldBecause: HoldReasonEnum.output,
    provider: Type.Union([Type.String(), Type.Null()]),
    model: Type.Union([Type.String(), Type.Null()]),
    categories: Type.Array(Type.String(), { description: 'Flagged categories' }),
    scores: Scores,
    matchedRules: Type.Array(
      Type.Object({ id: Uuid, name: Type.String(), action: RuleActionEnum.output }, { additionalProperties: false }),
    ),
    flaggedAt: Timestamp,
    createdAt: Timestamp,
  },
  { additionalProperties: false, $id: 'ModerationQueueItem' },
);

export const PendingQuery = listQuery({
  contentType: Type.Optional(ContentTypeEnum.input),
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
