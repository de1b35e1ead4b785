import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { Ajv } from 'ajv';
import { setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { loadKey, seal, unseal } from '../../core/crypto/keys.js';
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { SettingsErrors } from './settings.errors.js';
import * as repo from './settings.repository.js';
import type { CreateSettingBodyType, UpdateSettingBodyType } from './settings.schemas.js';
import type { SettingCategory, SettingConstraints, SettingType, SystemSettingRow } from './settings.tables.js';

/**
 * System settings: typed values validated per setting, a history of every change, and
 * sensitive values encrypted at rest (AES-256-GCM, key outside the database) that never leave
 * the server in clear — views show "••••" plus at most the last 4 characters; audit entries and
 * the history only say that the value changed. Every change notifies the other processes
 * (LISTEN/NOTIFY, see settings.runtime.ts) inside its transaction.
 */

export const MASK = '••••';

/** "••••" and the last 4 characters of a secret long enough that they give little away. */
export function mask(secret: string): string {
  return secret.length >= 12 ? `${MASK}${secret.slice(-4)}` : MASK;
}

const ajv = new Ajv({ allErrors: false, strict: false });

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'number' && Number.isInteger(value) ? 'an integer' : `a ${typeof value}`;
}

/** Checks a value against the setting's type and constraints (400 naming /value). */
export function checkValue(name: string, type: SettingType, constraints: SettingConstraints, value: unknown, isSensitive: boolean): void {
  if (value === null) {
    if (isSensitive) return;
    throw SettingsErrors.invalidValue(name, 'must not be null (only a sensitive setting may be unset)');
  }
  const fail = (detail: string) => SettingsErrors.invalidValue(name, detail);
  switch (type) {
    case 'String':
      if (typeof value !== 'string') throw fail(`must be a string, not ${describe(value)}`);
      if (constraints.maxLength !== undefined && value.length > constraints.maxLength) throw fail(`must be at most ${constraints.maxLength} characters long`);
      return;
    case 'Int':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw fail(`must be an integer, not ${describe(value)}`);
      if (constraints.minimum !== undefined && value < constraints.minimum) throw fail(`must be at least ${constraints.minimum}`);
      if (constraints.maximum !== undefined && value > constraints.maximum) throw fail(`must be at most ${constraints.maximum}`);
      return;
    case 'Bool':
      if (typeof value !== 'boolean') throw fail(`must be true or false, not ${describe(value)}`);
      return;
    case 'Json': {
      if (typeof value !== 'object') throw fail(`must be a JSON object or array, not ${describe(value)}`);
      if (!constraints.jsonSchema) return;
      const validate = ajv.compile(constraints.jsonSchema);
      if (!validate(value)) {
        const error = validate.errors?.[0];
        throw fail(`does not match the setting's schema: ${error ? `${error.instancePath || '/'} ${error.message ?? 'is invalid'}` : 'invalid'}`);
      }
    }
  }
}

function checkConstraints(constraints: SettingConstraints): void {
  if (!constraints.jsonSchema) return;
  try {
    ajv.compile(constraints.jsonSchema);
  } catch (error) {
    throw SettingsErrors.invalidSchema((error as Error).message.slice(0, 200));
  }
}

export function settingView(row: SystemSettingRow, key: Buffer) {
  let value: unknown = row.value;
  let isSet = row.value !== null;
  if (row.isSensitive) {
    isSet = row.sealed !== null;
    if (row.sealed === null) value = null;
    else {
      try {
        value = mask(unseal(row.sealed, key));
      } catch {
        value = MASK; // sealed with another key: still masked
      }
    }
  }
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    category: row.category,
    value,
    isSet,
    description: row.description,
    requiresRestart: row.requiresRestart,
    isSensitive: row.isSensitive,
    constraints: row.constraints,
    version: row.version,
    isActive: row.isActive,
    updatedBy: row.updatedBy,
    updatedAt: row.updatedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}
export type SettingView = ReturnType<typeof settingView>;

/** What is stored for a value: the value itself, or for a sensitive one its sealed form. */
function stored(isSensitive: boolean, value: unknown, key: Buffer): { value: unknown; sealed: string | null } {
  if (!isSensitive) return { value, sealed: null };
  return { value: null, sealed: value === null ? null : seal(String(value), key) };
}

/** What the audit log and the history see of a value. */
function disclosed(isSensitive: boolean, value: unknown): unknown {
  return isSensitive ? (value === null ? null : '[sensitive]') : value;
}

export async function listSettings(deps: ServiceDeps, key: Buffer, query: { category?: SettingCategory | undefined; status: 'Active' | 'Inactive' | 'All'; q?: string | undefined }, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.list(db, query, page);
  return { items: items.map((row) => settingView(row, key)), total };
}

async function load(deps: ServiceDeps<DbOrTx>, name: string, lock = false): Promise<SystemSettingRow> {
  const { db } = deps;
  const row = await repo.findByName(db, name, lock);
  if (!row) throw SettingsErrors.notFound(name);
  return row;
}

export async function getSetting(deps: ServiceDeps, key: Buffer, name: string): Promise<SettingView> {
  return settingView(await load(deps, name), key);
}

export async function createSetting(deps: ServiceDeps, key: Buffer, context: AuditContext, body: CreateSettingBodyType): Promise<SettingView> {
  const { db } = deps;
  const constraints = body.constraints ?? {};
  const isSensitive = body.isSensitive ?? false;
  checkConstraints(constraints);
  if (isSensitive && body.type !== 'String') throw SettingsErrors.invalidValue(body.name, 'of a sensitive setting must be of type String');
  checkValue(body.name, body.type, constraints, body.value, isSensitive);
  return db.transaction(async (tx) => {
    const row = await repo.insert(tx, {
      name: body.name,
      type: body.type,
      category: body.category,
      ...stored(isSensitive, body.value, key),
      description: body.description ?? '',
      requiresRestart: body.requiresRestart ?? false,
      isSensitive,
      constraints,
      updatedBy: context.actor.userId ?? null,
    });
    if (!row) throw SettingsErrors.duplicate(body.name);
    await repo.addHistory(tx, { settingId: row.id, version: 1, change: 'Created', value: disclosed(isSensitive, body.value), reason: body.reason, changedBy: context.actor.userId ?? null });
    await recordAudit(inTx(deps, tx), context, {
      action: 'settings.created',
      targetType: 'system_setting',
      targetId: row.name,
      reason: body.reason,
      after: { type: row.type, category: row.category, value: disclosed(isSensitive, body.value), requiresRestart: row.requiresRestart, isSensitive },
    });
    await repo.notifyChanged(tx, row.name);
    return settingView(row, key);
  });
}

export async function updateSetting(deps: ServiceDeps, key: Buffer, context: AuditContext, name: string, body: UpdateSettingBodyType): Promise<SettingView> {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const current = await load(inTx(deps, tx), name, true);
    if (!current.isActive) throw SettingsErrors.inactive(name);
    checkValue(name, current.type, current.constraints, body.value, current.isSensitive);
    const version = current.version + 1;
    const row = await repo.update(tx, current.id, {
      ...stored(current.isSensitive, body.value, key),
      ...(body.description === undefined ? {} : { description: body.description }),
      version,
      updatedBy: context.actor.userId ?? null,
    });
    await repo.addHistory(tx, { settingId: row.id, version, change: 'Updated', value: disclosed(row.isSensitive, body.value), reason: body.reason, changedBy: context.actor.userId ?? null });
    await recordAudit(inTx(deps, tx), context, {
      action: 'settings.updated',
      targetType: 'system_setting',
      targetId: name,
      reason: body.reason,
      before: { value: disclosed(current.isSensitive, current.isSensitive ? current.sealed : current.value), version: current.version },
      after: { value: disclosed(row.isSensitive, body.value), version, ...(body.description === undefined ? {} : { description: body.description }) },
    });
    await repo.notifyChanged(tx, name);
    return settingView(row, key);
  });
}

export async function setSettingActive(deps: ServiceDeps, key: Buffer, context: AuditContext, name: string, active: boolean, reason: string | undefined): Promise<SettingView> {
  const lifecycle: Lifecycle<SystemSettingRow, SettingView> = {
    lock: (tx, settingName) => repo.findByName(tx, settingName, true),
    update: async (tx, settingName, values, actorId) => {
      const row = await load(inTx(deps, tx), settingName);
      const updated = await repo.update(tx, row.id, { ...values, version: row.version + 1, updatedBy: actorId });
      await repo.addHistory(tx, {
        settingId: row.id,
        version: updated.version,
        change: active ? 'Reactivated' : 'Deactivated',
        value: disclosed(row.isSensitive, row.isSensitive ? row.sealed : row.value),
        reason: reason ?? null,
        changedBy: actorId,
      });
      await repo.notifyChanged(tx, settingName);
    },
    view: async (inner, settingName) => settingView(await load(inner, settingName), key),
    notFound: SettingsErrors.notFound,
    alreadyActive: SettingsErrors.alreadyActive,
    alreadyInactive: SettingsErrors.alreadyInactive,
    audit: { targetType: 'system_setting', deactivated: 'settings.deactivated', reactivated: 'settings.reactivated' },
  };
  return setActive(deps, context, lifecycle, name, active, reason);
}

export async function settingHistory(deps: ServiceDeps, key: Buffer, name: string, page: Page) {
  const { db } = deps;
  const setting = await load(deps, name);
  const { items, total } = await repo.history(db, setting.id, page);
  return {
    items: items.map((h) => ({
      version: h.version,
      change: h.change,
      value: setting.isSensitive ? (h.value === null ? null : MASK) : h.value,
      reason: h.reason,
      changedBy: h.changedBy,
      changedAt: h.changedAt.toISOString(),
    })),
    total,
  };
}


/** The key that seals sensitive settings (FISHLOG_SETTINGS_KEY, else settings.key in the data folder). */
export function settingsKey(config: Pick<Config, 'settingsKey' | 'dataDir'>): Buffer {
  return loadKey(config.settingsKey, config.dataDir, 'settings.key');
}

/**
 * The current values of active settings by name (sensitive ones unsealed), for a module that
 * needs a secret (SMTP password) or wants the newest value without the runtime's cache. A
 * missing or deactivated setting is absent: the caller's default applies.
 */
export async function settingValues(deps: ServiceDeps<DbOrTx>, key: Buffer, names: readonly string[]): Promise<Map<string, unknown>> {
  const { db } = deps;
  const rows = await repo.activeByNames(db, names);
  return new Map(rows.map((row) => [row.name, row.isSensitive ? (row.sealed === null ? null : unseal(row.sealed, key)) : row.value]));
}
