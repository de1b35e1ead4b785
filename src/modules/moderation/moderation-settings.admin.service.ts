import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { dashboard, loadSettings, providerList, updateSettings, type ModerationSettings, type SettingsPatch, type UpdateOptions } from './moderation-settings.service.js';

/** Moderation settings for admins: read with the month's figures, change (audit-logged). The API key never leaves. */

/** What the audit log keeps of the settings: everything but the key, which shows as set or not. */
function auditable(settings: ModerationSettings) {
  return {
    provider: settings.provider,
    model: settings.model,
    baseUrl: settings.baseUrl,
    keySet: settings.apiKey !== null,
    thresholds: settings.thresholds,
    autoRejectThreshold: settings.autoRejectThreshold,
    monthlyBudgetUsd: settings.monthlyBudgetUsd,
    costPerCallUsd: settings.costPerCallUsd,
    timeoutMs: settings.timeoutMs,
  };
}

async function view(db: Parameters<typeof dashboard>[0], settings: ModerationSettings) {
  return {
    provider: settings.provider,
    providers: providerList(),
    model: settings.model,
    baseUrl: settings.baseUrl,
    apiKeySet: settings.apiKey !== null,
    thresholds: settings.thresholds,
    autoRejectThreshold: settings.autoRejectThreshold,
    monthlyBudgetUsd: settings.monthlyBudgetUsd,
    costPerCallUsd: settings.costPerCallUsd,
    timeoutMs: settings.timeoutMs,
    updatedAt: settings.updatedAt?.toISOString() ?? null,
    updatedBy: settings.updatedBy,
    dashboard: await dashboard(db, settings),
  };
}

export async function getSettings(deps: ServiceDeps, context: AuditContext) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const settings = await loadSettings(inTx(deps, tx));
    await recordAudit(inTx(deps, tx), context, { action: 'moderation.settings_viewed', targetType: 'moderation_settings' });
    return view(inTx(deps, tx), settings);
  });
}

export async function changeSettings(deps: ServiceDeps, context: AuditContext, patch: SettingsPatch, options: UpdateOptions) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const { before, after, keyCleared } = await updateSettings(inTx(deps, tx), patch, context.actor.userId ?? null, options);
    await recordAudit(inTx(deps, tx), context, {
      action: 'moderation.settings_updated',
      targetType: 'moderation_settings',
      before: auditable(before),
      // keyCleared: the provider or base URL changed without a key, so the stored one was dropped.
      after: { ...auditable(after), ...(patch.apiKey !== undefined ? { keyChanged: true } : {}), ...(keyCleared ? { keyCleared: true } : {}) },
    });
    return view(inTx(deps, tx), after);
  });
}
