/** Every record policy of the API, one file per resource type. */
export * from './boats.js';
export * from './catches.js';
export * from './comments.js';
export * from './entries.js';
export * from './personal-bests.js';
export * from './posts.js';
export * from './profiles.js';
export * from './sessions.js';
export * from './setups.js';
export * from './bans.js';
export * from './notifications.js';
