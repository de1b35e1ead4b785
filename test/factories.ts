/**
 * The one entry point of the test factories: every test imports from here. Each module's typed
 * factories live in `test/factories/<module>.ts`; add yours there and re-export it below.
 */
export * from './factories/users.js';
export * from './factories/audit.js';
export * from './factories/social.js';
export * from './factories/fishing-log.js';
export * from './factories/gear.js';
export * from './factories/bans.js';
export * from './factories/announcements.js';
export * from './factories/lookups.js';
export * from './factories/photos.js';
export * from './factories/charters.js';
export * from './factories/clubs.js';
export * from './factories/events.js';
export * from './factories/fishing-reports.js';
export * from './factories/payments.js';
export * from './factories/regulations.js';
export * from './factories/spots.js';
export * from './factories/tournaments.js';
