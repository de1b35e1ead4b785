import { Type } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Timestamp, Uuid } from '../../core/http/schemas.js';
import { REVIEWED_KINDS, REVIEWED_STATES } from './photos.admin.service.js';

const PHOTO_ID = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21';
const POST_ID = '0193b7a0-1111-7c3a-9a57-2f1f0c3e8d21';
const MODERATOR_ID = '0193b790-2222-7c3a-9a57-2f1f0c3e8d21';

const Kind = literals(REVIEWED_KINDS, 'The kind of record the photo is on: Post or FishingReport (the records whose photos pass moderation)');
const State = literals(REVIEWED_STATES, 'PendingReview: held by the moderation provider, waiting for a moderator; Rejected: rejected by the provider or a moderator');

const queueExample = {
  id: PHOTO_ID,
  moderationStatus: 'PendingReview',
  record: { kind: 'Post', id: POST_ID, path: `/api/social/posts/${POST_ID}`, position: 1, photoCount: 2 },
  owner: { id: '0193b780-3333-7c3a-9a57-2f1f0c3e8d21', username: 'held_harry' },
  width: 1600,
  height: 1200,
  bytes: 412_338,
  displayUrl: `/api/photos/${PHOTO_ID}/display`,
  thumbnailUrl: `/api/photos/${PHOTO_ID}/thumbnail`,
  createdAt: '2026-11-26T21:40:00.000Z',
  updatedAt: '2026-11-26T21:40:00.000Z',
};

export const PhotoQueueItem = Type.Object(
  {
    id: Uuid,
    moderationStatus: State,
    record: Type.Object(
      {
        kind: Kind,
        id: Uuid,
        path: Type.String({ description: 'The API path of the record (GET it to see the record as its readers do)' }),
        position: Type.Integer({ minimum: 1, description: 'The photo’s place among its record’s photos (1 first)' }),
        photoCount: Type.Integer({ minimum: 1, description: 'How many photos the record has, this one included' }),
      },
      { additionalProperties: false, description: 'The record the photo is used on' },
    ),
    owner: Type.Ref('UserRef'),
    width: Type.Integer({ minimum: 1 }),
    height: Type.Integer({ minimum: 1 }),
    bytes: Type.Integer({ minimum: 0, description: 'Stored size of both files (what the owner’s quota counts)' }),
    displayUrl: Type.String({ description: 'GET it with your token: moderators see photos not published (the owner does too; other readers get a 404)' }),
    thumbnailUrl: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'PhotoQueueItem', examples: [queueExample] },
);

export const PhotoQueueQuery = listQuery({
  state: Type.Optional(literals(REVIEWED_STATES, 'Only photos in this state (default: both)')),
  kind: Type.Optional(literals(REVIEWED_KINDS, 'Only photos of this kind of record (default: both)')),
});

export const PhotoDecision = Type.Object(
  {
    photoId: Uuid,
    recordKind: Kind,
    recordId: Uuid,
    moderationStatus: literals(['Published', 'Rejected'] as const),
    decidedBy: Uuid,
    decidedAt: Timestamp,
  },
  {
    additionalProperties: false,
    $id: 'PhotoDecision',
    examples: [{ photoId: PHOTO_ID, recordKind: 'Post', recordId: POST_ID, moderationStatus: 'Rejected', decidedBy: MODERATOR_ID, decidedAt: '2026-11-26T22:05:00.000Z' }],
  },
);

export const DecisionBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S', description: 'Why: kept in the audit log' }) },
  { additionalProperties: false, examples: [{ reason: 'Shows a gutted fish in close-up; not for the public feed.' }] },
);
