import { setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import { usageKey, type UsageCounter } from '../../core/admin/usage.js';
import { registryKey, type Registries } from '../../core/registries.js';
import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import { channelCache } from '../../core/db/listen.js';
import { applyChange, type MergePatch } from '../../core/http/merge-patch.js';
import type { Page } from '../../core/http/pagination.js';
import type { FieldError } from '../../core/http/problem.js';
import { LookupErrors } from './lookups.errors.js';
import * as repo from './lookups.repository.js';
import { LookupValueBody, type CreateLookupValueBodyType, type LookupValueChanges } from './lookups.schemas.js';
import type { LookupValueRow } from './lookups.tables.js';

/**
 * Lookup values: administrators keep the vocabularies (`Lookups.Manage`, every change audit-logged
 * with its reason); the modules check the fields that use them (`assertLookupValues`) against the
 * active values, which every process caches while it hears their changes (NOTIFY from a trigger).
 */

// ---------- the cache the modules' checks read ----------

export const LOOKUPS_CHANNEL = 'fishlog_lookups';

/** Every value of every category (a few hundred rows at most), by category. */
async function loadAll(db: DbOrTx): Promise<Map<string, LookupValueRow[]>> {
  const byCategory = new Map<string, LookupValueRow[]>();
  for (const row of await repo.allValues(db)) byCategory.set(row.category, [...(byCategory.get(row.category) ?? []), row]);
  return byCategory;
}

const valuesKey = registryKey('lookups.values', () => channelCache(LOOKUPS_CHANNEL, loadAll));

/** The app's cached values; its `listen` keeps them while the server listens for their changes (close() on shutdown). */
export const lookupValuesOf = (deps: { registries: Registries }) => deps.registries.of(valuesKey);

/** Drops the app's cached values (after a change; also on NOTIFY from other processes). */
export const forgetLookups = (deps: { registries: Registries }) => lookupValuesOf(deps).forget();

const valuesByCategory = (deps: ServiceDeps<DbOrTx>) => lookupValuesOf(deps).get(deps.db);

/** A field of a request that must hold an active value of a category (null/undefined: nothing to check). */
export interface LookupCheck {
  category: string;
  code: string | null | undefined;
  /** JSON pointer of the field, e.g. `/conditions/clarity`. */
  pointer: string;
  in?: FieldError['in'];
  /** A filter over old records: a deactivated value is fine too. */
  allowInactive?: boolean;
}

/**
 * Refuses (400 `lookups.unknown_value`, one error per field, each listing the values allowed) any
 * field whose code is not an active value of its category. A deactivated value stays on the records
 * that have it; only new writes are refused.
 */
export async function assertLookupValues(deps: ServiceDeps<DbOrTx>, checks: readonly LookupCheck[]): Promise<void> {
  const given = checks.filter((c): c is LookupCheck & { code: string } => typeof c.code === 'string');
  if (given.length === 0) return;
  const byCategory = await valuesByCategory(deps);
  const errors: FieldError[] = [];
  for (const check of given) {
    const known = byCategory.get(check.category) ?? [];
    const value = known.find((v) => v.code === check.code);
    if (value?.isActive || (value && check.allowInactive)) continue;
    const allowed = known.filter((v) => v.isActive).map((v) => v.code);
    const why = value ? `${check.code} is no longer in use (deactivated)` : `${check.code} is not a ${check.category} value`;
    errors.push({ pointer: check.pointer, in: check.in ?? 'body', detail: `${why}; use one of ${allowed.join(', ')} (GET /api/lookups/${check.category})` });
  }
  if (errors.length) throw LookupErrors.unknownValues(errors);
}

// ---------- usage statistics, counted by the modules that use a category ----------

/** How many records use each of `codes` (missing codes: none). */
export type LookupUsageCounter = UsageCounter;
/** Slots: the categories; a category's counters count records per code. */
const lookupUsageKey = usageKey<Record<string, number>>('lookups.usage');

/** A module that validates a field against a category tells how to count its records (in its module plugin, <module>.module.ts; registering again is harmless). */
export function registerLookupUsage(deps: { registries: Registries }, category: string, counter: LookupUsageCounter): void {
  deps.registries.of(lookupUsageKey).register(category, counter);
}

/** Records per value, one count per module using each category on the page (no query per value). */
async function usageOf({ db, registries }: ServiceDeps<DbOrTx>, rows: readonly LookupValueRow[]): Promise<Map<string, number | null>> {
  const lookupUsage = registries.of(lookupUsageKey);
  const out = new Map<string, number | null>();
  const byCategory = new Map<string, LookupValueRow[]>();
  for (const row of rows) byCategory.set(row.category, [...(byCategory.get(row.category) ?? []), row]);
  for (const [category, values] of byCategory) {
    if (!lookupUsage.has(category)) {
      for (const v of values) out.set(v.id, null);
      continue;
    }
    const counts = await lookupUsage.total(db, category, values.map((v) => v.code));
    for (const v of values) out.set(v.id, counts.get(v.code) ?? 0);
  }
  return out;
}

// ---------- views ----------

function adminView(row: LookupValueRow, records: number | null, validated: boolean) {
  return {
    id: row.id,
    category: row.category,
    code: row.code,
    label: row.label,
    description: row.description,
    sortOrder: row.sortOrder,
    isActive: row.isActive,
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    deactivationReason: row.deactivationReason,
    usage: { records, validated },
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function adminViews(deps: ServiceDeps<DbOrTx>, rows: readonly LookupValueRow[]) {
  const usage = await usageOf(deps, rows);
  const counted = deps.registries.of(lookupUsageKey);
  return rows.map((row) => adminView(row, usage.get(row.id) ?? null, counted.has(row.category)));
}

const publicView = (row: LookupValueRow) => ({ code: row.code, label: row.label, description: row.description, sortOrder: row.sortOrder });

// ---------- reads ----------

/** A category's active values in their order (what a client fills a choice with); 404 for a category without values. */
export async function activeValues(deps: ServiceDeps, category: string) {
  const found = (await valuesByCategory(deps)).get(category);
  if (!found?.length) throw LookupErrors.unknownCategory(category);
  return found.filter((v) => v.isActive).map(publicView);
}

export async function listCategories({ db, registries }: ServiceDeps) {
  const rows = await repo.categories(db);
  const counted = registries.of(lookupUsageKey);
  return rows.map((r) => ({ category: r.category, values: r.values, activeValues: r.active, validated: counted.has(r.category) }));
}

export async function listValues(deps: ServiceDeps, filters: repo.ValueFilters, page: Page) {
  const { items, total } = await repo.list(deps.db, filters, page);
  return { items: await adminViews(deps, items), total };
}

export async function getValue(deps: ServiceDeps, id: string) {
  const row = await repo.find(deps.db, id);
  if (!row) throw LookupErrors.notFound(id);
  return (await adminViews(deps, [row]))[0]!;
}

// ---------- changes ----------

const content = (row: LookupValueRow) => ({ category: row.category, code: row.code, label: row.label, description: row.description, sortOrder: row.sortOrder });

export async function createValue(deps: ServiceDeps, context: AuditContext, body: CreateLookupValueBodyType) {
  const actor = context.actor.userId ?? null;
  const view = await deps.db.transaction(async (tx) => {
    const row = await repo.insert(tx, {
      category: body.category,
      code: body.code,
      label: body.label,
      description: body.description ?? null,
      sortOrder: body.sortOrder ?? 0,
      createdBy: actor,
      updatedBy: actor,
    });
    if (!row) throw LookupErrors.duplicateCode(body.category, body.code);
    await recordAudit(inTx(deps, tx), context, { action: 'lookups.created', targetType: 'lookup_value', targetId: row.id, reason: body.reason, after: content(row) });
    return (await adminViews(inTx(deps, tx), [row]))[0]!;
  });
  forgetLookups(deps);
  return view;
}

/** Changes the label, description or order; the category and code never change (400 saying so). */
export async function updateValue(deps: ServiceDeps, context: AuditContext, id: string, patch: MergePatch) {
  const actor = context.actor.userId ?? null;
  const view = await deps.db.transaction(async (tx) => {
    const current = await repo.find(tx, id, true);
    if (!current) throw LookupErrors.notFound(id);
    const { label, description, sortOrder, category, code } = current;
    const body = applyChange<LookupValueChanges>({ patch }, LookupValueBody, () => ({ label, description, sortOrder, category, code, reason: '' }));
    const immutable = (['category', 'code'] as const).filter((k) => body[k] !== current[k]);
    if (immutable.length) throw LookupErrors.immutable(immutable);
    const row = await repo.update(tx, id, { label: body.label, description: body.description ?? null, sortOrder: body.sortOrder, updatedBy: actor });
    await recordAudit(inTx(deps, tx), context, { action: 'lookups.updated', targetType: 'lookup_value', targetId: id, reason: body.reason, before: content(current), after: content(row) });
    return (await adminViews(inTx(deps, tx), [row]))[0]!;
  });
  forgetLookups(deps);
  return view;
}

const lifecycle: Lifecycle<LookupValueRow, ReturnType<typeof adminView>> = {
  lock: (tx, id) => repo.find(tx, id, true),
  update: async (tx, id, values, actorId) => void (await repo.update(tx, id, { ...values, updatedBy: actorId })),
  view: async (deps, id) => (await adminViews(deps, [(await repo.find(deps.db, id))!]))[0]!,
  notFound: LookupErrors.notFound,
  alreadyActive: LookupErrors.alreadyActive,
  alreadyInactive: LookupErrors.alreadyInactive,
  audit: { targetType: 'lookup_value', deactivated: 'lookups.deactivated', reactivated: 'lookups.reactivated' },
};

export async function setValueActive(deps: ServiceDeps, context: AuditContext, id: string, active: boolean, reason: string | undefined) {
  const view = await setActive(deps, context, lifecycle, id, active, reason);
  forgetLookups(deps);
  return view;
}
