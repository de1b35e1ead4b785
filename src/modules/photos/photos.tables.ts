import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from '../../core/db/columns.js';
import { idOf, ownedByUser } from '../../core/db/references.js';
import { CONTENT_STATUSES } from '../moderation/index.js';

/** The records that have pictures. An Avatar's record is its user (`recordId` = `ownerId`). */
export const PHOTO_KINDS = ['Catch', 'Entry', 'Post', 'FishingReport', 'Spot', 'Avatar'] as const;
export type PhotoKind = (typeof PHOTO_KINDS)[number];

/**
 * Photos: the re-encoded images of a record (the original upload is never stored). `recordId`
 * names the record whatever its kind; the one foreign key of its kind (`catchId` … `spotId`, none
 * for an Avatar, whose user is `ownerId`) deletes the photo with its record, and the trigger of
 * drizzle/0042_photos.sql then queues its files in `media_deletions`. `position` orders a
 * record's photos (1 first); `isCover` marks the one the owner chose (else the first is the cover).
 * `status` is the moderation verdict (posts' and fishing reports' photos; Published otherwise).
 * Sizes in pixels and bytes (`bytes`: both stored files, what the owner's quota counts).
 */
export const photos = pgTable(
  'photos',
  {
    id: uuid().primaryKey(),
    ownerId: ownedByUser(),
    kind: text({ enum: PHOTO_KINDS }).notNull(),
    recordId: uuid().notNull(),
    /** The record's parent, read with it (a catch's entry: the entry's view lists its catches' photos in one query). */
    parentId: uuid(),
    catchId: uuid().references(() => idOf('catches'), { onDelete: 'cascade' }),
    entryId: uuid().references(() => idOf('fishing_log_entries'), { onDelete: 'cascade' }),
    postId: uuid().references(() => idOf('posts'), { onDelete: 'cascade' }),
    reportId: uuid().references(() => idOf('fishing_reports'), { onDelete: 'cascade' }),
    spotId: uuid().references(() => idOf('spots'), { onDelete: 'cascade' }),
    position: integer().notNull(),
    isCover: boolean().notNull().default(false),
    width: integer().notNull(),
    height: integer().notNull(),
    thumbnailWidth: integer().notNull(),
    thumbnailHeight: integer().notNull(),
    bytes: integer().notNull(),
    status: text({ enum: CONTENT_STATUSES }).notNull().default('Published'),
    ...timestamps(),
  },
  (t) => [
    index('photos_record_idx').on(t.recordId, t.position),
    index('photos_owner_idx').on(t.ownerId),
    index('photos_parent_idx').on(t.parentId).where(sql`parent_id IS NOT NULL`),
    uniqueIndex('photos_one_cover_idx').on(t.recordId).where(sql`is_cover`),
    index('photos_catch_idx').on(t.catchId).where(sql`catch_id IS NOT NULL`),
    index('photos_entry_idx').on(t.entryId).where(sql`entry_id IS NOT NULL`),
    index('photos_post_idx').on(t.postId).where(sql`post_id IS NOT NULL`),
    index('photos_report_idx').on(t.reportId).where(sql`report_id IS NOT NULL`),
    index('photos_spot_idx').on(t.spotId).where(sql`spot_id IS NOT NULL`),
    check(
      'photos_record_key',
      sql`CASE ${t.kind}
        WHEN 'Catch' THEN ${t.catchId} = ${t.recordId}
        WHEN 'Entry' THEN ${t.entryId} = ${t.recordId}
        WHEN 'Post' THEN ${t.postId} = ${t.recordId}
        WHEN 'FishingReport' THEN ${t.reportId} = ${t.recordId}
        WHEN 'Spot' THEN ${t.spotId} = ${t.recordId}
        ELSE ${t.recordId} = ${t.ownerId} END
        AND num_nonnulls(${t.catchId}, ${t.entryId}, ${t.postId}, ${t.reportId}, ${t.spotId}) <= 1`,
    ),
  ],
);

export type PhotoRow = typeof photos.$inferSelect;

/**
 * Stored files to delete (`photoId`: both of its files), once `dueAt` has passed. Rows come from
 * the photos' delete trigger (due at once: the files of a deleted photo go after its commit), and
 * from an upload before it writes its files (due later: if the upload never commits its photo,
 * the sweep removes what it wrote; its commit deletes the row).
 */
export const mediaDeletions = pgTable('media_deletions', {
  photoId: uuid().primaryKey(),
  dueAt: timestamp({ withTimezone: true }).notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
