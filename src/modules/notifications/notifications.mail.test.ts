import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type Staff, type TestUser, bookNewSlot, charterCast, type TestListing } from '../../../test/factories.js';
import { until } from '../../../test/until.js';
import { main } from '../../cli/index.js';

/**
 * Notification mail, sent by the job queue from the outbox: into the local mailbox by default
 * (`fishlog mail list|show`), through a real SMTP server (in-process, smtp-server) once
 * configured; an unsubscribe link in every mail.
 */

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let t: TestApp;
let staff: Staff;
let captain: TestUser;
let customer: TestUser;
let listing: TestListing;
const received: Received[] = [];
let smtp: SMTPServer;
let smtpPort: number;

beforeAll(async () => {
  t = await createTestApp({ env: { FISHLOG_JOBS: 'true', FISHLOG_JOBS_POLL_SECONDS: '1' } });
  ({ staff, captain, customer, listing } = await charterCast(t));
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  await t?.close();
});

async function book(user: TestUser) {
  const res = await bookNewSlot(t, captain, listing, user);
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string };
}

const mailboxFor = async (email: string) =>
  (await t.database.pool.query<{ id: string; to: string; subject: string; text: string; html: string; headers: Record<string, string> }>('SELECT * FROM mailbox_messages WHERE "to" = $1 ORDER BY created_at DESC', [email])).rows;

/** Quoted-printable soft line breaks and escapes undone (enough to read a link back). */
const decoded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

async function setSetting(name: string, value: unknown) {
  const res = await t.app.inject({ method: 'PUT', url: `/api/admin/system-settings/${name}`, headers: staff.owner.headers, payload: { value, reason: 'Mail test' } });
  expect(res.statusCode).toBe(200);
}

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (text) => (out += text), err: (text) => (err += text), env: { DATABASE_URL: t.testDatabase.url, FISHLOG_SETTINGS_KEY: process.env.FISHLOG_SETTINGS_KEY! } });
  return { code, out, err };
}

describe('notification mail', () => {
  it('keeps mail in the local mailbox without SMTP: the record link, no other user’s data, escaped HTML, an unsubscribe link that works', async () => {
    const booking = await book(customer);
    const mail = await until('the captain’s mail', async () => (await mailboxFor(captain.email)).find((m) => m.text.includes(booking.id)));
    expect(mail).toMatchObject({ to: captain.email, subject: 'Fishlog: New booking request' });
    expect(mail.text).toContain(`http://localhost:3000/api/charter/bookings/${booking.id}`);
    for (const secret of [customer.username, customer.email]) {
      expect(mail.text).not.toContain(secret);
      expect(mail.html).not.toContain(secret);
    }
    // The listing title is quoted in the text and escaped in the HTML.
    expect(mail.html).toContain('&quot;');
    expect(mail.html).not.toMatch(/<p>[^<]*"[^<]*<\/p>/);
    expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    const listed = await cli(['mail', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(`${mail.id}`);
    expect(listed.out).toContain(`${captain.email}  Fishlog: New booking request`);
    const shown = await cli(['mail', 'show', mail.id]);
    expect(shown.out).toContain(`To: ${captain.email}`);
    expect(shown.out).toContain(`/api/charter/bookings/${booking.id}`);
    expect((await cli(['mail', 'show', 'nope'])).code).toBe(2);

    const link = /Stop e-mails of this kind: (\S+)/.exec(mail.text)![1]!;
    const url = new URL(link);
    expect(url.pathname).toBe('/api/notifications/unsubscribe');
    const off = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(off.json()).toEqual({ type: 'charters.booking_requested', email: false });
    const prefs = (await t.app.inject({ method: 'GET', url: '/api/notifications/preferences', headers: captain.headers })).json() as Array<{ type: string; email: boolean }>;
    expect(prefs.find((p) => p.type === 'charters.booking_requested')!.email).toBe(false);
    const forged = await t.app.inject({ method: 'POST', url: `/api/notifications/unsubscribe?ref=${Buffer.from(`${customer.userId} charters.booking_accepted AAAA`).toString('base64url')}` });
    expect(forged.json()).toMatchObject({ status: 400, code: 'notifications.bad_unsubscribe_token' });

    // The captain still sees the next request in-app, but gets no mail of it.
    const before = (await mailboxFor(captain.email)).length;
    const next = await book(customer);
    await until('the in-app notice', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: captain.headers });
      return (res.json() as Array<{ path: string }>).some((n) => n.path.endsWith(next.id)) ? true : undefined;
    });
    await until('the dispatch', async () => ((await t.database.pool.query('SELECT 1 FROM notification_events WHERE dispatched_at IS NULL')).rowCount === 0 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await mailboxFor(captain.email)).length).toBe(before);
  });

  it('sends through SMTP once configured: subject, recipient, the link; nothing of other users', async () => {
    await setSetting('EmailSmtpHost', '127.0.0.1');
    await setSetting('EmailSmtpPort', smtpPort);
    await setSetting('EmailFrom', 'Fishlog <bookings@fishlog.test>');
    await setSetting('EmailSmtpEnabled', true);
    const other = await createUser(t);
    const booking = await book(other);
    await t.app.inject({ method: 'POST', url: `/api/charter/bookings/${booking.id}/accept`, headers: captain.headers });
    const mail = await until('the customer’s mail over SMTP', async () => received.find((m) => m.to.includes(other.email)));
    expect(mail.from).toBe('bookings@fishlog.test');
    const raw = decoded(mail.raw);
    expect(raw).toMatch(/^Subject: Fishlog: Booking accepted$/m);
    expect(raw).toMatch(new RegExp(`^To: ${other.email.replace('.', '\\.')}$`, 'm'));
    expect(raw).toContain(`http://localhost:3000/api/charter/bookings/${booking.id}`);
    expect(raw).toContain('List-Unsubscribe:');
    for (const secret of [captain.username, captain.email, customer.username, customer.email]) expect(raw).not.toContain(secret);
    // Nothing went to the mailbox meanwhile.
    expect(await mailboxFor(other.email)).toEqual([]);
  });
});
