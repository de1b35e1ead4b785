import { Type, type Static } from 'typebox';
import { feedScopeSchema, VisibilitySchema } from '../../core/access/visibility-levels.js';
import { feedQuery } from '../../core/http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { ModerationStatusSchema } from '../moderation/index.js';

export const MAX_POST_LENGTH = 5000;
export const MAX_PHOTOS = 10;

const PhotoUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'http(s) URL of a photo' });

export const LinkedEntry = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    occurredAt: Timestamp,
    waterBody: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false, $id: 'PostLinkedEntry', description: 'The linked fishing-log entry, when the caller may see it' },
);

export const LinkedCatch = Type.Object(
  {
    id: Uuid,
    entryId: Uuid,
    species: Type.Object({ id: Uuid, commonName: Type.String() }, { additionalProperties: false }),
    lengthCm: Type.Union([Type.Number(), Type.Null()]),
    weightKg: Type.Union([Type.Number(), Type.Null()]),
    count: Type.Integer(),
    released: Type.Boolean(),
    caughtAt: Timestamp,
  },
  { additionalProperties: false, $id: 'PostLinkedCatch', description: 'The linked catch, when the caller may see its entry' },
);

export const Post = Type.Object(
  {
    id: Uuid,
    author: Type.Ref('UserRef'),
    text: Type.String(),
    photoUrls: Type.Array(Type.String(), { description: 'Links to pictures elsewhere' }),
    photos: Type.Optional(Type.Array(Type.Ref('Photo'), { description: 'Uploaded photos, in order (POST /api/social/posts/{id}/photos; others see the published ones); on reads' })),
    visibility: VisibilitySchema,
    linkedEntry: Type.Union([Type.Ref('PostLinkedEntry'), Type.Null()]),
    linkedCatch: Type.Union([Type.Ref('PostLinkedCatch'), Type.Null()]),
    likeCount: Type.Integer({ minimum: 0 }),
    commentCount: Type.Integer({ minimum: 0, description: 'Published comments' }),
    likedByMe: Type.Boolean({ description: 'Whether the caller liked the post' }),
    moderationStatus: ModerationStatusSchema,
    moderationReason: Type.Union([Type.String(), Type.Null()], { description: 'Why it was rejected (shown to its author only)' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'Post' },
);

const postFields = {
  text: Type.String({ minLength: 1, maxLength: MAX_POST_LENGTH, pattern: '\\S', description: `The post's text (up to ${MAX_POST_LENGTH} characters)` }),
  photoUrls: Type.Array(PhotoUrl, { maxItems: MAX_PHOTOS, uniqueItems: true, description: `Up to ${MAX_PHOTOS} photo URLs` }),
  visibility: VisibilitySchema,
  logEntryId: Nullable(Uuid, { description: 'One of your fishing-log entries to link (or a catch: not both)' }),
  catchId: Nullable(Uuid, { description: 'One of your catches to link (or an entry: not both)' }),
};

export const CreatePostBody = Type.Object(
  {
    text: postFields.text,
    photoUrls: Type.Optional(postFields.photoUrls),
    visibility: Type.Optional({ ...postFields.visibility, description: 'Who may see the post (default Public)' }),
    logEntryId: Type.Optional(postFields.logEntryId),
    catchId: Type.Optional(postFields.catchId),
  },
  { additionalProperties: false },
);

/** PUT: the whole post. Text and visibility are required; omitted photos are none, omitted links none. */
export const ReplacePostBody = Type.Object(
  {
    text: postFields.text,
    photoUrls: Type.Optional(postFields.photoUrls),
    visibility: postFields.visibility,
    logEntryId: Type.Optional(postFields.logEntryId),
    catchId: Type.Optional(postFields.catchId),
  },
  { additionalProperties: false, description: 'The whole post: omitted photoUrls become none, omitted links none. To change some fields only, use PATCH.' },
);
export type ReplacePostInput = Static<typeof ReplacePostBody>;

export const FeedQuery = feedQuery({
  authorId: Type.Optional({ ...Uuid, description: "Only this author's posts" }),
  scope: Type.Optional(feedScopeSchema('posts')),
});

export const LikeState = Type.Object(
  { postId: Uuid, liked: Type.Boolean(), likeCount: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false, $id: 'LikeState' },
);
