import { usageRegistry } from '../../core/admin/usage.js';
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
export const brandUsage = usageRegistry<{ catalogItems: readonly BrandItemCount[]; setups: number }>();

export const registerBrandUsage = brandUsage.register;

/** What keeps a copy of a brand's name (e.g. the catalog's search text) refreshes it when the brand is renamed. */
export type BrandRenamedListener = (tx: DbOrTx, brandId: string) => Promise<void>;
const renameListeners = new Set<BrandRenamedListener>();

export function onBrandRenamed(listener: BrandRenamedListener): void {
  renameListeners.add(listener);
}

export async function brandRenamed(tx: DbOrTx, brandId: string): Promise<void> {
  for (const listener of renameListeners) await listener(tx, brandId);
}
