import type { ServiceDeps } from '../../core/service-deps.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import type { WaterType } from './species.tables.js';
import { SpeciesErrors } from './species.errors.js';
import * as repo from './species.repository.js';
import type { TaxonRow } from './species.tables.js';
import { TaxonRankEnum } from './species.schemas.js';

/** Reading fish species: everybody signed in; deactivated species are readable by id but not listed. */

export function taxonView(row: TaxonRow | null) {
  return row ? { id: row.id, rank: TaxonRankEnum.toApi(row.rank), name: row.name, commonName: row.commonName } : null;
}

export function speciesView({ species, genus, family, order }: repo.SpeciesWithTaxa) {
  return {
    id: species.id,
    commonName: species.commonName,
    otherNames: species.otherNames,
    scientificName: species.scientificName,
    waterTypes: species.waterTypes as WaterType[],
    taxonomy: { order: taxonView(order), family: taxonView(family), genus: taxonView(genus) },
    isActive: species.isActive,
    createdAt: species.createdAt.toISOString(),
    updatedAt: species.updatedAt.toISOString(),
  };
}

export type SpeciesView = ReturnType<typeof speciesView>;

export async function listSpecies(deps: ServiceDeps<DbOrTx>, filter: repo.SpeciesFilter, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.listSpecies(db, { ...filter, status: 'active' }, page);
  return { items: items.map(speciesView), total };
}

export async function requireSpecies(deps: ServiceDeps<DbOrTx>, id: string): Promise<repo.SpeciesWithTaxa> {
  const { db } = deps;
  const row = await repo.findSpecies(db, id);
  if (!row) throw SpeciesErrors.notFound(id);
  return row;
}

export async function getSpecies(deps: ServiceDeps<DbOrTx>, id: string) {
  const { db } = deps;
  const row = await requireSpecies(deps, id);
  const related = row.genus && row.family ? await repo.relatedSpecies(db, id, row.genus.id, row.family.id) : [];
  const ref = (r: repo.RelatedRow) => ({ id: r.id, commonName: r.commonName, scientificName: r.scientificName });
  return {
    ...speciesView(row),
    relatedSpecies: {
      sameGenus: related.filter((r) => r.sameGenus).map(ref),
      sameFamily: related.filter((r) => !r.sameGenus).map(ref),
    },
  };
}

export async function listFamilies(deps: ServiceDeps<DbOrTx>, filter: { order?: string | undefined }, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.listFamilies(db, filter, page);
  return {
    total,
    items: items.map((r) => ({ id: r.family.id, name: r.family.name, commonName: r.family.commonName, order: taxonView(r.order), speciesCount: r.speciesCount })),
  };
}

/** Species by id with name and status, for modules that show or reference species (one query). */
export async function speciesRefs(db: DbOrTx, ids: string[]): Promise<Map<string, repo.SpeciesRefRow>> {
  const rows = await repo.speciesRefs(db, [...new Set(ids)]);
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Checks species ids another module is about to reference: each must exist and be active, unless
 * it is already referenced (`kept`). Throws a 400 naming the field (`${pointer}/${index}`).
 */
export async function assertReferenceableSpecies(deps: ServiceDeps<DbOrTx>, ids: string[], pointer: string, kept: ReadonlySet<string> = new Set()): Promise<void> {
  const found = await speciesRefs(deps.db, ids);
  ids.forEach((id, index) => {
    const row = found.get(id);
    if (!row) throw SpeciesErrors.badReference(`${pointer}/${index}`, id, false);
    if (!row.isActive && !kept.has(id)) throw SpeciesErrors.badReference(`${pointer}/${index}`, id, true);
  });
}
