/**
 * The lookups module's public face: modules check the fields that use a vocabulary against its
 * active values, build the request schema of such a field, and (in its plugin, <module>.module.ts) tell how to
 * count the records that use each value.
 */
export { assertLookupValues, registerLookupUsage, type LookupCheck, type LookupUsageCounter } from './lookups.service.js';
export { LookupCode } from './lookups.schemas.js';
/** Offline sync (the sync module) pulls the values for offline pickers. */
export { lookupValues } from './lookups.tables.js';
