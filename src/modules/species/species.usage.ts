import { usageKey, type UsageCounter } from '../../core/admin/usage.js';
import type { Registries } from '../../core/registries.js';

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
type SpeciesUsageSlots = { catches: SpeciesCatchUsage; lures: number };
export const speciesUsage = usageKey<SpeciesUsageSlots>('species.usage');

export function registerSpeciesUsage<S extends keyof SpeciesUsageSlots>(deps: { registries: Registries }, slot: S, counter: UsageCounter<SpeciesUsageSlots[S]>): void {
  deps.registries.of(speciesUsage).register(slot, counter);
}
