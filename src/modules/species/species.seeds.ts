import { sql } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import type { Seed } from '../../core/db/seeds.js';
import { fishSpecies } from './species.tables.js';

/** Namespace of species ids: id = UUIDv5(scientific name, this namespace). */
export const SPECIES_NAMESPACE = '6f1c2b8e-4a53-5b7e-9c1d-2e7a4f0b9c31';

export function speciesId(scientificName: string): string {
  return uuidv5(scientificName.toLowerCase(), SPECIES_NAMESPACE);
}

const SPECIES: Array<[common: string, scientific: string]> = [
  ['Largemouth bass', 'Micropterus salmoides'],
  ['Smallmouth bass', 'Micropterus dolomieu'],
  ['Walleye', 'Sander vitreus'],
  ['Northern pike', 'Esox lucius'],
  ['Muskellunge', 'Esox masquinongy'],
  ['Yellow perch', 'Perca flavescens'],
  ['Bluegill', 'Lepomis macrochirus'],
  ['Black crappie', 'Pomoxis nigromaculatus'],
  ['Channel catfish', 'Ictalurus punctatus'],
  ['Rainbow trout', 'Oncorhynchus mykiss'],
  ['Brown trout', 'Salmo trutta'],
  ['Brook trout', 'Salvelinus fontinalis'],
  ['Lake trout', 'Salvelinus namaycush'],
  ['Chinook salmon', 'Oncorhynchus tshawytscha'],
  ['Striped bass', 'Morone saxatilis'],
  ['Red drum', 'Sciaenops ocellatus'],
];

export const speciesSeed: Seed = {
  name: 'species.core',
  version: 1,
  description: 'Core fish species used by the fishing log',
  async run({ tx, progress }) {
    const rows = SPECIES.map(([commonName, scientificName]) => ({ id: speciesId(scientificName), commonName, scientificName }));
    await tx
      .insert(fishSpecies)
      .values(rows)
      .onConflictDoUpdate({ target: fishSpecies.id, set: { commonName: sql`excluded.common_name`, scientificName: sql`excluded.scientific_name`, updatedAt: new Date() } });
    progress(rows.length, rows.length);
  },
};
