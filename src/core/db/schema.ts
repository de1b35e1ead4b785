/** Every Drizzle table of the project, for the typed client and drizzle-kit. */
export * from './core.tables.js';
export * from '../auth/auth.tables.js';
export * from '../auth/idp/local/local.tables.js';
export * from '../access/access.tables.js';
export * from '../audit/audit.tables.js';
export * from '../../modules/users/users.tables.js';
export * from '../../modules/social/friends.tables.js';
export * from '../../modules/species/species.tables.js';
export * from '../../modules/brands/brands.tables.js';
export * from '../../modules/gear/gear.tables.js';
export * from '../../modules/gear/boats.tables.js';
export * from '../../modules/gear/setups.tables.js';
export * from '../../modules/fishing-log/fishing-log.tables.js';
export * from '../../modules/profiles/profiles.tables.js';
export * from '../../modules/personal-bests/personal-bests.tables.js';
