import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { uuidv7 } from '../../core/db/ids.js';
import type { DbOrTx } from '../../core/db/client.js';
import {
  moderationCalls,
  moderationQueue,
  moderationRules,
  moderationSettings,
  moderationUsage,
  type MatchedRuleRef,
  type ModerationQueueRow,
  type ModerationRuleRow,
  type ModerationSettingsRow,
} from './moderation.tables.js';
import type { CallOutcome, ContentType, HoldReason, ModeratedType, QueueStatus, RuleAction, RuleKind } from './moderation.types.js';

/** SQL of the moderation module (settings, rules, queue, call log); no rules of its own. */

// ---- settings ----

export async function findSettings(db: DbOrTx): Promise<ModerationSettingsRow | undefined> {
  const [row] = await db.select().from(moderationSettings).where(eq(moderationSettings.id, 1));
  return row;
}

export type SettingsValues = Omit<ModerationSettingsRow, 'id' | 'updatedAt'>;

export async function upsertSettings(db: DbOrTx, values: SettingsValues): Promise<ModerationSettingsRow> {
  const [row] = await db
    .insert(moderationSettings)
    .values({ id: 1, ...values, updatedAt: new Date() })
    .onConflictDoUpdate({ target: moderationSettings.id, set: { ...values, updatedAt: new Date() } })
    .returning();
  return row!;
}

/** Locks the settings row (when there is one) for a read-modify-write. */
export async function lockSettings(db: DbOrTx): Promise<ModerationSettingsRow | undefined> {
  const [row] = await db.select().from(moderationSettings).where(eq(moderationSettings.id, 1)).for('update');
  return row;
}

// ---- rules ----

export async function activeRules(db: DbOrTx, contentType: ModeratedType): Promise<ModerationRuleRow[]> {
  const applies = contentType === 'comment' ? moderationRules.appliesToComments : moderationRules.appliesToPosts;
  return db
    .select()
    .from(moderationRules)
    .where(and(eq(moderationRules.isActive, true), eq(applies, true)))
    .orderBy(asc(moderationRules.createdAt), asc(moderationRules.id));
}

export async function countRuleMatches(db: DbOrTx, ruleIds: string[]): Promise<void> {
  if (ruleIds.length === 0) return;
  await db
    .update(moderationRules)
    .set({ matchCount: sql`${moderationRules.matchCount} + 1`, lastMatchedAt: new Date() })
    .where(inArray(moderationRules.id, ruleIds));
}

/** Deactivates the rule on the system's behalf, unless it is inactive already (then undefined). */
export async function deactivateRuleBySystem(db: DbOrTx, ruleId: string, reason: string): Promise<ModerationRuleRow | undefined> {
  const now = new Date();
  const [row] = await db
    .update(moderationRules)
    .set({ isActive: false, deactivatedAt: now, deactivatedBy: null, deactivationReason: reason, updatedAt: now })
    .where(and(eq(moderationRules.id, ruleId), eq(moderationRules.isActive, true)))
    .returning();
  return row;
}

export interface RuleFilter {
  isActive?: boolean | undefined;
  kind?: RuleKind | undefined;
  action?: RuleAction | undefined;
}

export async function listRules(db: DbOrTx, filter: RuleFilter, page: { limit: number; offset: number }): Promise<{ items: ModerationRuleRow[]; total: number }> {
  const where = and(
    filter.isActive === undefined ? undefined : eq(moderationRules.isActive, filter.isActive),
    filter.kind === undefined ? undefined : eq(moderationRules.kind, filter.kind),
    filter.action === undefined ? undefined : eq(moderationRules.action, filter.action),
  );
  const [items, [count]] = await Promise.all([
    db.select().from(moderationRules).where(where).orderBy(asc(moderationRules.createdAt), asc(moderationRules.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(moderationRules).where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}

export async function findRule(db: DbOrTx, id: string, options: { forUpdate?: boolean } = {}): Promise<ModerationRuleRow | undefined> {
  const query = db.select().from(moderationRules).where(eq(moderationRules.id, id));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

export type NewRule = Omit<ModerationRuleRow, 'id' | 'matchCount' | 'lastMatchedAt' | 'timeoutCount' | 'createdAt' | 'updatedAt' | 'deactivatedAt' | 'deactivatedBy' | 'deactivationReason' | 'isActive'>;

export async function insertRule(db: DbOrTx, rule: NewRule): Promise<ModerationRuleRow> {
  const [row] = await db.insert(moderationRules).values({ id: uuidv7(), ...rule }).returning();
  return row!;
}

export async function updateRule(db: DbOrTx, id: string, patch: Partial<ModerationRuleRow>): Promise<ModerationRuleRow> {
  const [row] = await db
    .update(moderationRules)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(moderationRules.id, id))
    .returning();
  return row!;
}

// ---- review queue ----

export type QueueTarget = { postId: string; commentId?: undefined } | { commentId: string; postId?: undefined };

function targetCondition(target: QueueTarget) {
  return target.postId !== undefined ? eq(moderationQueue.postId, target.postId) : eq(moderationQueue.commentId, target.commentId);
}

export interface HoldValues {
  heldBecause: HoldReason;
  provider: string | null;
  model: string | null;
  categories: string[];
  scores: Record<string, number>;
  matchedRules: MatchedRuleRef[];
}

/** Puts the content in the queue (again): pending, flagged now. */
export async function hold(db: DbOrTx, target: QueueTarget, values: HoldValues): Promise<void> {
  const fresh = { status: 'Pending' as const, ...values, flaggedAt: new Date(), decidedAt: null, decidedBy: null, decisionReason: null };
  await db
    .insert(moderationQueue)
    .values({ id: uuidv7(), postId: target.postId ?? null, commentId: target.commentId ?? null, ...fresh })
    .onConflictDoUpdate({ target: target.postId !== undefined ? moderationQueue.postId : moderationQueue.commentId, set: fresh });
}

/** Takes the content out of the queue when it no longer waits (edited into something clean). */
export async function dropPending(db: DbOrTx, target: QueueTarget): Promise<void> {
  await db.delete(moderationQueue).where(and(targetCondition(target), eq(moderationQueue.status, 'Pending')));
}

export async function recordDecision(
  db: DbOrTx,
  target: QueueTarget,
  decision: { status: Exclude<QueueStatus, 'Pending'>; decidedBy: string | null; reason: string | null },
): Promise<ModerationQueueRow | undefined> {
  const [row] = await db
    .update(moderationQueue)
    .set({ status: decision.status, decidedBy: decision.decidedBy, decidedAt: new Date(), decisionReason: decision.reason })
    .where(targetCondition(target))
    .returning();
  return row;
}

export async function findQueueItem(db: DbOrTx, target: QueueTarget): Promise<ModerationQueueRow | undefined> {
  const [row] = await db.select().from(moderationQueue).where(targetCondition(target));
  return row;
}

/** Pending items, oldest first (index-backed). */
export async function listPending(
  db: DbOrTx,
  filter: { contentType?: ContentType | undefined },
  page: { limit: number; offset: number },
): Promise<{ items: ModerationQueueRow[]; total: number }> {
  const where = and(
    eq(moderationQueue.status, 'Pending'),
    filter.contentType === 'post' ? sql`${moderationQueue.postId} IS NOT NULL` : filter.contentType === 'comment' ? sql`${moderationQueue.commentId} IS NOT NULL` : undefined,
  );
  const [items, [count]] = await Promise.all([
    db.select().from(moderationQueue).where(where).orderBy(asc(moderationQueue.flaggedAt), asc(moderationQueue.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(moderationQueue).where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}

export async function countPending(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(moderationQueue).where(eq(moderationQueue.status, 'Pending'));
  return row?.n ?? 0;
}

// ---- provider calls and their cost ----

export interface CallRecord {
  provider: string;
  model: string;
  contentType: ModeratedType;
  contentId: string;
  outcome: CallOutcome;
  costUsd: number;
  latencyMs: number;
  categories: string[];
  error: string | null;
}

/** The month (UTC) a time belongs to, as its first day: 2026-06-01. */
export function monthOf(time: Date): string {
  return `${time.getUTCFullYear()}-${String(time.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** Appends the call and adds it to its month's roll-up, in one transaction. */
export async function recordCall(db: DbOrTx, call: CallRecord, at = new Date()): Promise<void> {
  const flagged = call.outcome === 'flagged' ? 1 : 0;
  const failed = call.outcome === 'error' || call.outcome === 'timeout' ? 1 : 0;
  await db.transaction(async (tx) => {
    await tx.insert(moderationCalls).values({ id: uuidv7(), occurredAt: at, ...call });
    await tx
      .insert(moderationUsage)
      .values({ month: monthOf(at), provider: call.provider, model: call.model, calls: 1, flagged, failed, costUsd: call.costUsd, latencyMsTotal: call.latencyMs })
      .onConflictDoUpdate({
        target: [moderationUsage.month, moderationUsage.provider, moderationUsage.model],
        set: {
          calls: sql`${moderationUsage.calls} + 1`,
          flagged: sql`${moderationUsage.flagged} + ${flagged}`,
          failed: sql`${moderationUsage.failed} + ${failed}`,
          costUsd: sql`${moderationUsage.costUsd} + ${call.costUsd}`,
          latencyMsTotal: sql`${moderationUsage.latencyMsTotal} + ${call.latencyMs}`,
        },
      });
  });
}

export async function monthUsage(db: DbOrTx, month: string) {
  return db.select().from(moderationUsage).where(eq(moderationUsage.month, month)).orderBy(asc(moderationUsage.provider), asc(moderationUsage.model));
}

export async function monthCost(db: DbOrTx, month: string): Promise<number> {
  const [row] = await db
    .select({ cost: sql<string>`coalesce(sum(${moderationUsage.costUsd}), 0)` })
    .from(moderationUsage)
    .where(eq(moderationUsage.month, month));
  return Number(row?.cost ?? 0);
}
