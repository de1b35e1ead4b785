import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { idOf, ownedByUser } from '../../core/db/references.js';
import { timestamps } from '../../core/db/columns.js';
import { VISIBILITIES } from '../../core/access/visibility-levels.js';
import { CONTENT_STATUSES } from '../moderation/index.js';

/**
 * Social posts, their likes and comments. A post or comment is checked by moderation before it
 * is published (`status`); `moderationReason` says why it was rejected (shown to its author).
 * `likeCount` and `commentCount` (published comments) are kept in step in the transaction that
 * changes them.
 */
export const posts = pgTable(
  'posts',
  {
    id: uuid().primaryKey(),
    authorId: ownedByUser(),
    text: text().notNull(),
    photoUrls: text().array().notNull().default(sql`'{}'::text[]`),
    logEntryId: uuid().references(() => idOf('fishing_log_entries'), { onDelete: 'set null' }),
    catchId: uuid().references(() => idOf('catches'), { onDelete: 'set null' }),
    visibility: text({ enum: VISIBILITIES }).notNull(),
    status: text({ enum: CONTENT_STATUSES }).notNull(),
    moderationReason: text(),
    /** A moderator rejected it: an edit then goes back to review instead of straight to publishing. */
    moderatorRejected: boolean().notNull().default(false),
    moderatedAt: timestamp({ withTimezone: true }),
    likeCount: integer().notNull().default(0),
    commentCount: integer().notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    // One index per branch of the feed's visibility UNION, each in feed order (newest first).
    index('posts_author_time_idx').on(t.authorId, t.createdAt.desc(), t.id.desc()),
    index('posts_author_visibility_time_idx')
      .on(t.authorId, t.visibility, t.createdAt.desc(), t.id.desc())
      .where(sql`status = 'Published'`),
    // The Public branch uses a covering partial index (created_at DESC, id DESC) INCLUDE
    // (author_id), created in drizzle/*_perf_sql.sql (drizzle-kit cannot say INCLUDE).
    index('posts_log_entry_idx').on(t.logEntryId).where(sql`log_entry_id IS NOT NULL`),
    index('posts_catch_idx').on(t.catchId).where(sql`catch_id IS NOT NULL`),
  ],
);

export const postLikes = pgTable(
  'post_likes',
  {
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: ownedByUser(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] }), index('post_likes_user_idx').on(t.userId, t.postId)],
);

export const postComments = pgTable(
  'post_comments',
  {
    id: uuid().primaryKey(),
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    authorId: ownedByUser(),
    text: text().notNull(),
    status: text({ enum: CONTENT_STATUSES }).notNull(),
    moderationReason: text(),
    moderatorRejected: boolean().notNull().default(false),
    moderatedAt: timestamp({ withTimezone: true }),
    ...timestamps(),
  },
  (t) => [index('post_comments_post_time_idx').on(t.postId, t.createdAt, t.id), index('post_comments_author_idx').on(t.authorId)],
);

export type PostRow = typeof posts.$inferSelect;
export type CommentRow = typeof postComments.$inferSelect;
