import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { postComments, posts } from './posts.tables.js';
import { userReports } from './reports.tables.js';

/**
 * The social module's figures for the administration (user details, activity timeline,
 * dashboard): counts and ids only, never the text of posts or comments.
 */

export interface SocialCounts {
  posts: number;
  comments: number;
  /** Reports about the user or their content. */
  reportsAgainst: number;
  openReportsAgainst: number;
  reportsFiled: number;
}

/** A user's posts, comments and reports (one query). */
export async function socialCountsOfUser(db: DbOrTx, userId: string): Promise<SocialCounts> {
  const result = await db.execute<{ posts: number; comments: number; reportsAgainst: number; openReportsAgainst: number; reportsFiled: number }>(sql`
    SELECT (SELECT count(*) FROM ${posts} WHERE ${posts.authorId} = ${userId})::int AS "posts",
           (SELECT count(*) FROM ${postComments} WHERE ${postComments.authorId} = ${userId})::int AS "comments",
           (SELECT count(*) FROM ${userReports} WHERE ${userReports.targetUserId} = ${userId})::int AS "reportsAgainst",
           (SELECT count(*) FROM ${userReports} WHERE ${userReports.targetUserId} = ${userId} AND ${userReports.status} = 'Open')::int AS "openReportsAgainst",
           (SELECT count(*) FROM ${userReports} WHERE ${userReports.reporterId} = ${userId})::int AS "reportsFiled"`);
  return result.rows[0]!;
}

/** The user's posts, comments and reports filed, as activity-timeline rows (ids, status, reason: no text). */
export function socialTimelineSql(userId: string): SQL[] {
  return [
    sql`SELECT ${posts.createdAt} AS at, 'post'::text AS kind, ${posts.id}::text AS id, NULL::text AS title, ${posts.status} || ', ' || ${posts.visibility} AS detail
        FROM ${posts} WHERE ${posts.authorId} = ${userId}`,
    sql`SELECT ${postComments.createdAt} AS at, 'comment'::text AS kind, ${postComments.id}::text AS id, NULL::text AS title, 'on post ' || ${postComments.postId}::text AS detail
        FROM ${postComments} WHERE ${postComments.authorId} = ${userId}`,
    sql`SELECT ${userReports.createdAt} AS at, 'report'::text AS kind, ${userReports.id}::text AS id, NULL::text AS title,
               ${userReports.reason} || ' about ' || ${userReports.targetType} || ' ' || ${userReports.targetId}::text AS detail
        FROM ${userReports} WHERE ${userReports.reporterId} = ${userId}`,
  ];
}
