import { usageRegistry } from '../../core/admin/usage.js';

/**
 * What uses a jurisdiction outside this module, counted by the modules whose records reference it
 * (registered in master-angler.module.ts): `programs` (active Master Angler programs).
 */
export const jurisdictionUsage = usageRegistry<{ programs: number }>();

export const registerJurisdictionUsage = jurisdictionUsage.register;
