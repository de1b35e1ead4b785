/** The species module's public read model (with species.service.ts): the species table for joins (names), never to write. */
export { fishSpecies } from './species.tables.js';
/** Seeded species ids (UUIDv5 of the scientific name), for other modules' seeds. */
export { speciesId } from './species.ids.js';
/** What uses a species: the modules that reference species register their counters (the registering module's <module>.module.ts). */
export { registerSpeciesUsage, type SpeciesCatchUsage } from './species.usage.js';
/** Whether a species exists and is active (what a record naming a species must check). */
export { activeSpeciesAmong, isActiveSpecies } from './species.repository.js';
