import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { uuidv7 } from '../../core/db/ids.js';
import { setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { assertReferenceableBrand } from '../brands/brands.service.js';
import { assertReferenceableSpecies } from '../species/species.service.js';
import { COMMON_FIELDS, KIND_FIELDS } from './gear.admin.schemas.js';
import { GearErrors } from './gear.errors.js';
import type { GearKind } from './gear.kinds.js';
import { checkItem, type Columns } from './gear.rules.js';
import * as repo from './gear.repository.js';
import type { CatalogFilter } from './gear.schemas.js';
import { itemViews, requireItem, type ItemView } from './gear.service.js';
import type { GearItemRow } from './gear.tables.js';

/**
 * Administration of the gear catalog (permission Brands.Manage): create, update, deactivate and
 * reactivate items of each kind, each change in one transaction with its audit entry.
 */

type Body = Record<string, unknown> & { targetSpeciesIds?: string[] | null; reason?: string };

async function withUsage(deps: ServiceDeps<DbOrTx>, rows: repo.ItemRow[]) {
  const { db } = deps;
  const [views, usage] = await Promise.all([itemViews(deps, rows), repo.itemUsage(db, rows.map((r) => r.item.id))]);
  const byId = new Map(usage.map((u) => [u.item_id, u]));
  return views.map((view, index) => {
    const u = byId.get(view.id);
    const deactivatedAt = rows[index]!.item.deactivatedAt;
    return { ...view, deactivatedAt: deactivatedAt ? deactivatedAt.toISOString() : null, usage: { setups: u?.setups ?? 0, anglers: u?.anglers ?? 0, catches: u?.catches ?? 0 } };
  });
}

export async function adminListItems(deps: ServiceDeps, kind: GearKind, filter: CatalogFilter, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.listItems(db, kind, { ...filter, status: filter.status ?? 'all' }, page);
  return { items: await withUsage(deps, items), total };
}

export async function adminGetItem(deps: ServiceDeps<DbOrTx>, kind: GearKind, id: string) {
  const [view] = await withUsage(deps, [await requireItem(deps, kind, id)]);
  return view!;
}

/** Body fields of the kind, copied to columns (undefined = not given). */
function columnsOf(kind: GearKind, body: Body): Columns {
  const out: Record<string, unknown> = {};
  for (const field of [...COMMON_FIELDS, ...KIND_FIELDS[kind]]) if (body[field] !== undefined) out[field] = body[field];
  return out as Columns;
}

function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/(\d)'(?=\d)/g, '$1ft')
    .replace(/'/g, '')
    .replace(/"/g, 'in')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 140);
}

async function freeSlug(deps: ServiceDeps<DbOrTx>, base: string): Promise<string> {
  const { db: tx } = deps;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await repo.slugTaken(tx, candidate))) return candidate;
  }
}

function snapshot(view: ItemView) {
  const { createdAt: _c, updatedAt: _u, ...rest } = view;
  return rest;
}

export async function createItem(deps: ServiceDeps, context: AuditContext, kind: GearKind, body: Body) {
  const { db } = deps;
  const columns = columnsOf(kind, body);
  checkItem(kind, columns);
  return db.transaction(async (tx) => {
    const brand = await assertReferenceableBrand(inTx(deps, tx), columns.brandId!, '/brandId');
    const clash = await repo.findItemByName(tx, kind, brand.id, columns.name!);
    if (clash) throw GearErrors.duplicate(kind, clash.name, clash.id);
    if (body.targetSpeciesIds) await assertReferenceableSpecies(inTx(deps, tx), body.targetSpeciesIds, '/targetSpeciesIds');
    let slug: string;
    if (columns.slug) {
      if (await repo.slugTaken(tx, columns.slug)) throw GearErrors.slugTaken(columns.slug);
      slug = columns.slug;
    } else {
      slug = await freeSlug(inTx(deps, tx), slugify(`${brand.name} ${columns.name}`) || kind);
    }
    const actor = context.actor.userId ?? null;
    const row = await repo.insertItem(tx, {
      ...columns,
      id: uuidv7(),
      kind,
      slug,
      brandId: brand.id,
      name: columns.name!,
      searchText: repo.itemSearchText(brand.name, { name: columns.name!, productLine: columns.productLine ?? null, modelNumber: columns.modelNumber ?? null }),
      createdBy: actor,
      updatedBy: actor,
    });
    if (kind === 'lure') await repo.setLureTargets(tx, row.id, body.targetSpeciesIds ?? []);
    const [view] = await withUsage(inTx(deps, tx), [(await repo.findItem(tx, row.id))!]);
    await recordAudit(inTx(deps, tx), context, { action: 'gear.item_created', targetType: `gear_${kind}`, targetId: row.id, after: snapshot(view!) });
    return view!;
  });
}

export async function updateItem(deps: ServiceDeps, context: AuditContext, kind: GearKind, id: string, body: Body) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const locked = await repo.lockItem(tx, id);
    if (!locked) throw GearErrors.notFound(kind, id);
    if (locked.kind !== kind) throw GearErrors.wrongKind(kind, id, locked.kind);
    const before = (await itemViews(inTx(deps, tx), [(await repo.findItem(tx, id))!]))[0]!;
    // A merge patch: the fields sent change; null clears (a cleared list is empty).
    const changes = columnsOf(kind, body.colours === null ? { ...body, colours: [] } : body);
    const next = { ...(locked as Columns), ...changes };
    checkItem(kind, next);
    const brand = await assertReferenceableBrand(inTx(deps, tx), next.brandId!, '/brandId', locked.brandId);
    if (changes.name !== undefined || changes.brandId !== undefined) {
      const clash = await repo.findItemByName(tx, kind, brand.id, next.name!);
      if (clash && clash.id !== id) throw GearErrors.duplicate(kind, clash.name, clash.id);
    }
    if (changes.slug !== undefined && changes.slug !== locked.slug && (await repo.slugTaken(tx, changes.slug))) throw GearErrors.slugTaken(changes.slug);
    const targets = body.targetSpeciesIds === undefined ? undefined : (body.targetSpeciesIds ?? []);
    if (targets) {
      const kept = new Set<string>('targetSpecies' in before ? before.targetSpecies.map((t) => t.id) : []);
      await assertReferenceableSpecies(inTx(deps, tx), targets, '/targetSpeciesIds', kept);
    }
    await repo.updateItem(tx, id, {
      ...changes,
      searchText: repo.itemSearchText(brand.name, { name: next.name!, productLine: next.productLine ?? null, modelNumber: next.modelNumber ?? null }),
      updatedBy: context.actor.userId ?? null,
    });
    if (kind === 'lure' && targets) await repo.setLureTargets(tx, id, targets);
    const [view] = await withUsage(inTx(deps, tx), [(await repo.findItem(tx, id))!]);
    await recordAudit(inTx(deps, tx), context, { action: 'gear.item_updated', targetType: `gear_${kind}`, targetId: id, reason: body.reason ?? null, before: snapshot(before), after: snapshot(view!) });
    return view!;
  });
}

/** Deactivation and reactivation of the items of one kind: the shared lifecycle (404, 409, audit entry, admin view with usage). */
export function gearLifecycle(kind: GearKind): Lifecycle<GearItemRow, Awaited<ReturnType<typeof adminGetItem>>> {
  return {
    lock: repo.lockItem,
    check: (row) => {
      if (row.kind !== kind) throw GearErrors.wrongKind(kind, row.id, row.kind);
    },
    update: async (tx, id, values, actor) => void (await repo.updateItem(tx, id, { ...values, updatedBy: actor })),
    view: (deps, id) => adminGetItem(deps, kind, id),
    notFound: (id) => GearErrors.notFound(kind, id),
    alreadyActive: () => GearErrors.alreadyActive(kind),
    alreadyInactive: (id) => GearErrors.alreadyInactive(kind, id),
    audit: { targetType: `gear_${kind}`, deactivated: 'gear.item_deactivated', reactivated: 'gear.item_reactivated' },
  };
}

export function setItemActive(deps: ServiceDeps, context: AuditContext, kind: GearKind, id: string, active: boolean, reason: string | undefined) {
  return setActive(deps, context, gearLifecycle(kind), id, active, reason);
}
