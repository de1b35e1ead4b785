import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * Append-only audit log: triggers (migration 0002) refuse UPDATE, DELETE and TRUNCATE, and
 * each row carries the hash of the previous row of its chain so tampering behind the triggers'
 * back shows. There are AUDIT_CHAINS chains, so that writers in parallel transactions do not wait
 * for each other (`recordAudit`).
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
    /** The chain the row links into (0 … AUDIT_CHAINS − 1); part of the hashed content only when not 0, so rows from before the column still verify. */
    chain: smallint().notNull().default(0),
    prevHash: text().notNull(),
    hash: text().notNull(),
  },
  (t) => [index('audit_log_action_idx').on(t.action, t.id), index('audit_log_actor_idx').on(t.actorUserId, t.id), index('audit_log_occurred_idx').on(t.occurredAt),
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.id),
    // The head of a chain (recordAudit): the newest id of the chain.
    index('audit_log_chain_idx').on(t.chain, t.id),
    // Full-text search on the reason (GET /api/admin/audit-logs?q=).
    index('audit_log_reason_fts_idx').using('gin', sql`to_tsvector('simple', coalesce(${t.reason}, ''))`),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
