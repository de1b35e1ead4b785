/** Every record policy of the API, one file per resource type (policies.test.ts: each action is asked somewhere). */
export * from './bans.js';
export * from './boats.js';
export * from './catches.js';
export * from './charters.js';
export * from './clubs.js';
export * from './comments.js';
export * from './entries.js';
export * from './events.js';
export * from './fishing-reports.js';
export * from './master-angler.js';
export * from './personal-bests.js';
export * from './posts.js';
export * from './profiles.js';
export * from './sessions.js';
export * from './setups.js';
export * from './spots.js';
export * from './tournaments.js';
