/**
 * The tiers of src/modules, lowest first. A module imports modules of its own tier or of lower
 * tiers, never of a higher one (`.dependency-cruiser.cjs` builds one rule per tier from this
 * list), and no two modules import each other, directly or around a loop
 * (`scripts/module-graph.mjs`). Higher modules reach into lower ones by registering at start-up
 * (usage counters, photo records, moderated content types, avatar sources: the registering module's <module>.module.ts).
 * Every module folder must be listed here.
 */
module.exports = {
  /** Catalogues and settings every other module refers to. */
  reference: ['species', 'brands', 'gear', 'lookups', 'settings'],
  /** Who is who: accounts, profiles, sign-in, employees. */
  identity: ['users', 'profiles', 'accounts', 'employees'],
  /** What anglers, clubs, organizers and captains make, and the workflows around it. */
  content: [
    'fishing-log',
    'social',
    'moderation',
    'photos',
    'clubs',
    'events',
    'spots',
    'fishing-reports',
    'tournaments',
    'charters',
    'payments',
    'regulations',
    'master-angler',
    'notifications',
    'announcements',
    'sync',
  ],
  /** Read models across modules for the administration, and operations. */
  administration: ['dashboard', 'user-details', 'audit-logs', 'jobs', 'health'],
};
