import { Type } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Timestamp, Uuid } from '../../core/http/schemas.js';

export const UserIdParams = Type.Object({ userId: Uuid }, { additionalProperties: false });

export const Restrictions = Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), {
  description: 'Limits on the grant, e.g. { "maxBanDays": 7 } for Users.Ban',
  maxProperties: 20,
  examples: [{ maxBanDays: 7 }],
});

export const Grant = Type.Object(
  {
    id: Uuid,
    userId: Uuid,
    permission: Type.String({ examples: ['Users.Ban'] }),
    isGranted: Type.Boolean({ description: 'false = explicitly denied' }),
    restrictions: Type.Union([Restrictions, Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()]),
    grantedBy: Type.Union([Uuid, Type.Null()], { description: 'Who made the change (null: an operator through the CLI)' }),
    grantedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'PermissionGrant' },
);

export const Employee = Type.Object(
  {
    id: Uuid,
    username: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    role: Type.Union([Type.Literal('Admin'), Type.Literal('Moderator')]),
    permissions: Type.Array(Type.Ref('PermissionGrant'), { description: 'Grants and denials in force' }),
  },
  { additionalProperties: false, $id: 'Employee' },
);

export const RoleBody = Type.Object(
  {
    role: Type.Union([Type.Literal('Admin'), Type.Literal('Moderator')]),
    reason: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);

export const PermissionBody = Type.Object(
  {
    permission: Type.String({ minLength: 1, maxLength: 64, description: 'Permission name in either style, case-insensitive', examples: ['Users.Ban'] }),
    isGranted: Type.Boolean({ description: 'true grants, false explicitly denies' }),
    reason: Type.Optional(Type.String({ maxLength: 1000 })),
    restrictions: Type.Optional(Restrictions),
  },
  { additionalProperties: false },
);

export const EmployeesQuery = listQuery({
  role: Type.Optional(Type.Union([Type.Literal('Admin'), Type.Literal('Moderator')])),
});

export const HistoryQuery = listQuery({});
