import type { ServiceDeps } from '../../core/service-deps.js';
import { authorize, type Viewer } from '../../core/access/policy.js';
import { notificationPolicy } from '../../core/access/policies/notifications.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { FeedPage } from '../../core/http/pagination.js';
import { NotificationErrors } from './notifications.errors.js';
import * as repo from './notifications.repository.js';
import { isInAppOnlyType, isSecurityType, NOTIFICATION_TYPE_NAMES, NOTIFICATION_TYPES, type NotificationType } from '../../core/notifications/outbox.js';
import type { NotificationChannel } from '../../core/notifications/notifications.tables.js';
import type { PreferencesBodyType } from './notifications.schemas.js';
import { readUnsubscribeToken } from './notifications.mail.js';

/** In-app notifications: each user reads and marks their own. */

function view(row: repo.NotificationRow) {
  return { id: row.id, type: row.type, title: row.title, body: row.body, path: row.path, createdAt: row.createdAt.toISOString(), readAt: row.readAt?.toISOString() ?? null };
}

export async function list(deps: ServiceDeps, viewer: Viewer, unread: boolean, page: FeedPage) {
  const { db } = deps;
  const rows = await repo.listFor(db, viewer.userId, unread, page);
  const last = rows.at(-1);
  return { items: rows.map(({ row }) => view(row)), last: last ? { micros: last.key, id: last.row.id } : undefined };
}

export async function unreadCount(deps: ServiceDeps, viewer: Viewer) {
  const { db } = deps;
  return { unread: await repo.unreadCount(db, viewer.userId) };
}

export async function get(deps: ServiceDeps, viewer: Viewer, id: string) {
  const { db } = deps;
  const found = await repo.find(db, id);
  await authorize(notificationPolicy, viewer, 'read', found && { ownerId: found.recipientId }, deps, () => NotificationErrors.notFound(id));
  return view(found!);
}

export async function markRead(deps: ServiceDeps, viewer: Viewer, id: string) {
  const { db } = deps;
  const found = await repo.find(db, id);
  await authorize(notificationPolicy, viewer, 'markRead', found && { ownerId: found.recipientId }, deps, () => NotificationErrors.notFound(id));
  return view(await repo.markRead(db, id));
}

export async function markAllRead(deps: ServiceDeps, viewer: Viewer) {
  const { db } = deps;
  return { marked: await repo.markAllRead(db, viewer.userId) };
}

// Preferences

/** Every notice type with the user's choice per channel (default: on; security notices always in-app). */
export async function preferences(deps: ServiceDeps<DbOrTx>, userId: string) {
  const { db } = deps;
  const chosen = new Map((await repo.preferencesOf(db, userId)).map((row) => [`${row.type}/${row.channel}`, row.enabled]));
  return NOTIFICATION_TYPE_NAMES.map((type) => {
    const security = isSecurityType(type);
    const emailAvailable = !isInAppOnlyType(type);
    return {
      type,
      description: NOTIFICATION_TYPES[type].description,
      security,
      inApp: security || (chosen.get(`${type}/inApp`) ?? true),
      email: emailAvailable && (chosen.get(`${type}/email`) ?? true),
      emailAvailable,
    };
  });
}

export async function setPreferences(deps: ServiceDeps, viewer: Viewer, body: PreferencesBodyType) {
  const { db } = deps;
  const rows: Array<{ type: string; channel: NotificationChannel; enabled: boolean }> = [];
  body.preferences.forEach((entry, index) => {
    if (entry.inApp === false && isSecurityType(entry.type)) throw NotificationErrors.securityInApp(index, entry.type);
    if (entry.email === true && isInAppOnlyType(entry.type)) throw NotificationErrors.emailUnavailable(index, entry.type);
    if (entry.inApp !== undefined) rows.push({ type: entry.type, channel: 'inApp', enabled: entry.inApp });
    if (entry.email !== undefined) rows.push({ type: entry.type, channel: 'email', enabled: entry.email });
  });
  // The last entry for a type and channel wins.
  const unique = [...new Map(rows.map((row) => [`${row.type}/${row.channel}`, row])).values()];
  await repo.setPreferences(db, viewer.userId, unique);
  return preferences(deps, viewer.userId);
}

/** The link of a mail: that kind of e-mail off for its recipient. */
export async function unsubscribe(deps: ServiceDeps, key: Buffer, token: string) {
  const { db } = deps;
  const found = readUnsubscribeToken(key, token);
  if (!found || !(NOTIFICATION_TYPE_NAMES as string[]).includes(found.type)) throw NotificationErrors.badUnsubscribeToken();
  await repo.setPreferences(db, found.userId, [{ type: found.type, channel: 'email', enabled: false }]);
  return { type: found.type as NotificationType, email: false };
}

// The local mailbox (`fishlog mail list|show`)

export async function mailbox(deps: ServiceDeps<DbOrTx>, limit: number) {
  const { db } = deps;
  return repo.mailboxList(db, limit);
}

export async function mailboxMessage(deps: ServiceDeps<DbOrTx>, id: string) {
  const { db } = deps;
  return repo.mailboxMessage(db, id);
}
