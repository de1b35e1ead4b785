import { Type } from 'typebox';
import { literals, Nullable, Uuid } from '../../core/http/schemas.js';
import { CONTENT_STATUSES } from '../moderation/index.js';
import { ACCEPTED_TYPES, DISPLAY_SIZE, THUMBNAIL_SIZE } from './photos.images.js';
import { PHOTO_SIZES } from './photos.service.js';

const photoExample = {
  id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
  width: 1600,
  height: 1200,
  thumbnailWidth: 320,
  thumbnailHeight: 240,
  cover: true,
  moderationStatus: 'Published',
  displayUrl: '/api/photos/0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21/display',
  thumbnailUrl: '/api/photos/0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21/thumbnail',
};

const pixels = (description: string) => Type.Integer({ minimum: 1, maximum: 100_000, description });

/** A photo as record views list it (shared: the modules' views `$ref` it). */
export const Photo = Type.Object(
  {
    id: Uuid,
    width: pixels(`Display size width in pixels (at most ${DISPLAY_SIZE} on the longer side)`),
    height: pixels('Display size height in pixels'),
    thumbnailWidth: pixels(`Thumbnail width in pixels (at most ${THUMBNAIL_SIZE} on the longer side)`),
    thumbnailHeight: pixels('Thumbnail height in pixels'),
    cover: Type.Boolean({ description: 'The record’s cover photo: the one the owner chose, else the first' }),
    moderationStatus: literals(CONTENT_STATUSES, 'Published, or (posts’ and reports’ photos, shown to their owner only) PendingReview or Rejected'),
    displayUrl: Type.String({ description: 'GET it with your token: the display size (JPEG)', examples: [photoExample.displayUrl] }),
    thumbnailUrl: Type.String({ description: 'GET it with your token: the thumbnail (JPEG)', examples: [photoExample.thumbnailUrl] }),
  },
  { $id: 'Photo', additionalProperties: false, examples: [photoExample] },
);

export const PhotoList = Type.Array(Type.Ref('Photo'), { maxItems: 10, description: 'The record’s photos in order' });

export const UploadedPhoto = Type.Object(
  {
    ...Photo.properties,
    suggestedLocation: Nullable(
      Type.Object(
        {
          latitude: Type.Number({ minimum: -90, maximum: 90 }),
          longitude: Type.Number({ minimum: -180, maximum: 180 }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Catches and entries: the GPS position the photo carried, offered once so you may set it as the record’s location yourself. It is not stored, and the stored images carry no metadata.',
      },
    ),
  },
  { additionalProperties: false, examples: [{ ...photoExample, suggestedLocation: { latitude: 46.2333, longitude: -93.65 } }] },
);

/** The multipart body of an upload, as OpenAPI shows it (the file is streamed, not validated as JSON). */
export const multipartPhotoBody = {
  content: {
    'multipart/form-data': {
      schema: {
        description: `One file part named \`file\`: a ${Object.values(ACCEPTED_TYPES).join(', ')} image of at most MaxFileUploadSize bytes (a system setting)`,
        properties: { file: { type: 'string', format: 'binary', maxLength: 104_857_600, description: 'The image file' } },
        required: ['file'],
      },
    },
  },
};

export const PhotoParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export const PhotoFileParams = Type.Object({ id: Uuid, size: literals(PHOTO_SIZES, 'display (about 1600 px) or thumbnail (about 320 px)') }, { additionalProperties: false });
export const CatchPhotoParams = Type.Object({ entryId: Uuid, catchId: Uuid }, { additionalProperties: false });

export const MoveBody = Type.Object(
  { position: Type.Integer({ minimum: 1, maximum: 10, description: 'The new place among the record’s photos, 1 first' }) },
  { additionalProperties: false, examples: [{ position: 1 }] },
);

/** The bytes of a photo (GET), JPEG. */
export const PhotoBytes = {
  description: 'The image (JPEG, no metadata)',
  content: { 'image/jpeg': { schema: { type: 'string', format: 'binary', maxLength: 104_857_600 } } },
};
