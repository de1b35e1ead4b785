import { usageKey, type UsageCounter } from '../../core/admin/usage.js';
import { registryKey, type Registries } from '../../core/registries.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { GearKind } from './brands.kinds.js';

/** A brand's catalog items of one kind, active or deactivated. */
export interface BrandItemCount {
  kind: GearKind;
  active: boolean;
  n: number;
}

/**
 * What uses a brand, counted by the modules whose records reference it (registered in
 * the registering module's <module>.module.ts): `catalogItems` (the gear catalog's items by kind and state), `setups`
 * (anglers' gear setups that use an item of the brand).
 */
type BrandUsageSlots = { catalogItems: readonly BrandItemCount[]; setups: number };
export const brandUsage = usageKey<BrandUsageSlots>('brands.usage');

export function registerBrandUsage<S extends keyof BrandUsageSlots>(deps: { registries: Registries }, slot: S, counter: UsageCounter<BrandUsageSlots[S]>): void {
  deps.registries.of(brandUsage).register(slot, counter);
}

/** What keeps a copy of a brand's name (e.g. the catalog's search text) refreshes it when the brand is renamed. */
export type BrandRenamedListener = (tx: DbOrTx, brandId: string) => Promise<void>;
const renameListeners = registryKey('brands.renamed', () => new Set<BrandRenamedListener>());

export function onBrandRenamed(deps: { registries: Registries }, listener: BrandRenamedListener): void {
  deps.registries.of(renameListeners).add(listener);
}

export async function brandRenamed(deps: { registries: Registries }, tx: DbOrTx, brandId: string): Promise<void> {
  for (const listener of deps.registries.of(renameListeners)) await listener(tx, brandId);
}
