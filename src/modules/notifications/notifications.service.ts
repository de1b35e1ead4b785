import { authorize, type Viewer } from '../../core/access/policy.js';
import { notificationPolicy } from '../../core/access/policies/notifications.js';
import type { Db } from '../../core/db/client.js';
import type { FeedPage } from '../../core/http/pagination.js';
import { NotificationErrors } from './notifications.errors.js';
import * as repo from './notifications.repository.js';

/** In-app notifications: each user reads and marks their own. */

function view(row: repo.NotificationRow) {
  return { id: row.id, type: row.type, title: row.title, body: row.body, path: row.path, createdAt: row.createdAt.toISOString(), readAt: row.readAt?.toISOString() ?? null };
}

export async function list(db: Db, viewer: Viewer, unread: boolean, page: FeedPage) {
  const rows = await repo.listFor(db, viewer.userId, unread, page);
  const last = rows.at(-1);
  return { items: rows.map(({ row }) => view(row)), last: last ? { micros: last.key, id: last.row.id } : undefined };
}

export async function unreadCount(db: Db, viewer: Viewer) {
  return { unread: await repo.unreadCount(db, viewer.userId) };
}

export async function get(db: Db, viewer: Viewer, id: string) {
  const found = await repo.find(db, id);
  await authorize(notificationPolicy, viewer, 'read', found && { ownerId: found.recipientId }, { db }, () => NotificationErrors.notFound(id));
  return view(found!);
}

export async function markRead(db: Db, viewer: Viewer, id: string) {
  const found = await repo.find(db, id);
  await authorize(notificationPolicy, viewer, 'markRead', found && { ownerId: found.recipientId }, { db }, () => NotificationErrors.notFound(id));
  return view(await repo.markRead(db, id));
}

export async function markAllRead(db: Db, viewer: Viewer) {
  return { marked: await repo.markAllRead(db, viewer.userId) };
}
