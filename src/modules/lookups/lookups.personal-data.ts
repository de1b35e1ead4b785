import type { PersonalData } from '../../core/personal-data.js';

/** What the lookups module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const lookupsPersonalData: PersonalData = {
  module: 'lookups',
  columns: [
    { table: 'lookup_values', column: 'created_by', action: 'keep', reason: 'Who created a vocabulary value: staff attribution of shared reference data.' },
    { table: 'lookup_values', column: 'updated_by', action: 'keep', reason: 'Who last changed a vocabulary value: staff attribution of shared reference data.' },
  ],
};
