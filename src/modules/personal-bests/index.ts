/** Schemas of the personal-bests module other modules reuse (with personal-bests.service.ts). */
export { PersonalBestChangeSchema } from './personal-bests.schemas.js';
