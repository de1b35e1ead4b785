import type { ServiceDeps } from '../../core/service-deps.js';
import type { DbOrTx } from '../../core/db/client.js';
import { ModerationErrors } from './moderation.errors.js';
import * as repo from './moderation.repository.js';
import type { ModerationSettingsRow } from './moderation.tables.js';
import { PROVIDERS, providerDefinition } from './providers/index.js';

/**
 * Moderation settings: which provider rates content (local by default), its model, base URL and
 * API key, the per-category thresholds, the auto-reject threshold, the monthly budget and the
 * cost per call. One row; until an admin saves it, the defaults apply. The API key is
 * write-only: views carry `apiKeySet` instead.
 */

export interface ModerationSettings {
  provider: string;
  model: string | null;
  baseUrl: string | null;
  apiKey: string | null;
  thresholds: Record<string, number>;
  autoRejectThreshold: number | null;
  monthlyBudgetUsd: number | null;
  costPerCallUsd: number;
  timeoutMs: number;
  updatedAt: Date | null;
  updatedBy: string | null;
}

export const DEFAULT_SETTINGS: ModerationSettings = {
  provider: 'local',
  model: null,
  baseUrl: null,
  apiKey: null,
  thresholds: {},
  autoRejectThreshold: null,
  monthlyBudgetUsd: null,
  costPerCallUsd: 0,
  timeoutMs: 5000,
  updatedAt: null,
  updatedBy: null,
};

function fromRow(row: ModerationSettingsRow): ModerationSettings {
  return {
    provider: row.provider,
    model: row.model,
    baseUrl: row.baseUrl,
    apiKey: row.apiKey,
    thresholds: row.thresholds,
    autoRejectThreshold: row.autoRejectThreshold,
    monthlyBudgetUsd: row.monthlyBudgetUsd,
    costPerCallUsd: row.costPerCallUsd,
    timeoutMs: row.timeoutMs,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
}

export async function loadSettings(deps: ServiceDeps<DbOrTx>): Promise<ModerationSettings> {
  const { db } = deps;
  const row = await repo.findSettings(db);
  return row ? fromRow(row) : { ...DEFAULT_SETTINGS };
}

export interface SettingsPatch {
  provider?: string | undefined;
  model?: string | null | undefined;
  baseUrl?: string | null | undefined;
  apiKey?: string | null | undefined;
  thresholds?: Record<string, number> | undefined;
  autoRejectThreshold?: number | null | undefined;
  monthlyBudgetUsd?: number | null | undefined;
  costPerCallUsd?: number | undefined;
  timeoutMs?: number | undefined;
}

/**
 * A base URL the key may be sent to: https (http only when the operator allowed it, for a
 * loopback test endpoint), without credentials, query or fragment.
 */
function checkBaseUrl(value: string, allowHttp: boolean): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw ModerationErrors.badBaseUrl();
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) throw ModerationErrors.badBaseUrl();
  if (url.protocol === 'http:' && !allowHttp) throw ModerationErrors.insecureBaseUrl();
}

export interface UpdateOptions {
  /** FISHLOG_MODERATION_ALLOW_HTTP: accept http base URLs (local test endpoints). */
  allowHttp: boolean;
}

/**
 * Applies a partial update (omitted fields keep their value; `null` clears a nullable one) in
 * the caller's transaction. Changing the provider resets the model to the new provider's
 * default unless one is sent. The API key is bound to the endpoint it was given for: changing
 * the provider or the base URL without sending a key drops the stored one (`keyCleared`), or
 * else an admin could point the base URL at their own host and receive the key with the next
 * call. Returns the settings before and after.
 */
export async function updateSettings(
  deps: ServiceDeps<DbOrTx>,
  patch: SettingsPatch,
  updatedBy: string | null,
  options: UpdateOptions,
): Promise<{ before: ModerationSettings; after: ModerationSettings; keyCleared: boolean }> {
  const { db: tx } = deps;
  const locked = await repo.lockSettings(tx);
  const before = locked ? fromRow(locked) : { ...DEFAULT_SETTINGS };
  const provider = patch.provider ?? before.provider;
  const definition = providerDefinition(provider);
  if (!definition) throw ModerationErrors.unknownProvider(provider);
  const providerChanged = provider !== before.provider;
  if (patch.baseUrl) checkBaseUrl(patch.baseUrl, options.allowHttp);
  const baseUrl = patch.baseUrl !== undefined ? patch.baseUrl : before.baseUrl;
  // Compared as the URL calls go to, so that spelling out the default is no change.
  const baseUrlChanged = (baseUrl ?? definition.defaultBaseUrl ?? null) !== (before.baseUrl ?? definition.defaultBaseUrl ?? null);
  const endpointChanged = providerChanged || baseUrlChanged;
  const keyCleared = endpointChanged && patch.apiKey === undefined && before.apiKey !== null;
  const next: ModerationSettings = {
    provider,
    model: patch.model !== undefined ? patch.model : providerChanged ? null : before.model,
    baseUrl,
    apiKey: patch.apiKey !== undefined ? patch.apiKey : endpointChanged ? null : before.apiKey,
    thresholds: patch.thresholds ?? before.thresholds,
    autoRejectThreshold: patch.autoRejectThreshold !== undefined ? patch.autoRejectThreshold : before.autoRejectThreshold,
    monthlyBudgetUsd: patch.monthlyBudgetUsd !== undefined ? patch.monthlyBudgetUsd : before.monthlyBudgetUsd,
    costPerCallUsd: patch.costPerCallUsd ?? before.costPerCallUsd,
    timeoutMs: patch.timeoutMs ?? before.timeoutMs,
    updatedAt: null,
    updatedBy,
  };
  for (const field of definition.requires) {
    if (next[field] || (field === 'baseUrl' && definition.defaultBaseUrl)) continue;
    if (field === 'apiKey' && keyCleared) throw ModerationErrors.apiKeyNeededAgain(provider, providerChanged ? 'provider' : 'baseUrl');
    throw ModerationErrors.providerNeeds(provider, field);
  }
  const row = await repo.upsertSettings(tx, {
    provider: next.provider,
    model: next.model,
    baseUrl: next.baseUrl,
    apiKey: next.apiKey,
    thresholds: next.thresholds,
    autoRejectThreshold: next.autoRejectThreshold,
    monthlyBudgetUsd: next.monthlyBudgetUsd,
    costPerCallUsd: next.costPerCallUsd,
    timeoutMs: next.timeoutMs,
    updatedBy,
  });
  return { before, after: fromRow(row), keyCleared };
}

export interface UsageRow {
  provider: string;
  model: string;
  calls: number;
  flagged: number;
  failed: number;
  costUsd: number;
  averageLatencyMs: number;
}

/** The dashboard figures of a month (UTC): calls, cost, flag rate, budget, queue length. */
export async function dashboard(deps: ServiceDeps<DbOrTx>, settings: ModerationSettings, now = new Date()) {
  const { db } = deps;
  const month = repo.monthOf(now);
  const [rows, pendingReview] = await Promise.all([repo.monthUsage(db, month), repo.countPending(db)]);
  const byProvider: UsageRow[] = rows.map((r) => ({
    provider: r.provider,
    model: r.model,
    calls: r.calls,
    flagged: r.flagged,
    failed: r.failed,
    costUsd: round(r.costUsd, 6),
    averageLatencyMs: r.calls === 0 ? 0 : Math.round(r.latencyMsTotal / r.calls),
  }));
  const calls = sum(byProvider.map((r) => r.calls));
  const flagged = sum(byProvider.map((r) => r.flagged));
  const costUsd = round(sum(rows.map((r) => r.costUsd)), 6);
  const latency = sum(rows.map((r) => r.latencyMsTotal));
  const budget = settings.monthlyBudgetUsd;
  return {
    month: month.slice(0, 7),
    calls,
    flagged,
    failed: sum(byProvider.map((r) => r.failed)),
    flagRate: calls === 0 ? 0 : round(flagged / calls, 4),
    costUsd,
    averageLatencyMs: calls === 0 ? 0 : Math.round(latency / calls),
    budgetUsd: budget,
    budgetRemainingUsd: budget === null ? null : round(Math.max(0, budget - costUsd), 6),
    budgetExceeded: budget !== null && costUsd >= budget,
    pendingReview,
    byProvider,
  };
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function providerList() {
  return [...PROVIDERS.values()].map((p) => ({ name: p.name, description: p.description, remote: p.remote, defaultModel: p.defaultModel }));
}
