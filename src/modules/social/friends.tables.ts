import { index, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { ownedByUser } from '../../core/db/references.js';

/**
 * "user added friend": one directed edge per request. A friendship is in force when both
 * edges exist; a single edge is a pending request (outgoing for user, incoming for friend).
 */
export const friendLinks = pgTable(
  'friend_links',
  {
    userId: ownedByUser(),
    friendId: ownedByUser(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.friendId] }), index('friend_links_friend_idx').on(t.friendId, t.userId)],
);

/** A user's inner circle, chosen among their friends (owner put member in their circle). */
export const circleMembers = pgTable(
  'circle_members',
  {
    ownerId: ownedByUser(),
    memberId: ownedByUser(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.memberId] }), index('circle_members_member_idx').on(t.memberId, t.ownerId)],
);
