/** What other modules may use of the regulations module besides its services: the data warnings of operators. */
export { DATA_WARNING_DAYS, RegulationDataWarning, regulationDataWarnings } from './stats.service.js';
