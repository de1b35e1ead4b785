/** Schemas of the profiles module other modules reuse (with profiles.service.ts). */
export { SpeciesRef } from './profiles.schemas.js';
/** Offline sync (the sync module) reads the caller's own profile row. */
export { userProfiles } from './profiles.tables.js';
