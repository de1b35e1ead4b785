import { usageKey, type UsageCounter } from '../../core/admin/usage.js';
import type { Registries } from '../../core/registries.js';

/**
 * What uses a jurisdiction outside this module, counted by the modules whose records reference it
 * (registered in master-angler.module.ts): `programs` (active Master Angler programs).
 */
export const jurisdictionUsage = usageKey<{ programs: number }>('regulations.jurisdiction_usage');

export function registerJurisdictionUsage(deps: { registries: Registries }, slot: 'programs', counter: UsageCounter): void {
  deps.registries.of(jurisdictionUsage).register(slot, counter);
}
