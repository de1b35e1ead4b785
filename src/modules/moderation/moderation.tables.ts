import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, doublePrecision, index, integer, jsonb, numeric, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { idOf } from '../../core/db/references.js';
import { deactivation, timestamps } from '../../core/db/columns.js';
import { CALL_OUTCOMES, HOLD_REASONS, MODERATED_TYPES, QUEUE_STATUSES, RULE_ACTIONS, RULE_KINDS } from './moderation.types.js';

/**
 * Moderation: its settings (one row), the admins' rules, the review queue, and every provider
 * call with its cost (plus a monthly roll-up for the budget and the dashboard).
 */

/** The one settings row (id = 1). `apiKey` is write-only: no response ever carries it. */
export const moderationSettings = pgTable(
  'moderation_settings',
  {
    id: smallint().primaryKey(),
    provider: text().notNull(),
    model: text(),
    baseUrl: text(),
    apiKey: text(),
    /** Score (0..1) from which a category counts as flagged, per category. */
    thresholds: jsonb().$type<Record<string, number>>().notNull(),
    /** Score (0..1) from which content is rejected outright; null: never automatically. */
    autoRejectThreshold: doublePrecision(),
    monthlyBudgetUsd: numeric({ precision: 14, scale: 6, mode: 'number' }),
    costPerCallUsd: numeric({ precision: 12, scale: 6, mode: 'number' }).notNull(),
    timeoutMs: integer().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
  },
  () => [check('moderation_settings_single_row', sql`id = 1`)],
);

export const moderationRules = pgTable(
  'moderation_rules',
  {
    id: uuid().primaryKey(),
    name: text().notNull(),
    kind: text({ enum: RULE_KINDS }).notNull(),
    pattern: text().notNull(),
    appliesToPosts: boolean().notNull(),
    appliesToComments: boolean().notNull(),
    action: text({ enum: RULE_ACTIONS }).notNull(),
    category: text().notNull(),
    /** Shown to the author when the rule rejects their content. */
    reason: text(),
    matchCount: integer().notNull().default(0),
    lastMatchedAt: timestamp({ withTimezone: true }),
    timeoutCount: integer().notNull().default(0),
    ...deactivation(),
    deactivatedBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
    createdBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [index('moderation_rules_time_idx').on(t.createdAt, t.id), index('moderation_rules_active_idx').on(t.isActive)],
);

export interface MatchedRuleRef {
  id: string;
  name: string;
  action: 'flag' | 'reject';
}

/** One row per post or comment that was held for review; the decision is kept on it. */
export const moderationQueue = pgTable(
  'moderation_queue',
  {
    id: uuid().primaryKey(),
    postId: uuid()
      .unique()
      .references(() => idOf('posts'), { onDelete: 'cascade' }),
    commentId: uuid()
      .unique()
      .references(() => idOf('post_comments'), { onDelete: 'cascade' }),
    status: text({ enum: QUEUE_STATUSES }).notNull(),
    heldBecause: text({ enum: HOLD_REASONS }).notNull(),
    provider: text(),
    model: text(),
    categories: text().array().notNull().default(sql`'{}'::text[]`),
    scores: jsonb().$type<Record<string, number>>().notNull(),
    matchedRules: jsonb().$type<MatchedRuleRef[]>().notNull(),
    flaggedAt: timestamp({ withTimezone: true }).notNull(),
    decidedAt: timestamp({ withTimezone: true }),
    decidedBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
    decisionReason: text(),
  },
  (t) => [
    check('moderation_queue_one_target', sql`num_nonnulls(post_id, comment_id) = 1`),
    index('moderation_queue_pending_idx').on(t.flaggedAt, t.id).where(sql`status = 'Pending'`),
  ],
);

/** Every provider call, for cost tracking (kept when the content is deleted). */
export const moderationCalls = pgTable(
  'moderation_calls',
  {
    id: uuid().primaryKey(),
    occurredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    provider: text().notNull(),
    model: text().notNull(),
    contentType: text({ enum: MODERATED_TYPES }).notNull(),
    contentId: uuid().notNull(),
    outcome: text({ enum: CALL_OUTCOMES }).notNull(),
    costUsd: numeric({ precision: 12, scale: 6, mode: 'number' }).notNull(),
    latencyMs: integer().notNull(),
    categories: text().array().notNull().default(sql`'{}'::text[]`),
    error: text(),
  },
  (t) => [index('moderation_calls_time_idx').on(t.occurredAt), index('moderation_calls_content_idx').on(t.contentId)],
);

/** Calls per month (UTC), provider and model: what the budget and the dashboard read. */
export const moderationUsage = pgTable(
  'moderation_usage',
  {
    month: date({ mode: 'string' }).notNull(),
    provider: text().notNull(),
    model: text().notNull(),
    calls: integer().notNull().default(0),
    flagged: integer().notNull().default(0),
    failed: integer().notNull().default(0),
    costUsd: numeric({ precision: 14, scale: 6, mode: 'number' }).notNull().default(0),
    latencyMsTotal: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.provider, t.model] })],
);

export type ModerationSettingsRow = typeof moderationSettings.$inferSelect;
export type ModerationRuleRow = typeof moderationRules.$inferSelect;
export type ModerationQueueRow = typeof moderationQueue.$inferSelect;
