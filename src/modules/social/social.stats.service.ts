import type { ServiceDeps } from '../../core/service-deps.js';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { users } from '../users/index.js';
import { postComments, postLikes, posts } from './posts.tables.js';
import { userReports } from './content-reports.tables.js';

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
export async function socialCountsOfUser(deps: ServiceDeps<DbOrTx>, userId: string): Promise<SocialCounts> {
  const { db } = deps;
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

/** Posts, comments and reports for the dashboard: totals, the last 7/30 days, what waits for a moderator. */
export async function socialOverview(deps: ServiceDeps<DbOrTx>, now: Date) {
  const { db } = deps;
  const d7 = new Date(now.getTime() - 7 * 86_400_000);
  const d30 = new Date(now.getTime() - 30 * 86_400_000);
  const result = await db.execute<{
    total: number;
    last7Days: number;
    last30Days: number;
    pendingPosts: number;
    pendingComments: number;
    openReports: number;
  }>(sql`
    SELECT (SELECT count(*) FROM ${posts})::int AS total,
           (SELECT count(*) FROM ${posts} WHERE ${posts.createdAt} >= ${d7} AND ${posts.createdAt} < ${now})::int AS "last7Days",
           (SELECT count(*) FROM ${posts} WHERE ${posts.createdAt} >= ${d30} AND ${posts.createdAt} < ${now})::int AS "last30Days",
           (SELECT count(*) FROM ${posts} WHERE ${posts.status} = 'PendingReview')::int AS "pendingPosts",
           (SELECT count(*) FROM ${postComments} WHERE ${postComments.status} = 'PendingReview')::int AS "pendingComments",
           (SELECT count(*) FROM ${userReports} WHERE ${userReports.status} = 'Open')::int AS "openReports"`);
  const row = result.rows[0]!;
  return { posts: { total: row.total, last7Days: row.last7Days, last30Days: row.last30Days }, pendingPosts: row.pendingPosts, pendingComments: row.pendingComments, openReports: row.openReports };
}

/**
 * Published posts with the most likes (or comments) given in [from, to): ids, authors and counts,
 * never the text (a post may be shared with friends only).
 */
export async function popularPosts(deps: ServiceDeps<DbOrTx>, by: 'likes' | 'comments', from: Date, to: Date, limit: number) {
  const { db } = deps;
  const source =
    by === 'likes'
      ? sql`SELECT ${postLikes.postId} AS post_id, count(*) AS n FROM ${postLikes} WHERE ${postLikes.createdAt} >= ${from} AND ${postLikes.createdAt} < ${to} GROUP BY 1`
      : sql`SELECT ${postComments.postId} AS post_id, count(*) AS n FROM ${postComments}
            WHERE ${postComments.createdAt} >= ${from} AND ${postComments.createdAt} < ${to} AND ${postComments.status} = 'Published' GROUP BY 1`;
  const result = await db.execute<{ postId: string; authorId: string; authorUsername: string; visibility: string; createdAt: string | Date; count: number; likeCount: number; commentCount: number }>(sql`
    SELECT p.id AS "postId", p.author_id AS "authorId", u.username AS "authorUsername", p.visibility, p.created_at AS "createdAt",
           x.n::int AS count, p.like_count AS "likeCount", p.comment_count AS "commentCount"
    FROM (${source}) x JOIN ${posts} p ON p.id = x.post_id JOIN ${users} u ON u.id = p.author_id
    WHERE p.status = 'Published'
    ORDER BY x.n DESC, p.created_at DESC, p.id
    LIMIT ${limit}`);
  return result.rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() }));
}
