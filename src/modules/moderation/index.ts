/** The moderation module's public types and constants (with moderation.service.ts). */
export * from './moderation.types.js';
