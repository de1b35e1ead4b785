/** Schemas of the profiles module other modules reuse (with profiles.service.ts). */
export { SpeciesRef } from './profiles.schemas.js';
