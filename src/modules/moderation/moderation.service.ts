import type { ServiceDeps } from '../../core/service-deps.js';
import type { FastifyBaseLogger } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import type { Db, DbOrTx } from '../../core/db/client.js';
import * as repo from './moderation.repository.js';
import type { ModerationRuleRow } from './moderation.tables.js';
import type { CallOutcome, ContentStatus, ModeratedType } from './moderation.types.js';
import { localProvider } from './providers/local.js';
import { providerDefinition } from './providers/index.js';
import { linkedImages, type ModerationInput, type ModerationProvider, type ModerationResult } from './providers/types.js';
import { matchRules } from './rules.js';
import { EngineExhausted } from './rule-regex.js';
import { loadSettings, type ModerationSettings } from './moderation-settings.service.js';

/**
 * Moderation before publishing. For each new or edited post or comment:
 * 1. the admins' rules for that kind of content: a `reject` rule rejects it (the provider is
 *    not asked); a `flag` rule holds it (regular expressions run on RE2, linear in the text);
 * 2. the configured provider rates it (the local provider when a remote one would go over the
 *    monthly budget); scores are compared with the per-category thresholds and the auto-reject
 *    threshold. A provider error or timeout holds the content for review: nothing is published
 *    unchecked, and the request does not fail;
 * 3. every provider call is recorded with its cost, latency and outcome.
 * Callers then store the content with the verdict's status and call `applyVerdict` in their
 * transaction (queue and rule statistics).
 */

export type { ContentStatus, ContentType, ModeratedType } from './moderation.types.js';

export interface ModerationRequest {
  contentType: ModeratedType;
  contentId: string;
  text: string;
  imageUrls: string[];
  /** A moderator rejected the previous version: an edit goes back to review rather than straight out. */
  previouslyRejectedByModerator?: boolean;
}

export interface Verdict {
  status: ContentStatus;
  /** For Rejected: the reason shown to the author. */
  reason: string | null;
  /** For PendingReview: what the queue shows the moderators. */
  hold: repo.HoldValues | null;
  matchedRuleIds: string[];
}

type Log = Pick<FastifyBaseLogger, 'warn' | 'info'>;

class ProviderTimeout extends Error {}

const MAX_ERROR_LENGTH = 300;

function describeError(error: unknown): string {
  const err = error as { message?: string; cause?: { code?: string; message?: string } };
  const cause = err.cause?.code ?? err.cause?.message;
  return `${err.message ?? String(error)}${cause ? ` (${cause})` : ''}`.slice(0, MAX_ERROR_LENGTH);
}

/** Calls the provider and gives up after `timeoutMs` even if it ignores the abort signal. */
async function callWithDeadline(provider: ModerationProvider, input: ModerationInput, timeoutMs: number): Promise<ModerationResult> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const timeout = new ProviderTimeout(`no answer within ${timeoutMs} ms`);
      controller.abort(timeout);
      reject(timeout);
    }, timeoutMs);
  });
  try {
    return await Promise.race([provider.moderate(input, { signal: controller.signal }), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The provider to ask: the configured one, or the local one when a remote call would exceed the budget. */
async function chooseProvider(deps: ServiceDeps<DbOrTx>, settings: ModerationSettings, log: Log | undefined): Promise<ModerationProvider> {
  const { db } = deps;
  const definition = providerDefinition(settings.provider) ?? localProvider;
  if (definition.remote && settings.monthlyBudgetUsd !== null) {
    const spent = await repo.monthCost(db, repo.monthOf(new Date()));
    if (spent + settings.costPerCallUsd > settings.monthlyBudgetUsd) {
      log?.warn({ provider: definition.name, spentUsd: spent, budgetUsd: settings.monthlyBudgetUsd }, 'moderation budget reached: using the local provider');
      return localProvider.create(settings);
    }
  }
  return definition.create(settings);
}

/** Categories flagged after applying the admins' thresholds to the provider's scores. */
export function flaggedCategories(result: Pick<ModerationResult, 'flagged' | 'categories' | 'scores'>, thresholds: Record<string, number>): string[] {
  const out = new Set<string>();
  for (const [category, score] of Object.entries(result.scores)) {
    const threshold = thresholds[category];
    if (threshold !== undefined ? score >= threshold : result.categories.includes(category)) out.add(category);
  }
  for (const category of result.categories) if (thresholds[category] === undefined && !(category in result.scores)) out.add(category);
  if (out.size === 0 && result.flagged && result.categories.length === 0) out.add('unspecified');
  return [...out];
}

function ruleRef(rule: ModerationRuleRow) {
  return { id: rule.id, name: rule.name, action: rule.action };
}

type RuleRow = Awaited<ReturnType<typeof repo.activeRules>>[number];
type Settings = Awaited<ReturnType<typeof loadSettings>>;

/**
 * Step 1: the community rules against the text and image URLs. When RE2 could not run the
 * regular expressions even on a fresh heap (rule-regex.ts), the content is held for review.
 */
function applyRules(rules: RuleRow[], request: ModerationRequest, log?: Log) {
  let matched: ModerationRuleRow[] = [];
  let unrun = false;
  try {
    matched = matchRules(rules, [request.text, ...linkedImages(request.imageUrls)].join("\n"));
  } catch (error) {
    if (!(error instanceof EngineExhausted)) throw error;
    unrun = true;
    log?.warn({ err: error }, 'moderation rules could not run (RE2 out of memory); content held for review');
  }
  return { matched, unrun, matchedRuleIds: matched.map((r) => r.id) };
}

interface ProviderOutcome {
  provider: { name: string; model: string };
  result: ModerationResult | undefined;
  failure: { outcome: Extract<CallOutcome, 'error' | 'timeout'>; message: string } | undefined;
  categories: string[];
}

/** Step 2: the provider's call within the deadline; a failure is an outcome, not an exception. */
async function callProvider(deps: ServiceDeps, settings: Settings, request: ModerationRequest, log?: Log): Promise<ProviderOutcome & { latencyMs: number }> {
  const provider = await chooseProvider(deps, settings, log);
  const input: ModerationInput = { text: request.text, imageUrls: request.imageUrls, contentType: request.contentType };
  const started = performance.now();
  let result: ModerationResult | undefined;
  let failure: ProviderOutcome['failure'];
  try {
    result = await callWithDeadline(provider, input, settings.timeoutMs);
  } catch (error) {
    failure = { outcome: error instanceof ProviderTimeout ? 'timeout' : 'error', message: describeError(error) };
    log?.warn({ provider: provider.name, outcome: failure.outcome, error: failure.message }, 'moderation provider failed; content held for review');
  }
  const categories = result ? flaggedCategories(result, settings.thresholds) : [];
  return { provider, result, failure, categories, latencyMs: result?.latencyMs ?? Math.round(performance.now() - started) };
}

/** Prometheus counters of provider calls and their cost, per app (keyed by the app's database handle). */
const providerMetrics = new WeakMap<Db, { calls: Counter; cost: Counter }>();

/** Counts this app's provider calls in its metrics registry (`GET /metrics`). */
export function observeModeration(deps: ServiceDeps, registry: Registry): void {
  const { db } = deps;
  providerMetrics.set(db, {
    calls: new Counter({
      name: 'fishlog_moderation_provider_calls_total',
      help: 'Moderation provider calls by provider and outcome (clean, flagged, error, timeout)',
      labelNames: ['provider', 'outcome'],
      registers: [registry],
    }),
    cost: new Counter({
      name: 'fishlog_moderation_provider_cost_usd_total',
      help: 'What the moderation provider calls cost, in US dollars, by provider',
      labelNames: ['provider'],
      registers: [registry],
    }),
  });
}

/** Step 3: cost accounting, one row per provider call (and the metrics). */
async function recordCost(deps: ServiceDeps, request: ModerationRequest, call: ProviderOutcome & { latencyMs: number }): Promise<void> {
  const { db } = deps;
  const { provider, result, failure, categories } = call;
  const providerName = result?.provider ?? provider.name;
  const outcome = failure ? failure.outcome : categories.length > 0 ? 'flagged' : 'clean';
  const costUsd = result?.costUsd ?? 0;
  const metrics = providerMetrics.get(db);
  metrics?.calls.inc({ provider: providerName, outcome });
  if (costUsd > 0) metrics?.cost.inc({ provider: providerName }, costUsd);
  await repo.recordCall(db, {
    provider: providerName,
    model: result?.model ?? provider.model,
    contentType: request.contentType,
    contentId: request.contentId,
    outcome,
    costUsd,
    latencyMs: call.latencyMs,
    categories,
    error: failure?.message ?? null,
  });
}

/** Step 4: the verdict from the rules' and the provider's findings (the queue entry it implies, if held). */
function decide(request: ModerationRequest, settings: Settings, rules: ReturnType<typeof applyRules>, call: ProviderOutcome): Verdict {
  const { matched, unrun, matchedRuleIds } = rules;
  const { provider, result, failure, categories } = call;
  const flagRules = matched.filter((r) => r.action === 'flag');
  const scores = { ...(result?.scores ?? {}) };
  for (const rule of flagRules) scores[rule.category] = 1;
  const hold = (heldBecause: repo.HoldValues['heldBecause']): Verdict => ({
    status: 'PendingReview',
    reason: null,
    hold: {
      heldBecause,
      provider: result?.provider ?? provider.name,
      model: result?.model ?? provider.model,
      categories: [...new Set([...categories, ...flagRules.map((r) => r.category), ...(failure ? [`provider_${failure.outcome}`] : [])])],
      scores,
      matchedRules: flagRules.map(ruleRef),
    },
    matchedRuleIds,
  });

  if (failure) return hold(failure.outcome === 'timeout' ? 'provider_timeout' : 'provider_error');
  if (settings.autoRejectThreshold !== null && result) {
    const worst = Object.entries(result.scores).sort((a, b) => b[1] - a[1])[0];
    if (worst && worst[1] >= settings.autoRejectThreshold) {
      return {
        status: 'Rejected',
        reason: `Rejected automatically: rated "${worst[0]}" with a score of ${worst[1].toFixed(2)} (the limit is ${settings.autoRejectThreshold}).`,
        hold: null,
        matchedRuleIds,
      };
    }
  }
  if (categories.length > 0) return hold('flagged');
  if (flagRules.length > 0) return hold('rule');
  if (unrun) return hold('rule_timeout');
  if (request.previouslyRejectedByModerator) return hold('edited_after_rejection');
  return { status: 'Published', reason: null, hold: null, matchedRuleIds };
}

/**
 * For content outside the posts' review queue (fishing reports, reviewed in their own module):
 * counts the rules the verdict matched, in the caller's transaction.
 */
export async function recordVerdictRules(deps: ServiceDeps<DbOrTx>, verdict: Verdict): Promise<void> {
  const { db: tx } = deps;
  await repo.countRuleMatches(tx, verdict.matchedRuleIds);
}

/**
 * The verdict on new or edited content: rules first (a rejecting rule decides at once), then the
 * provider (its cost recorded), then the decision. The queue entry is written by `applyVerdict`
 * in the caller's transaction.
 */
export async function moderateContent(deps: ServiceDeps, request: ModerationRequest, log?: Log): Promise<Verdict> {
  const { db } = deps;
  const [settings, activeRules] = await Promise.all([loadSettings(deps), repo.activeRules(db, request.contentType)]);
  const rules = applyRules(activeRules, request, log);
  const rejecting = rules.matched.find((r) => r.action === 'reject');
  if (rejecting) {
    return {
      status: 'Rejected',
      reason: rejecting.reason ?? `Your ${request.contentType} breaks the community rule "${rejecting.name}".`,
      hold: null,
      matchedRuleIds: rules.matchedRuleIds,
    };
  }
  const call = await callProvider(deps, settings, request, log);
  await recordCost(deps, request, call);
  return decide(request, settings, rules, call);
}

/** Stores what the verdict means for the queue and the rules' statistics, in the caller's transaction. */
export async function applyVerdict(deps: ServiceDeps<DbOrTx>, verdict: Verdict, target: repo.QueueTarget): Promise<void> {
  const { db: tx } = deps;
  if (verdict.status === 'PendingReview' && verdict.hold) await repo.hold(tx, target, verdict.hold);
  else await repo.dropPending(tx, target);
  await repo.countRuleMatches(tx, verdict.matchedRuleIds);
}
