import type { PersonalData } from '../../core/personal-data.js';

/** What the employees module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const employeesPersonalData: PersonalData = {
  module: 'employees',
  columns: [
    { table: 'permission_grants', column: 'user_id', action: 'keep', reason: 'Permission history of an employee: an administrative record (who could do what, when), like the audit log.' },
    { table: 'permission_grants', column: 'granted_by', action: 'keep', reason: 'Who granted or denied a permission: an administrative record.' },
  ],
};
