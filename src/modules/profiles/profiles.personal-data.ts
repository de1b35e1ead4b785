import type { PersonalData } from '../../core/personal-data.js';

/** What the profiles module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const profilesPersonalData: PersonalData = {
  module: 'profiles',
  columns: [
    { table: 'user_profiles', column: 'user_id', action: 'delete', reason: 'The profile: name, bio, home region, favourite species, preferences.' },
    { table: 'research_consents', column: 'user_id', action: 'delete', reason: 'Research consent: nothing of an erased person is exported to research again.' },
  ],
};
