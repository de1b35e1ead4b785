import { definePolicy, ownerOnly } from '../policy.js';

/** Fishing sessions are private to their owner. */

export interface SessionRecord {
  readonly ownerId: string;
}

const privateSession = ownerOnly<SessionRecord>({ code: 'fishinglog.not_session_owner', detail: 'Fishing sessions are private to their owner.' });

export const sessionPolicy = definePolicy<SessionRecord, 'read' | 'update' | 'delete' | 'link'>('sessions', {
  read: privateSession,
  update: privateSession,
  delete: privateSession,
  link: privateSession,
});
