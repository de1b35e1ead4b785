import { Type } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Timestamp, Uuid } from '../../core/http/schemas.js';

export const FriendIdParams = Type.Object({ friendId: Uuid }, { additionalProperties: false });
export const CircleUserParams = Type.Object({ userId: Uuid }, { additionalProperties: false });

export const FriendStatusSchema = Type.Union([Type.Literal('friends'), Type.Literal('pending-incoming'), Type.Literal('pending-outgoing')], {
  description: 'friends: both added each other; pending-outgoing: you asked; pending-incoming: they asked',
});

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
  status: Type.Optional(FriendStatusSchema),
});
export const CircleQuery = listQuery({});
