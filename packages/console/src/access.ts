import type { components } from '@fishlog/client';
import { fishlog } from './api';

/** What the API says the caller may do (GET /api/admin/me): the menu and buttons follow it. */
export type MyAccess = components['schemas']['MyAccess'];

let cached: Promise<MyAccess> | undefined;

export function myAccess(): Promise<MyAccess> {
  cached ??= fishlog.GET('/api/admin/me').then(({ data, error }) => {
    if (error) {
      cached = undefined;
      throw error;
    }
    return data;
  });
  return cached;
}

export function forgetAccess(): void {
  cached = undefined;
}

export const may = (access: MyAccess | undefined, permission: string): boolean => access?.permissions.includes(permission) ?? false;

/** The screens, each with what lets the caller in (the API decides; this only hides the others). */
export const SCREENS = {
  moderation: (a: MyAccess) => may(a, 'Content.Moderate') || may(a, 'Content.Approve'),
  reports: (a: MyAccess) => may(a, 'Content.Moderate'),
  users: (a: MyAccess) => may(a, 'Users.View'),
  dashboard: (a: MyAccess) => a.admin,
  audit: (a: MyAccess) => may(a, 'AuditLogs.View'),
  employees: (a: MyAccess) => a.owner,
  payments: (a: MyAccess) => a.admin,
  rules: (a: MyAccess) => a.admin,
  moderationSettings: (a: MyAccess) => a.admin,
  settings: (a: MyAccess) => may(a, 'Settings.View'),
  jobs: (a: MyAccess) => may(a, 'Settings.View'),
  webhooks: (a: MyAccess) => a.admin,
  species: (a: MyAccess) => may(a, 'Species.Manage'),
  brands: (a: MyAccess) => may(a, 'Brands.Manage'),
  lookups: (a: MyAccess) => may(a, 'Lookups.Manage'),
  events: (a: MyAccess) => may(a, 'Events.View'),
  tournaments: (a: MyAccess) => may(a, 'Tournaments.View'),
  organizers: (a: MyAccess) => may(a, 'Organizers.View'),
  captains: (a: MyAccess) => a.admin,
  spotsAndClubs: (a: MyAccess) => a.admin,
  fishingReports: (a: MyAccess) => may(a, 'Content.Approve'),
  regulations: (a: MyAccess) => may(a, 'Regulations.View') || may(a, 'Regulations.Edit'),
  announcements: (a: MyAccess) => ['Announcements.Create', 'Announcements.Edit', 'Announcements.Delete'].some((p) => may(a, p)),
} as const;
