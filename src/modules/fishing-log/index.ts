/**
 * The fishing log's public read model (with entries.service.ts): catches and entries for the
 * reads other modules compute over them (post links, Master Angler), never to write; the list cap.
 */
export { catches, logEntries } from './fishing-log.tables.js';
/** Master Angler eligibility of logged catches: the master-angler module registers its detection (it reads this module). */
export { registerMasterAnglerDetection } from './master-angler.port.js';
/** Offline sync (the sync module) reads the owner's sessions and criteria and checks pushed records against the REST bodies. */
export { fishingSessions } from './fishing-log.tables.js';
export { pbCriteria } from './personal-bests.tables.js';
export { CatchCreateInput, CatchReplaceInput, EntryCreateInput, EntryReplaceInput, SessionCreateInput, SessionInput } from './fishing-log.schemas.js';
