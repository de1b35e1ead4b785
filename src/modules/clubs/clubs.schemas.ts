import { ActivityFilterEnum, pascalEnum } from '../../core/http/enums.js';
import { Type, type Static } from 'typebox';
import { MAX_RADIUS_KM } from '../../core/db/geo.js';
import { legacyPointNote, PointBody, PointView } from '../../core/http/coordinates.js';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Nullable, StateCode, Timestamp, Uuid } from '../../core/http/schemas.js';
import { CLUB_PRIVACIES, CLUB_ROLES, MEMBERSHIP_STATUSES } from './clubs.tables.js';

const Privacy = literals(CLUB_PRIVACIES, 'Public: anyone joins at once and sees the members. Private: joining is a request the club’s admins approve; members only see the member list.');
export const ClubRoleEnum = pascalEnum(CLUB_ROLES, 'Owner (the creator), Admin or Member.');
const Role = ClubRoleEnum.output;
export const AssignableRoleEnum = pascalEnum(['admin', 'member'] as const, 'Admin or Member.');

export const CreateClubBody = Type.Object(
  {
    name: Type.String({ minLength: 3, maxLength: 150 }),
    description: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 5000 }))),
    privacy: Type.Optional(Privacy),
    homeWater: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    city: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    stateCode: Type.Optional(Nullable(StateCode)),
    location: PointBody({ description: `Where the club meets. ${legacyPointNote('lat', 'lon')}` }),
    websiteUrl: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 500 }))),
  },
  { additionalProperties: false, examples: [{ name: 'Brainerd Lakes Walleye Club', privacy: 'Public', homeWater: 'Gull Lake', city: 'Brainerd', stateCode: 'US-MN', location: { latitude: 46.358, longitude: -94.2008 } }] },
);
export type CreateClubInput = Static<typeof CreateClubBody>;

const Membership = Type.Object({ role: Role, status: literals(MEMBERSHIP_STATUSES, 'Active, or Pending (a request to join a private club)') }, { additionalProperties: false });

const clubProperties = {
  id: Uuid,
  name: Type.String(),
  description: Nullable(Type.String()),
  privacy: Privacy,
  homeWater: Nullable(Type.String()),
  city: Nullable(Type.String()),
  stateCode: Nullable(Type.String()),
  location: PointView({ description: 'Where the club meets' }),
  websiteUrl: Nullable(Type.String()),
  memberCount: Type.Integer({ description: 'Active members' }),
  featured: Type.Boolean(),
  isActive: Type.Boolean(),
  myMembership: Nullable(Membership, { description: 'Your membership, if any' }),
  distanceKm: Type.Optional(Type.Number()),
  owner: Type.Object({ userId: Uuid, username: Type.String() }, { additionalProperties: false }),
  createdAt: Timestamp,
};

const clubExample = {
  id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
  name: 'Brainerd Lakes Walleye Club',
  description: null,
  privacy: 'Public',
  homeWater: 'Gull Lake',
  city: 'Brainerd',
  stateCode: 'US-MN',
  location: { latitude: 46.358, longitude: -94.2008 },
  websiteUrl: null,
  memberCount: 12,
  featured: false,
  isActive: true,
  myMembership: { role: 'Member', status: 'Active' },
  owner: { userId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22', username: 'jo' },
  createdAt: '2026-06-01T05:30:00.000Z',
};

export const Club = Type.Object(clubProperties, { additionalProperties: false, $id: 'Club', examples: [clubExample] });

export const ClubMember = Type.Object(
  { userId: Uuid, username: Type.String(), role: Role, status: literals(MEMBERSHIP_STATUSES), requestedAt: Timestamp, joinedAt: Nullable(Timestamp) },
  { additionalProperties: false, $id: 'ClubMember', examples: [{ userId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22', username: 'jo', role: 'Owner', status: 'Active', requestedAt: '2026-06-01T05:30:00.000Z', joinedAt: '2026-06-01T05:30:00.000Z' }] },
);

export const ClubDetail = Type.Object(
  {
    ...clubProperties,
    members: Nullable(Type.Array(Type.Ref('ClubMember')), {
      description: 'Active members (and, for the club’s admins, pending requests); null for a private club you are not a member of',
    }),
  },
  { additionalProperties: false, $id: 'ClubDetail', examples: [{ ...clubExample, members: [] }] },
);

export const ClubsQuery = listQuery({
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text in the name, description or home water' })),
  state: Type.Optional(StateCode),
  lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  radiusKm: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, description: `With lat/lon (default 50, at most ${MAX_RADIUS_KM})` })),
});
export type ClubsQueryType = Static<typeof ClubsQuery>;

export const MemberParams = Type.Object({ id: Uuid, userId: Uuid }, { additionalProperties: false });
export const RoleBody = Type.Object({ role: AssignableRoleEnum.input }, { additionalProperties: false, examples: [{ role: 'Admin' }] });

// Administration

const { myMembership: _membership, distanceKm: _distance, ...adminClubProperties } = clubProperties;

export const AdminClub = Type.Object(
  {
    ...adminClubProperties,
    deactivatedAt: Nullable(Timestamp),
    deactivationReason: Nullable(Type.String()),
    featuredFrom: Nullable(Timestamp, { description: 'Start of the featuring window, if it was ever featured' }),
    featuredUntil: Nullable(Timestamp, { description: 'End of the featuring window; null: open-ended' }),
    usage: Type.Object(
      {
        members: Type.Integer({ description: 'Active members, the owner included' }),
        admins: Type.Integer({ description: 'Active members who run it (the owner and the club’s admins)' }),
        pendingRequests: Type.Integer({ description: 'Requests to join (private clubs) not decided yet' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    $id: 'AdminClub',
    examples: [
      {
        ...Object.fromEntries(Object.entries(clubExample).filter(([key]) => key !== 'myMembership')),
        isActive: false,
        deactivatedAt: '2026-06-03T08:00:00.000Z',
        deactivationReason: 'Spam club advertising charters',
        featuredFrom: null,
        featuredUntil: null,
        usage: { members: 12, admins: 2, pendingRequests: 1 },
      },
    ],
  },
);

export const AdminClubsQuery = listQuery({
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text in the name, description or home water' })),
  status: Type.Optional(ActivityFilterEnum.input),
  state: Type.Optional(StateCode),
  privacy: Type.Optional(Privacy),
  featured: Type.Optional(Type.Boolean({ description: 'true: featured right now; false: not featured now' })),
});
export type AdminClubsQueryType = Static<typeof AdminClubsQuery>;
