/** The moderation module's public types, constants and schemas (with moderation.service.ts and moderated-content.service.ts). */
export * from './moderation.types.js';
export { ModerationStatusSchema } from './moderation.schemas.js';
