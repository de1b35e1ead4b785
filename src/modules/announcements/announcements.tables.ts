import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { deactivation, timestamps } from '../../core/db/columns.js';
import { idOf } from '../../core/db/references.js';

export const ANNOUNCEMENT_TYPES = ['Info', 'Success', 'Warning', 'Error'] as const;
export type AnnouncementType = (typeof ANNOUNCEMENT_TYPES)[number];
/** Lowest first: the index is the priority's rank. */
export const ANNOUNCEMENT_PRIORITIES = ['Low', 'Normal', 'High', 'Critical'] as const;
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];
export const DISMISSALS = ['Dismissible', 'Persistent'] as const;
export type Dismissal = (typeof DISMISSALS)[number];

/**
 * Announcements shown to users between `startsAt` and `endsAt` (open-ended when null).
 * `targetRoles` null means every role; otherwise the role names it is shown to.
 */
export const announcements = pgTable(
  'announcements',
  {
    id: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    body: text().notNull(),
    type: text({ enum: ANNOUNCEMENT_TYPES }).notNull(),
    priority: text({ enum: ANNOUNCEMENT_PRIORITIES }).notNull(),
    /** 0 Low … 3 Critical, for ordering. */
    priorityRank: integer().notNull(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }),
    targetRoles: text().array(),
    dismissal: text({ enum: DISMISSALS }).notNull(),
    version: integer().notNull().default(1),
    createdBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
    updatedBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
    ...timestamps(),
    ...deactivation(),
  },
  (t) => [index('announcements_live_idx').on(t.isActive, t.startsAt, t.endsAt)],
);
export type AnnouncementRow = typeof announcements.$inferSelect;

/** What an announcement was before each edit (version N replaced by version N+1). */
export const announcementVersions = pgTable(
  'announcement_versions',
  {
    id: uuid().primaryKey().defaultRandom(),
    announcementId: uuid()
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    content: jsonb().$type<Record<string, unknown>>().notNull(),
    /** The edit that replaced this version: who, when, why. */
    replacedBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
    replacedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    reason: text().notNull(),
  },
  (t) => [index('announcement_versions_announcement_idx').on(t.announcementId, t.version)],
);
export type AnnouncementVersionRow = typeof announcementVersions.$inferSelect;

/** One row per user who dismissed an announcement; the key makes a dismissal happen once. */
export const announcementDismissals = pgTable(
  'announcement_dismissals',
  {
    announcementId: uuid()
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => idOf('users'), { onDelete: 'cascade' }),
    dismissedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.announcementId, t.userId] }), index('announcement_dismissals_user_idx').on(t.userId)],
);
