import type { ServiceDeps } from '../../core/service-deps.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DbOrTx } from '../../core/db/client.js';
import { uuidv7 } from '../../core/db/ids.js';
import type { SettingsReader } from '../../core/app-deps.js';
import { settingValues } from '../settings/settings.service.js';
import { mailboxMessages } from './notifications.tables.js';

/**
 * E-mail of notifications: composed as plain text and simple HTML (every value escaped), sent
 * through SMTP (nodemailer) when EmailSmtpEnabled, else kept in the local mailbox table.
 */

export interface Mail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

export interface MailSettings {
  smtp: boolean;
  host: string;
  port: number;
  user: string | null;
  password: string | null;
  tls: boolean;
  from: string;
  baseUrl: string;
  siteName: string;
}

/**
 * The mail settings in force now: this process's live copy of the settings (a change applies to
 * the next mail), and the SMTP password, which is sensitive and so not in that copy, read and
 * decrypted only when SMTP with a user is on.
 */
export async function mailSettings(deps: ServiceDeps<DbOrTx>, key: Buffer, settings: SettingsReader): Promise<MailSettings> {
  const get = <T>(name: string, fallback: T): T => settings.get<T>(name) ?? fallback;
  const smtp = get('EmailSmtpEnabled', false);
  const user = get<string | null>('EmailSmtpUser', null);
  const password = smtp && user ? (((await settingValues(deps, key, ['EmailSmtpPassword'])).get('EmailSmtpPassword') as string | null | undefined) ?? null) : null;
  return {
    smtp,
    host: get('EmailSmtpHost', 'localhost'),
    port: get('EmailSmtpPort', 587),
    user,
    password,
    tls: get('EmailSmtpTls', false),
    from: get('EmailFrom', 'Fishlog <no-reply@fishlog.invalid>'),
    baseUrl: get('PublicBaseUrl', 'http://localhost:3000').replace(/\/+$/, ''),
    siteName: get('SiteName', 'Fishlog'),
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// Unsubscribe tokens: the user and the notice type, with an HMAC of both (no sign-in needed to use one).

const tokenMac = (key: Buffer, userId: string, type: string) => createHmac('sha256', key).update(`unsubscribe\n${userId}\n${type}`).digest('base64url');

export function unsubscribeToken(key: Buffer, userId: string, type: string): string {
  return Buffer.from(`${userId} ${type} ${tokenMac(key, userId, type)}`, 'utf8').toString('base64url');
}

/** The user and type of a token this service issued; undefined for anything else. */
export function readUnsubscribeToken(key: Buffer, token: string): { userId: string; type: string } | undefined {
  const [userId, type, mac, extra] = Buffer.from(token, 'base64url').toString('utf8').split(' ');
  if (!userId || !type || !mac || extra !== undefined) return undefined;
  const expected = Buffer.from(tokenMac(key, userId, type));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? { userId, type } : undefined;
}

/** A notification as a mail to its recipient: the title, the text, a link to the record and one to stop this type of mail. */
export function composeMail(settings: MailSettings, key: Buffer, to: { email: string; userId: string }, note: { type: string; title: string; body: string; path: string }): Mail {
  const link = `${settings.baseUrl}${note.path}`;
  const unsubscribe = `${settings.baseUrl}/api/notifications/unsubscribe?ref=${unsubscribeToken(key, to.userId, note.type)}`;
  const subject = `${settings.siteName}: ${note.title}`;
  const text = `${note.body}\n\n${link}\n\n--\nYou get this e-mail because of your ${settings.siteName} notification preferences.\nStop e-mails of this kind: ${unsubscribe}\n`;
  const html =
    `<!doctype html><html><body><p>${escapeHtml(note.body)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
    `<hr><p style="font-size:small">You get this e-mail because of your ${escapeHtml(settings.siteName)} notification preferences. ` +
    `<a href="${escapeHtml(unsubscribe)}">Stop e-mails of this kind</a>.</p></body></html>`;
  return { from: settings.from, to: to.email, subject, text, html, headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}

/** Sends a mail over SMTP, or keeps it in the local mailbox when SMTP is off. */
export async function sendMail(db: DbOrTx, settings: MailSettings, mail: Mail, notificationId: string | null): Promise<void> {
  if (!settings.smtp) {
    await db.insert(mailboxMessages).values({ id: uuidv7(), notificationId, ...mail });
    return;
  }
  // nodemailer (~80 files) loads with the first mail over SMTP, not with every start of the service.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.tls,
    ...(settings.user ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    await transport.sendMail(mail);
  } finally {
    transport.close();
  }
}
