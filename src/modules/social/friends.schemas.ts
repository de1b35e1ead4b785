import { Type } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { pascalEnum } from '../../core/http/enums.js';
import { Timestamp, Uuid } from '../../core/http/schemas.js';

export const FriendIdParams = Type.Object({ friendId: Uuid }, { additionalProperties: false });
export const CircleUserParams = Type.Object({ userId: Uuid }, { additionalProperties: false });

/** Friends, PendingIncoming, PendingOutgoing; `friends`, `pending-incoming`, `pending-outgoing` are still accepted. */
export const FriendStatusEnum = pascalEnum(['friends', 'pending-incoming', 'pending-outgoing'] as const, 'Friends: both added each other; PendingOutgoing: you asked; PendingIncoming: they asked.');
export const FriendStatusSchema = FriendStatusEnum.output;

export const Friend = Type.Object(
  {
    userId: Uuid,
    username: Type.String(),
    status: FriendStatusSchema,
    since: Timestamp,
    inCircle: Type.Boolean({ description: 'Whether you put this friend in your circle' }),
  },
  { additionalProperties: false, $id: 'Friend' },
);

export const CircleMember = Type.Object({ userId: Uuid, username: Type.String(), since: Timestamp }, { additionalProperties: false, $id: 'CircleMember' });

export const FriendsQuery = listQuery({
  status: Type.Optional(FriendStatusEnum.input),
});
export const CircleQuery = listQuery({});
