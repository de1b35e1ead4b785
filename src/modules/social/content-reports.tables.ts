import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idOf, ownedByUser } from '../../core/db/references.js';

/**
 * User reports (complaints) about a post, a comment or a user. One open report per reporter and
 * target. `snapshot` keeps what the reporter saw (the text at the time), so the evidence stays
 * when the author edits or deletes the content. Targets have no foreign key for that reason.
 */
export const REPORT_TARGET_TYPES = ['post', 'comment', 'user'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

export const REPORT_REASONS = ['Spam', 'Harassment', 'HateSpeech', 'Violence', 'SexualContent', 'Misinformation', 'IllegalActivity', 'Impersonation', 'Other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_STATUSES = ['Open', 'Resolved'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** NoViolation: nothing to do. ContentRejected: the post or comment was rejected. ActionTaken: handled otherwise (the note says how). */
export const REPORT_RESOLUTIONS = ['NoViolation', 'ContentRejected', 'ActionTaken'] as const;
export type ReportResolution = (typeof REPORT_RESOLUTIONS)[number];

export interface ReportSnapshot {
  text?: string;
  photoUrls?: string[];
  postId?: string;
  username?: string;
}

export const userReports = pgTable(
  'user_reports',
  {
    id: uuid().primaryKey(),
    reporterId: ownedByUser(),
    targetType: text({ enum: REPORT_TARGET_TYPES }).notNull(),
    targetId: uuid().notNull(),
    /** Whose content (or which user) is reported. */
    targetUserId: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
    reason: text({ enum: REPORT_REASONS }).notNull(),
    details: text(),
    snapshot: jsonb().$type<ReportSnapshot>().notNull(),
    status: text({ enum: REPORT_STATUSES }).notNull().default('Open'),
    resolution: text({ enum: REPORT_RESOLUTIONS }),
    resolutionNote: text(),
    resolvedBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
    resolvedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_reports_one_open_idx').on(t.reporterId, t.targetType, t.targetId).where(sql`status = 'Open'`),
    index('user_reports_time_idx').on(t.createdAt, t.id),
    index('user_reports_status_time_idx').on(t.status, t.createdAt, t.id),
    index('user_reports_target_idx').on(t.targetType, t.targetId),
    // Admin user details and timeline: reports about a user, reports a user filed.
    index('user_reports_target_user_idx').on(t.targetUserId, t.status),
    index('user_reports_reporter_time_idx').on(t.reporterId, t.createdAt),
  ],
);

export type UserReportRow = typeof userReports.$inferSelect;
