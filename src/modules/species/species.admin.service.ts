import { uuidv7 } from '../../core/db/ids.js';
import { setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import { applyChange, type MergePatch } from '../../core/http/merge-patch.js';
import type { Page } from '../../core/http/pagination.js';
import { SpeciesErrors } from './species.errors.js';
import * as repo from './species.repository.js';
import { SpeciesBody, type CreateSpeciesInput, type SpeciesChanges } from './species.schemas.js';
import { taxonId } from './species.seeds.js';
import { requireSpecies, speciesView, type SpeciesView } from './species.service.js';
import type { TaxonRow } from './species.tables.js';
import { speciesUsage, type SpeciesCatchUsage } from './species.usage.js';
import { inTx, type ServiceDeps } from '../../core/service-deps.js';

/**
 * Administration of the species catalogue (permission Species.Manage): create, update,
 * deactivate, reactivate — each in one transaction with its audit entry — and usage statistics.
 */

/** The catches of each species (summed over the modules that count them) and the lures made for it. */
async function usageOf({ db, registries }: ServiceDeps<DbOrTx>, ids: string[]) {
  const usage = registries.of(speciesUsage);
  const [catchCounts, lures] = await Promise.all([usage.each(db, 'catches', ids), usage.total(db, 'lures', ids)]);
  const catchesOf = (id: string): SpeciesCatchUsage =>
    catchCounts.reduce<SpeciesCatchUsage>(
      (sum, counts) => {
        const c = counts.get(id);
        if (!c) return sum;
        const last = c.lastCaughtAt && (!sum.lastCaughtAt || c.lastCaughtAt > sum.lastCaughtAt) ? c.lastCaughtAt : sum.lastCaughtAt;
        return { catches: sum.catches + c.catches, anglers: sum.anglers + c.anglers, lastCaughtAt: last };
      },
      { catches: 0, anglers: 0, lastCaughtAt: null },
    );
  return (id: string) => {
    const c = catchesOf(id);
    return { catches: c.catches, anglers: c.anglers, lastCaughtAt: c.lastCaughtAt ? c.lastCaughtAt.toISOString() : null, lures: lures.get(id) ?? 0 };
  };
}

function adminView(row: repo.SpeciesWithTaxa, usage: ReturnType<Awaited<ReturnType<typeof usageOf>>>) {
  return { ...speciesView(row), deactivatedAt: row.species.deactivatedAt ? row.species.deactivatedAt.toISOString() : null, usage };
}

export async function adminListSpecies(deps: ServiceDeps, filter: repo.SpeciesFilter, page: Page) {
  const { items, total } = await repo.listSpecies(deps.db, { ...filter, status: filter.status ?? 'all' }, page);
  const usage = await usageOf(deps, items.map((i) => i.species.id));
  return { items: items.map((i) => adminView(i, usage(i.species.id))), total };
}

export async function adminGetSpecies(deps: ServiceDeps<DbOrTx>, id: string) {
  const row = await requireSpecies(deps, id);
  const usage = await usageOf(deps, [id]);
  return adminView(row, usage(id));
}

/** The audit snapshot of a species: its view without timestamps. */
function snapshot(view: SpeciesView) {
  return {
    commonName: view.commonName,
    otherNames: view.otherNames,
    scientificName: view.scientificName,
    waterTypes: view.waterTypes,
    family: view.taxonomy.family?.name ?? null,
    genus: view.taxonomy.genus?.name ?? null,
    isActive: view.isActive,
  };
}

interface TaxonomyInput {
  family?: string | undefined;
  familyCommonName?: string | undefined;
  order?: string | undefined;
  orderCommonName?: string | undefined;
}

/** The genus of a scientific name; creates the genus (and its family and order) when new. */
async function resolveGenus(deps: ServiceDeps<DbOrTx>, scientificName: string, input: TaxonomyInput): Promise<TaxonRow> {
  const { db: tx } = deps;
  const genusName = scientificName.split(' ')[0]!;
  const genus = await repo.findTaxon(tx, 'genus', genusName);
  if (genus) {
    if (input.family && genus.parentId) {
      const known = await repo.findTaxonById(tx, genus.parentId);
      if (known && known.name.toLowerCase() !== input.family.toLowerCase()) throw SpeciesErrors.taxonomyConflict(`The genus ${genus.name}`, `the family ${known.name}`, input.family);
    }
    return genus;
  }
  if (!input.family) throw SpeciesErrors.familyRequired(genusName);
  let family = await repo.findTaxon(tx, 'family', input.family);
  if (family) {
    if (input.order && family.parentId) {
      const known = await repo.findTaxonById(tx, family.parentId);
      if (known && known.name.toLowerCase() !== input.order.toLowerCase()) throw SpeciesErrors.taxonomyConflict(`The family ${family.name}`, `the order ${known.name}`, input.order);
    }
  } else {
    if (!input.order) throw SpeciesErrors.orderRequired(input.family);
    const order =
      (await repo.findTaxon(tx, 'order', input.order)) ??
      (await repo.insertTaxon(tx, { id: taxonId('order', input.order), rank: 'order', name: input.order, commonName: input.orderCommonName ?? null, parentId: null }));
    family = await repo.insertTaxon(tx, { id: taxonId('family', input.family), rank: 'family', name: input.family, commonName: input.familyCommonName ?? null, parentId: order.id });
  }
  return repo.insertTaxon(tx, { id: taxonId('genus', genusName), rank: 'genus', name: genusName, commonName: null, parentId: family.id });
}

export async function createSpecies(deps: ServiceDeps, context: AuditContext, input: CreateSpeciesInput) {
  return deps.db.transaction(async (tx) => {
    const existing = await repo.findSpeciesByScientificName(tx, input.scientificName);
    if (existing) throw SpeciesErrors.duplicate(existing.scientificName, existing.id);
    const genus = await resolveGenus(inTx(deps, tx), input.scientificName, input);
    const actor = context.actor.userId ?? null;
    const row = await repo.insertSpecies(tx, {
      id: uuidv7(),
      commonName: input.commonName,
      scientificName: input.scientificName,
      otherNames: input.otherNames ?? [],
      waterTypes: input.waterTypes,
      genusId: genus.id,
      createdBy: actor,
      updatedBy: actor,
    });
    const view = adminView((await repo.findSpecies(tx, row.id))!, { catches: 0, anglers: 0, lastCaughtAt: null, lures: 0 });
    await recordAudit(inTx(deps, tx), context, { action: 'species.created', targetType: 'fish_species', targetId: row.id, after: snapshot(view) });
    return view;
  });
}

export async function updateSpecies(deps: ServiceDeps, context: AuditContext, id: string, patch: MergePatch) {
  return deps.db.transaction(async (tx) => {
    const current = await repo.lockSpecies(tx, id);
    if (!current) throw SpeciesErrors.notFound(id);
    const before = speciesView((await repo.findSpecies(tx, id))!);
    const { commonName, scientificName, otherNames, waterTypes } = before;
    const input = applyChange<SpeciesChanges>({ patch }, SpeciesBody, () => ({ commonName, scientificName, otherNames, waterTypes }));
    const sent = (key: keyof SpeciesChanges) => key in patch;
    const changes: Parameters<typeof repo.updateSpecies>[2] = { updatedBy: context.actor.userId ?? null };
    if (sent('commonName')) changes.commonName = input.commonName;
    if (sent('otherNames')) changes.otherNames = input.otherNames ?? [];
    if (sent('waterTypes')) changes.waterTypes = input.waterTypes;
    if (input.scientificName !== current.scientificName) {
      const clash = await repo.findSpeciesByScientificName(tx, input.scientificName);
      if (clash && clash.id !== id) throw SpeciesErrors.duplicate(clash.scientificName, clash.id);
      changes.scientificName = input.scientificName;
      changes.genusId = (await resolveGenus(inTx(deps, tx), input.scientificName, input)).id;
    } else if (input.family || input.order) {
      // Checks that the given family/order agree with the species' genus.
      await resolveGenus(inTx(deps, tx), current.scientificName, input);
    }
    await repo.updateSpecies(tx, id, changes);
    const row = (await repo.findSpecies(tx, id))!;
    await recordAudit(inTx(deps, tx), context, { action: 'species.updated', targetType: 'fish_species', targetId: id, reason: input.reason ?? null, before: snapshot(before), after: snapshot(speciesView(row)) });
    const usage = await usageOf(inTx(deps, tx), [id]);
    return adminView(row, usage(id));
  });
}

/** Deactivation and reactivation: the shared lifecycle (404, 409, audit entry, admin view with usage). */
const speciesLifecycle: Lifecycle<{ isActive: boolean }, Awaited<ReturnType<typeof adminGetSpecies>>> = {
  lock: repo.lockSpecies,
  update: async (tx, id, values, actor) => void (await repo.updateSpecies(tx, id, { ...values, updatedBy: actor })),
  view: adminGetSpecies,
  notFound: SpeciesErrors.notFound,
  alreadyActive: SpeciesErrors.alreadyActive,
  alreadyInactive: SpeciesErrors.alreadyInactive,
  audit: { targetType: 'fish_species', deactivated: 'species.deactivated', reactivated: 'species.reactivated' },
};

export function setSpeciesActive(deps: ServiceDeps, context: AuditContext, id: string, active: boolean, reason: string | undefined) {
  return setActive(deps, context, speciesLifecycle, id, active, reason);
}
