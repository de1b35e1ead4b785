import type { PersonalData } from '../../core/personal-data.js';

/** What the settings module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const settingsPersonalData: PersonalData = {
  module: 'settings',
  columns: [
    { table: 'system_settings', column: 'updated_by', action: 'keep', reason: 'Who last changed a system setting: an administrative record.' },
    { table: 'system_setting_history', column: 'changed_by', action: 'keep', reason: 'Setting history: an administrative record.' },
  ],
};
