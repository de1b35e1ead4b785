import type { TestApp } from '../harness.js';
import type { TestUser } from './users.js';

/** Announcements through the admin API, as in production. */

export interface AnnouncementInput {
  title?: string;
  body?: string;
  type?: 'Info' | 'Success' | 'Warning' | 'Error';
  priority?: 'Low' | 'Normal' | 'High' | 'Critical';
  startsAt?: string;
  endsAt?: string | null;
  audience?: 'All' | string[];
  dismissal?: 'Dismissible' | 'Persistent';
  reason?: string;
}

export interface AdminAnnouncementBody {
  id: string;
  title: string;
  status: string;
  version: number;
  dismissedCount: number;
  isActive: boolean;
}

/** A complete create body with sensible defaults. */
export function announcementBody(input: AnnouncementInput = {}): Record<string, unknown> {
  return {
    title: 'Welcome to the new season',
    body: 'Tight lines!',
    type: 'Info',
    priority: 'Normal',
    audience: 'All',
    dismissal: 'Dismissible',
    reason: 'Season opening',
    ...input,
  };
}

export async function createAnnouncement(t: TestApp, by: TestUser, input: AnnouncementInput = {}): Promise<AdminAnnouncementBody> {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/announcements', headers: by.headers, payload: announcementBody(input) });
  if (res.statusCode !== 201) throw new Error(`announcement creation failed: ${res.statusCode} ${res.body}`);
  return res.json() as AdminAnnouncementBody;
}
