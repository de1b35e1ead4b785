import { v5 as uuidv5 } from 'uuid';

/** Namespace of species ids: id = UUIDv5(scientific name, this namespace). */
export const SPECIES_NAMESPACE = '6f1c2b8e-4a53-5b7e-9c1d-2e7a4f0b9c31';

/** The id of a seeded species, from its scientific name (stable across installations). */
export function speciesId(scientificName: string): string {
  return uuidv5(scientificName.toLowerCase(), SPECIES_NAMESPACE);
}
