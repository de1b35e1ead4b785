import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * Append-only audit log: triggers (migration 0002) refuse UPDATE, DELETE and TRUNCATE, and
 * each row carries the hash of the previous one so tampering behind the triggers' back shows.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    occurredAt: timestamp({ withTimezone: true }).notNull(),
    actorType: text({ enum: ['user', 'system'] }).notNull(),
    actorUserId: uuid(),
    action: text().notNull(),
    targetType: text(),
    targetId: text(),
    reason: text(),
    before: jsonb(),
    after: jsonb(),
    ipAddress: text(),
    userAgent: text(),
    requestId: text(),
    /** `failure` for a recorded refused or failed attempt; part of the chained content only when not `success`. */
    outcome: text({ enum: AUDIT_OUTCOMES }).notNull().default('success'),
    prevHash: text().notNull(),
    hash: text().notNull(),
  },
  (t) => [index('audit_log_action_idx').on(t.action, t.id), index('audit_log_actor_idx').on(t.actorUserId, t.id), index('audit_log_occurred_idx').on(t.occurredAt),
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.id),
    // Full-text search on the reason (GET /api/admin/audit-logs?q=).
    index('audit_log_reason_fts_idx').using('gin', sql`to_tsvector('simple', coalesce(${t.reason}, ''))`),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
