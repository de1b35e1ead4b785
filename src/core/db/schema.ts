/** Every Drizzle table of the project, for the typed client and drizzle-kit. */
export * from './core.tables.js';
export * from '../auth/auth.tables.js';
export * from '../auth/idp/local/local.tables.js';
export * from '../access/access.tables.js';
export * from '../audit/audit.tables.js';
export * from '../../modules/users/users.tables.js';
export * from '../../modules/social/friends.tables.js';
export * from '../../modules/species/species.tables.js';
export * from '../../modules/fishing-log/fishing-log.tables.js';
export * from '../../modules/social/posts.tables.js';
export * from '../../modules/social/reports.tables.js';
export * from '../../modules/moderation/moderation.tables.js';
