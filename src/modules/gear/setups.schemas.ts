import { Type, type Static } from 'typebox';
import { withClientId } from '../../core/http/client-ids.js';
import { VersionField } from '../../core/http/conditional.js';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';

export const SetupBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, examples: ['Drop shot, 7\' ML'] }),
    rodId: Type.Optional(Nullable(Uuid)),
    reelId: Type.Optional(Nullable(Uuid)),
    lineId: Type.Optional(Nullable(Uuid)),
    lureIds: Type.Optional(Type.Array(Uuid, { uniqueItems: true, maxItems: 20, description: 'Catalog lures, in your order' })),
    technique: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100, examples: ['Drop shot'] }))),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false, description: 'All fields; PUT replaces the setup (omitted optional fields become null, omitted lureIds none)' },
);
export type SetupInput = Static<typeof SetupBody>;
export const SetupCreateBody = withClientId(SetupBody);
export type SetupCreateInput = Static<typeof SetupCreateBody>;

export const Setup = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    technique: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    rod: Nullable(Type.Ref('Rod')),
    reel: Nullable(Type.Ref('Reel')),
    line: Nullable(Type.Ref('Line')),
    lures: Type.Array(Type.Ref('Lure')),
    version: VersionField,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'GearSetup', description: 'A gear setup with its catalog items (which may since have been deactivated: see their isActive)' },
);

export const SetupsQuery = listQuery({});
