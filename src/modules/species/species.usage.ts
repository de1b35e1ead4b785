import { usageRegistry } from '../../core/admin/usage.js';

/** The catches logged of a species (the fishing log counts them). */
export interface SpeciesCatchUsage {
  catches: number;
  anglers: number;
  lastCaughtAt: Date | null;
}

/**
 * What uses a species, counted by the modules whose records reference it (registered in
 * the registering module's <module>.module.ts): `catches` (the fishing log), `lures` (active catalog lures made for it).
 */
export const speciesUsage = usageRegistry<{ catches: SpeciesCatchUsage; lures: number }>();

export const registerSpeciesUsage = speciesUsage.register;
