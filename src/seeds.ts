import type { Seed } from './core/db/seeds.js';
import { chartersDemoSeed } from './modules/charters/charters.seeds.js';
import { clubsDemoSeed } from './modules/clubs/clubs.seeds.js';
import { eventsDemoSeed } from './modules/events/events.seeds.js';
import { brandsSeed } from './modules/brands/brands.seeds.js';
import { gearSeed } from './modules/gear/gear.seeds.js';
import { lookupsSeed } from './modules/lookups/lookups.seeds.js';
import { masterAnglerSeed } from './modules/master-angler/master-angler.seeds.js';
import { regulationsSeed } from './modules/regulations/regulations.seeds.js';
import { speciesSeed } from './modules/species/species.seeds.js';
import { boatRampsSeed } from './modules/spots/spots.seeds.js';
import { settingsSeed } from './modules/settings/settings.seeds.js';
import { tournamentsDemoSeed } from './modules/tournaments/tournaments.seeds.js';

/**
 * Every module's reference-data seeds, in the order they are applied (a seed that refers to
 * another module's data comes after it). Modules add theirs here.
 */
export const seeds: readonly Seed[] = [speciesSeed, brandsSeed, gearSeed, regulationsSeed, masterAnglerSeed, settingsSeed, lookupsSeed, boatRampsSeed];

/**
 * Demonstration data, applied only by `fishlog seed --demo` (never on start): sample records of
 * the modules (a verified organizer with a tournament, a captain with a listing, a sample event and club)
 * so a new installation has something to look at. Modules add theirs here; each is idempotent.
 */
export const demoSeeds: readonly Seed[] = [chartersDemoSeed, tournamentsDemoSeed, eventsDemoSeed, clubsDemoSeed];
