/** What other modules may use of the regulations module besides its services: the data warnings of operators. */
export { DATA_WARNING_DAYS, RegulationDataWarning, regulationDataWarnings } from './regulations.stats.service.js';
/** For the Master Angler module: the fishing log as regulations read it, shared problems, length and date rules, seeded ids. */
export { fishingLogCatchSource, type CatchSource, type LoggedCatch } from './catch-source.js';
export { RegulationErrors } from './regulations.errors.js';
export { Active, HttpUrl, Reason, ReasonBody, Search } from './regulations.admin.schemas.js';
export { cmToInches, localDate } from './rules.js';
export { jurisdictionId, programId, regulationId } from './reference-ids.js';
/** Usage of jurisdictions by higher modules, by registration (the registering module's <module>.module.ts). */
export { registerJurisdictionUsage } from './regulations.usage.js';
