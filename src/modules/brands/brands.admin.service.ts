import { uuidv7 } from '../../core/db/ids.js';
import { setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { applyChange, type MergePatch } from '../../core/http/merge-patch.js';
import type { Page } from '../../core/http/pagination.js';
import { countryName } from './brands.countries.js';
import { BrandErrors } from './brands.errors.js';
import * as repo from './brands.repository.js';
import { BrandBody, type BrandChanges, type CreateBrandInput } from './brands.schemas.js';
import { GearKindEnum } from './brands.kinds.js';
import { brandView, publicUsage, requireBrand, usageOfBrands, type BrandUsage } from './brands.service.js';
import type { BrandRow } from './brands.tables.js';
import { brandRenamed } from './brands.usage.js';

/** Administration of brands (permission Brands.Manage), each change with its audit entry. */

function adminView(row: BrandRow, usage: BrandUsage) {
  return { ...brandView(row), deactivatedAt: row.deactivatedAt ? row.deactivatedAt.toISOString() : null, usage: { ...publicUsage(usage), inactiveCatalogItems: usage.inactiveCatalogItems } };
}

function snapshot(row: BrandRow) {
  return { name: row.name, country: row.country, website: row.website, description: row.description, gearKinds: row.gearKinds, isActive: row.isActive };
}

function checkCountry(code: string | undefined): void {
  if (code !== undefined && !countryName(code)) throw BrandErrors.unknownCountry(code);
}

async function viewWithUsage(deps: ServiceDeps<DbOrTx>, row: BrandRow) {
  return adminView(row, (await usageOfBrands(deps, [row.id])).get(row.id)!);
}

export async function adminListBrands(deps: ServiceDeps, filter: repo.BrandFilter, page: Page) {
  const { items, total } = await repo.listBrands(deps.db, { ...filter, status: filter.status ?? 'all' }, page);
  const usage = await usageOfBrands(deps, items.map((i) => i.id));
  return { items: items.map((i) => adminView(i, usage.get(i.id)!)), total };
}

export async function adminGetBrand(deps: ServiceDeps<DbOrTx>, id: string) {
  return viewWithUsage(deps, await requireBrand(deps, id));
}

export async function createBrand(deps: ServiceDeps, context: AuditContext, input: CreateBrandInput) {
  checkCountry(input.country);
  return deps.db.transaction(async (tx) => {
    const clash = await repo.findBrandByName(tx, input.name);
    if (clash) throw BrandErrors.duplicate(clash.name, clash.id);
    const actor = context.actor.userId ?? null;
    const row = await repo.insertBrand(tx, {
      id: uuidv7(),
      name: input.name,
      country: input.country,
      website: input.website ?? null,
      description: input.description ?? null,
      gearKinds: [...new Set((input.gearKinds ?? []).map((k) => GearKindEnum.fromApi(k)))],
      createdBy: actor,
      updatedBy: actor,
    });
    await recordAudit(inTx(deps, tx), context, { action: 'brands.created', targetType: 'brand', targetId: row.id, after: snapshot(row) });
    return viewWithUsage(inTx(deps, tx), row);
  });
}

export async function updateBrand(deps: ServiceDeps, context: AuditContext, id: string, patch: MergePatch) {
  return deps.db.transaction(async (tx) => {
    const current = await repo.lockBrand(tx, id);
    if (!current) throw BrandErrors.notFound(id);
    const { name, country, website, description } = current;
    const input = applyChange<BrandChanges>({ patch }, BrandBody, () => ({ name, country, website, description, gearKinds: current.gearKinds.map((k) => GearKindEnum.toApi(k)) }));
    checkCountry(input.country);
    if (input.name.toLowerCase() !== current.name.toLowerCase()) {
      const clash = await repo.findBrandByName(tx, input.name);
      if (clash) throw BrandErrors.duplicate(clash.name, clash.id);
    }
    const merged = { ...input, website: input.website ?? null, description: input.description ?? null, gearKinds: [...new Set((input.gearKinds ?? []).map((k) => GearKindEnum.fromApi(k)))] };
    const changes = Object.fromEntries(Object.keys(patch).filter((k) => k !== 'reason').map((k) => [k, merged[k as keyof typeof merged]])) as Partial<BrandRow>;
    const row = await repo.updateBrand(tx, id, { ...changes, updatedBy: context.actor.userId ?? null });
    if (row.name !== current.name) await brandRenamed(deps, tx, id);
    await recordAudit(inTx(deps, tx), context, { action: 'brands.updated', targetType: 'brand', targetId: id, reason: input.reason ?? null, before: snapshot(current), after: snapshot(row) });
    return viewWithUsage(inTx(deps, tx), row);
  });
}

/** Deactivation and reactivation: the shared lifecycle (404, 409, audit entry, admin view with usage). */
const brandLifecycle: Lifecycle<BrandRow, ReturnType<typeof adminView>> = {
  lock: repo.lockBrand,
  update: async (tx, id, values, actor) => void (await repo.updateBrand(tx, id, { ...values, updatedBy: actor })),
  view: adminGetBrand,
  notFound: BrandErrors.notFound,
  alreadyActive: BrandErrors.alreadyActive,
  alreadyInactive: BrandErrors.alreadyInactive,
  audit: { targetType: 'brand', deactivated: 'brands.deactivated', reactivated: 'brands.reactivated' },
};

export function setBrandActive(deps: ServiceDeps, context: AuditContext, id: string, active: boolean, reason: string | undefined) {
  return setActive(deps, context, brandLifecycle, id, active, reason);
}
