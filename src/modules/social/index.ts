/** Schemas of the social module other modules reuse (with its *.service.ts files). */
export { ModerationStatusSchema, UserRef } from './posts.schemas.js';
