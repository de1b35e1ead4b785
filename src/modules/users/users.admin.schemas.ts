import { Type } from 'typebox';
import { ROLES } from '../../core/access/roles.js';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { TimelineKindEnum } from './users.admin.service.js';
import { pascalEnum } from '../../core/http/enums.js';

const RoleSchema = literals(ROLES);

export const AdminUser = Type.Object(
  {
    id: Uuid,
    username: Type.String(),
    email: Nullable(Type.String()),
    role: RoleSchema,
    status: literals(['Active', 'Banned', 'Disabled'] as const, 'Disabled: deactivated or disabled in the identity provider; Banned: a ban in force'),
    activeBan: Nullable(Type.Object({ id: Uuid, endsAt: Nullable(Timestamp, { description: 'null: permanent' }) }, { additionalProperties: false })),
    createdAt: Timestamp,
    lastSignInAt: Nullable(Timestamp, { description: 'Last successful POST /api/auth/login' }),
  },
  {
    $id: 'AdminUser',
    additionalProperties: false,
    examples: [
      {
        id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22',
        username: 'jo',
        email: 'jo@example.com',
        role: 'Standard',
        status: 'Banned',
        activeBan: { id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21', endsAt: '2026-06-08T05:30:00.000Z' },
        createdAt: '2026-01-10T12:00:00.000Z',
        lastSignInAt: '2026-06-01T05:00:00.000Z',
      },
    ],
  },
);

const count = (description: string) => Type.Integer({ minimum: 0, description });

export const AdminUserDetails = Type.Object(
  {
    ...AdminUser.properties,
    profile: Type.Object(
      {
        displayName: Nullable(Type.String()),
        homeState: Nullable(Type.String()),
        homeRegion: Nullable(Type.String()),
        avatarUrl: Nullable(Type.String()),
        visibility: Type.String(),
      },
      { additionalProperties: false },
    ),
    counts: Type.Object(
      {
        entries: count('Fishing-log entries'),
        catches: count('Catches'),
        posts: count('Posts'),
        comments: count('Comments'),
        reportsAgainst: count('Reports about the user or their content'),
        openReportsAgainst: count('Of which still open'),
        reportsFiled: count('Reports the user filed'),
        bans: count('Bans, in force or not'),
        signIns: count('Successful sign-ins'),
      },
      { additionalProperties: false },
    ),
    bans: Type.Array(Type.Ref('Ban'), { maxItems: 20, description: 'The 20 latest bans, newest first, with their appeals' }),
  },
  { $id: 'AdminUserDetails', additionalProperties: false },
);

export const TimelineItem = Type.Object(
  {
    at: Timestamp,
    kind: TimelineKindEnum.output,
    id: Type.String({ description: 'Id of the record (entry, catch, post, comment, report, sign-in, ban, audit entry)' }),
    title: Nullable(Type.String(), { description: 'Entry title, ban or lift reason, role-change reason; nothing private' }),
    detail: Nullable(Type.String(), { description: 'Status, visibility, related ids, IP of a sign-in, role before → after' }),
  },
  {
    $id: 'TimelineItem',
    additionalProperties: false,
    examples: [{ at: '2026-06-01T05:30:00.000Z', kind: 'Entry', id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d25', title: 'Dawn on Mille Lacs', detail: 'Friends' }],
  },
);

/** Active, Banned or Disabled, as the list answers them; `active`, `banned`, `disabled` are still accepted. */
export const UserStatusFilterEnum = pascalEnum(['active', 'banned', 'disabled'] as const, 'Active, Banned (a ban in force) or Disabled (deactivated or disabled in the identity provider).');

export const UsersQuery = listQuery({
  role: Type.Optional(RoleSchema),
  status: Type.Optional(UserStatusFilterEnum.input),
  createdFrom: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after' })),
  createdTo: Type.Optional(Type.String({ format: 'date-time', description: 'Created before' })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Start of the username or e-mail address, any case' })),
  sort: Type.Optional(literals(['createdAt', '-createdAt', 'username', '-username'] as const, 'Default -createdAt (newest first)')),
});

export const TimelineQuery = listQuery({});

export const RoleChangeBody = Type.Object(
  {
    role: RoleSchema,
    reason: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S', description: 'Why (audit log)' }),
  },
  { additionalProperties: false, examples: [{ role: 'Researcher', reason: 'Approved research access request #42' }] },
);
