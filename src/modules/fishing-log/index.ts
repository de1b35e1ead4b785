/**
 * The fishing log's public read model (with entries.service.ts): catches and entries for the
 * reads other modules compute over them (post links, Master Angler), never to write; the list cap.
 */
export { catches, logEntries } from './fishing-log.tables.js';
/** Master Angler eligibility of logged catches: the master-angler module registers its detection (it reads this module). */
export { registerMasterAnglerDetection } from './master-angler.port.js';
