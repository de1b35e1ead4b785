import { Type } from 'typebox';
import { ROLES } from '../../core/access/roles.js';
import { Uuid } from '../../core/http/schemas.js';

export const MyAccess = Type.Object(
  {
    userId: Uuid,
    username: Type.String(),
    role: Type.Union(ROLES.map((r) => Type.Literal(r))),
    staff: Type.Boolean({ description: 'Owner, Admin or Moderator: someone who works on the platform (the staff console admits only them)' }),
    admin: Type.Boolean({ description: 'Passes the Admin-only routes (Admin, Owner)' }),
    owner: Type.Boolean({ description: 'Passes the Owner-only routes' }),
    permissions: Type.Array(Type.String(), {
      description: 'Every permission name the caller passes a permission-required route with, aliases included (Content.Approve and moderation.approve), sorted',
    }),
    restrictions: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
      description: 'Restrictions of the grants in force, by permission name, e.g. { "Users.Ban": { "maxBanDays": 7 } }',
    }),
  },
  {
    additionalProperties: false,
    $id: 'MyAccess',
    examples: [
      {
        userId: '0190f3a2-7c41-7b1e-9a53-2f6d1c0e4b8a',
        username: 'mia',
        role: 'Moderator',
        staff: true,
        admin: false,
        owner: false,
        permissions: ['Content.Approve', 'Users.Ban', 'Users.View', 'moderation.approve'],
        restrictions: { 'Users.Ban': { maxBanDays: 7 } },
      },
    ],
  },
);
