import { Type } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Timestamp, Uuid } from '../../core/http/schemas.js';
import { ModerationStatusSchema } from '../moderation/index.js';

export const MAX_COMMENT_LENGTH = 2000;

export const Comment = Type.Object(
  {
    id: Uuid,
    postId: Uuid,
    author: Type.Ref('UserRef'),
    text: Type.String(),
    moderationStatus: ModerationStatusSchema,
    moderationReason: Type.Union([Type.String(), Type.Null()], { description: 'Why it was rejected (shown to its author only)' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'Comment' },
);

export const CommentBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: MAX_COMMENT_LENGTH, pattern: '\\S', description: `The comment (up to ${MAX_COMMENT_LENGTH} characters)` }) },
  { additionalProperties: false },
);

export const CommentsQuery = listQuery({});
