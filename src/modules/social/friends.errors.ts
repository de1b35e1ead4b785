import { AppError } from '../../core/http/problem.js';

export const FriendErrors = {
  self: () => new AppError(400, 'social.cannot_befriend_self', 'You cannot add yourself; pass the id of another user.', { errors: [{ pointer: '/friendId', in: 'path', detail: 'is your own id' }] }),
  selfCircle: () => new AppError(400, 'social.cannot_circle_self', 'You are always in your own circle; pass the id of a friend.', { errors: [{ pointer: '/userId', in: 'path', detail: 'is your own id' }] }),
  userNotFound: (id: string) => new AppError(404, 'social.user_not_found', `No user has id ${id}.`),
  notAFriend: () => new AppError(409, 'social.not_a_friend', 'Only friends can join your circle: both of you must have added each other (POST /api/social/friends/{friendId}).'),
  notInCircle: () => new AppError(404, 'social.not_in_circle', 'This user is not in your circle.'),
};
