import type { Seed } from './core/db/seeds.js';
import { brandsSeed } from './modules/brands/brands.seeds.js';
import { gearSeed } from './modules/gear/gear.seeds.js';
import { speciesSeed } from './modules/species/species.seeds.js';

/**
 * Every module's reference-data seeds, in the order they are applied (a seed that refers to
 * another module's data comes after it). Modules add theirs here.
 */
export const seeds: readonly Seed[] = [speciesSeed, brandsSeed, gearSeed];
