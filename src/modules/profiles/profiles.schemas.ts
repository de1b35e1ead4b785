import { Type, type Static } from 'typebox';
import { VISIBILITIES } from '../../core/access/visibility-levels.js';
import { pascalEnum } from '../../core/http/enums.js';
import { Nullable, StateCode, Timestamp, Uuid } from '../../core/http/schemas.js';
import { CONSENT_LEVELS } from './research-consent.service.js';

export const UNITS = ['imperial', 'metric'] as const;
export type Units = (typeof UNITS)[number];

/** Imperial (default) or Metric; `imperial`/`metric` are still accepted. */
export const UnitsEnum = pascalEnum(UNITS, 'How the owner wants measurements shown (the API always answers kg and cm): Imperial (default) or Metric.');
export const UnitsSchema = UnitsEnum.output;

export const ProfileVisibilitySchema = Type.Union(
  VISIBILITIES.map((v) => Type.Literal(v)),
  {
    description:
      'ProfileVisibility: who may see the profile and its personal bests. Public (every signed-in user), Private (the owner only), Friends (mutual friends), Circle (the owner’s circle). Default Public.',
  },
);

export const ConsentLevelSchema = Type.Union(
  CONSENT_LEVELS.map((l) => Type.Literal(l)),
  { description: 'Research consent for DNR: None (default), Anonymized, Identified' },
);


export const SpeciesRef = Type.Object({ id: Uuid, commonName: Type.String() }, { additionalProperties: false });

const profileFields = {
  userId: Uuid,
  username: Type.String(),
  displayName: Nullable(Type.String()),
  bio: Nullable(Type.String()),
  homeState: Nullable(Type.String({ description: 'Home state or province, ISO 3166-2 as log entries record it, e.g. US-MN' })),
  homeRegion: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  favouriteSpecies: Nullable(SpeciesRef),
  visibility: ProfileVisibilitySchema,
  memberSince: Timestamp,
};

const Avatar = Nullable(Type.Ref('Photo'), { description: 'The uploaded avatar (PUT /api/userprofile/me/avatar), or null' });

/** What other users see (never email, role or consent). */
export const UserProfile = Type.Object(
  { ...profileFields, avatar: Type.Optional(Avatar) },
  {
    additionalProperties: false,
    $id: 'UserProfile',
    description: 'A user’s profile as other users see it',
  },
);

/** What the owner sees of their own profile. */
export const OwnProfile = Type.Object(
  {
    ...profileFields,
    avatar: Avatar,
    email: Nullable(Type.String()),
    role: Type.String({ description: 'Your role: Standard, DNR, Researcher, Admin, Moderator or Owner' }),
    unitsPreference: UnitsSchema,
    researchConsent: Type.Object(
      {
        level: ConsentLevelSchema,
        givenAt: Nullable(Timestamp),
      },
      { additionalProperties: false, description: 'The same consent the fishing log applies to DNR research; givenAt is null until you choose' },
    ),
    updatedAt: Type.Union([Timestamp, Type.Null()], { description: 'Last change of the profile; null while it has its defaults' }),
    pendingDeletion: Type.Optional(
      Type.Union(
        [
          Type.Object(
            { requestedAt: Timestamp, eraseAfter: Type.String({ format: 'date-time', description: 'When the account is erased; cancel before with DELETE /api/account/deletion' }) },
            { additionalProperties: false },
          ),
          Type.Null(),
        ],
        { description: 'Your account deletion while one is pending (POST /api/account/deletion), else null' },
      ),
    ),
  },
  { additionalProperties: false, $id: 'OwnProfile', description: 'Your own profile' },
);

const text = (maxLength: number, description: string) =>
  Nullable(Type.String({ minLength: 1, maxLength, pattern: '\\S', description: `${description} (trimmed; null clears it)` }));

/** PUT: the whole profile. Visibility and units are required; omitted texts, state and species become null. */
export const ReplaceProfileBody = Type.Object(
  {
    displayName: Type.Optional(text(60, 'Name shown instead of the username')),
    bio: Type.Optional(text(1000, 'About you')),
    homeState: Type.Optional(Nullable(StateCode, { description: 'Home state or province, ISO 3166-2, e.g. US-MN; null clears it' })),
    homeRegion: Type.Optional(text(100, 'Region, county or town')),
    avatarUrl: Type.Optional(
      Nullable(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'http(s) URL of your picture; null clears it' })),
    ),
    favouriteSpeciesId: Type.Optional(Nullable(Type.String({ format: 'uuid', description: 'Id of a species (GET /api/fish-species); null clears it' }))),
    unitsPreference: UnitsEnum.input,
    visibility: ProfileVisibilitySchema,
    researchConsent: Type.Optional(
      Type.Union(
        CONSENT_LEVELS.map((l) => Type.Literal(l)),
        { description: 'Research consent for DNR: None, Anonymized, Identified. Omitted: unchanged (the fishing log’s one consent, shown here).' },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'The whole profile: omitted optional fields become null (researchConsent, omitted, stays as it is). To change some fields only, use PATCH.',
  },
);
export type ReplaceProfileInput = Static<typeof ReplaceProfileBody>;

export const UserIdParams = Type.Object({ userId: Uuid }, { additionalProperties: false });
