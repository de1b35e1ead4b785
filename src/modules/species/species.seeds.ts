import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import type { Seed } from '../../core/db/seeds.js';
import { projectRoot } from '../../paths.js';
import { speciesSearchText } from './species.repository.js';
import { fishSpecies, fishTaxa, WATER_TYPES, type TaxonRank, type WaterType } from './species.tables.js';

import { SPECIES_NAMESPACE, speciesId } from './species.ids.js';

export { SPECIES_NAMESPACE, speciesId };

/** Taxa ids: UUIDv5 of `<rank>:<lower-cased name>` in the same namespace. */
export function taxonId(rank: TaxonRank, name: string): string {
  return uuidv5(`${rank}:${name.toLowerCase()}`, SPECIES_NAMESPACE);
}

export interface SpeciesData {
  orders: Array<{ name: string; commonName: string }>;
  families: Array<{ name: string; commonName: string; order: string }>;
  species: Array<{ commonName: string; scientificName: string; otherNames: string[]; family: string; waterTypes: WaterType[] }>;
}

export const SPECIES_DATA_FILE = path.join(projectRoot, 'reference-data', 'species.json');

/** Reads and checks reference-data/species.json; a mistake in the file names the record. */
export function loadSpeciesData(file = SPECIES_DATA_FILE): SpeciesData {
  const data = JSON.parse(readFileSync(file, 'utf8')) as SpeciesData;
  const fail = (what: string) => {
    throw new Error(`${file}: ${what}`);
  };
  const orders = new Set(data.orders.map((o) => o.name));
  const families = new Set<string>();
  for (const family of data.families) {
    if (!orders.has(family.order)) fail(`family ${family.name} names the unknown order ${family.order}`);
    families.add(family.name);
  }
  const seen = new Set<string>();
  for (const s of data.species) {
    if (!/^[A-Z][a-z]+ [a-z]+( [a-z]+)?$/.test(s.scientificName)) fail(`${s.scientificName} is not a binomial name`);
    if (seen.has(s.scientificName.toLowerCase())) fail(`${s.scientificName} is listed twice`);
    seen.add(s.scientificName.toLowerCase());
    if (!families.has(s.family)) fail(`${s.scientificName} names the unknown family ${s.family}`);
    if (s.waterTypes.length === 0 || s.waterTypes.some((w) => !WATER_TYPES.includes(w))) fail(`${s.scientificName} has bad waterTypes`);
  }
  return data;
}

export const speciesSeed: Seed = {
  name: 'species.core',
  version: 2,
  description: 'Fish species anglers target in North America, with their orders, families and genera (reference-data/species.json)',
  async run({ tx, progress }) {
    const data = loadSpeciesData();
    const total = data.orders.length + data.families.length + data.species.length * 2;
    let done = 0;
    const upsertTaxa = async (rows: Array<typeof fishTaxa.$inferInsert>) => {
      if (rows.length === 0) return;
      await tx
        .insert(fishTaxa)
        .values(rows)
        .onConflictDoUpdate({
          target: fishTaxa.id,
          set: { name: sql`excluded.name`, commonName: sql`COALESCE(excluded.common_name, ${fishTaxa.commonName})`, parentId: sql`excluded.parent_id`, updatedAt: sql`now()` },
          setWhere: sql`(${fishTaxa.name}, ${fishTaxa.commonName}, ${fishTaxa.parentId}) IS DISTINCT FROM (excluded.name, COALESCE(excluded.common_name, ${fishTaxa.commonName}), excluded.parent_id)`,
        });
      done += rows.length;
      progress(done, total);
    };

    await upsertTaxa(data.orders.map((o) => ({ id: taxonId('order', o.name), rank: 'order' as const, name: o.name, commonName: o.commonName, parentId: null })));
    await upsertTaxa(data.families.map((f) => ({ id: taxonId('family', f.name), rank: 'family' as const, name: f.name, commonName: f.commonName, parentId: taxonId('order', f.order) })));
    const genera = new Map<string, string>();
    for (const s of data.species) genera.set(s.scientificName.split(' ')[0]!, s.family);
    await upsertTaxa([...genera].map(([genus, family]) => ({ id: taxonId('genus', genus), rank: 'genus' as const, name: genus, commonName: null, parentId: taxonId('family', family) })));
    done += data.species.length - genera.size;

    // Species are matched by scientific name. A row an administrator changed (updated_by set) is
    // left as it is; so is a row whose seed id now carries another name (renamed by an administrator).
    const existing = await tx.select({ id: fishSpecies.id, scientificName: fishSpecies.scientificName }).from(fishSpecies);
    const nameOfId = new Map(existing.map((r) => [r.id, r.scientificName.toLowerCase()]));
    const rows = data.species
      .filter((s) => {
        const name = nameOfId.get(speciesId(s.scientificName));
        return name === undefined || name === s.scientificName.toLowerCase();
      })
      .map((s) => ({
        id: speciesId(s.scientificName),
        commonName: s.commonName,
        scientificName: s.scientificName,
        otherNames: s.otherNames,
        waterTypes: s.waterTypes,
        genusId: taxonId('genus', s.scientificName.split(' ')[0]!),
        searchText: speciesSearchText(s),
      }));
    for (let i = 0; i < rows.length; i += 100) {
      const batch = rows.slice(i, i + 100);
      await tx
        .insert(fishSpecies)
        .values(batch)
        .onConflictDoUpdate({
          target: fishSpecies.scientificName,
          set: {
            commonName: sql`excluded.common_name`,
            otherNames: sql`excluded.other_names`,
            waterTypes: sql`excluded.water_types`,
            genusId: sql`excluded.genus_id`,
            searchText: sql`excluded.search_text`,
            updatedAt: sql`now()`,
          },
          setWhere: sql`${fishSpecies.updatedBy} IS NULL AND (${fishSpecies.commonName}, ${fishSpecies.otherNames}, ${fishSpecies.waterTypes}, ${fishSpecies.genusId}, ${fishSpecies.searchText})
            IS DISTINCT FROM (excluded.common_name, excluded.other_names, excluded.water_types, excluded.genus_id, excluded.search_text)`,
        });
      done += batch.length;
      progress(done, total);
    }
    progress(total, total);
  },
};
