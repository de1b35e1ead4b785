import { Type } from 'typebox';
import { ROLES } from '../../core/access/roles.js';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
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
