import type { PersonalData } from '../../core/personal-data.js';

/** What the moderation module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const moderationPersonalData: PersonalData = {
  module: 'moderation',
  columns: [
    { table: 'moderation_queue', column: 'decided_by', action: 'keep', reason: 'Which moderator decided: an administrative record (the queue items of the person\'s own posts and comments go with them).' },
    { table: 'moderation_rules', column: 'created_by', action: 'keep', reason: 'Staff attribution of a moderation rule.' },
    { table: 'moderation_rules', column: 'deactivated_by', action: 'keep', reason: 'Staff attribution of a moderation rule.' },
    { table: 'moderation_settings', column: 'updated_by', action: 'keep', reason: 'Staff attribution of the moderation settings.' },
  ],
};
