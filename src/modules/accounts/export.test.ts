import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalDataOf } from '../../core/personal-data.js';
import { serviceDeps } from '../../core/service-deps.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { until } from '../../../test/until.js';
import { befriend, catchPhotosUrl, createBoat, createCatch, createComment, createEntry, createPost, createSession, createSetup, createSpot, createUser, jpegWithGps, login, smallPng, uploadPhoto, type TestUser } from '../../../test/factories.js';
import { LocalIdentityProvider } from '../../core/auth/idp/local/local-idp.js';
import { eraseDueAccounts, type DeletionDeps } from './deletion.service.js';
import { exportsDir, runExport, sweepExports, type ExportDeps } from './export.service.js';

/** Taking one's data: who may, what the archive holds (every row of theirs, none of anyone else's), one at a time and once a day. */

const DAY = 86_400_000;
let t: TestApp;
let dataDir: string;
let clock = Date.now();

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'fishlog-export-test-'));
  t = await createTestApp({ env: { FISHLOG_DATA_DIR: dataDir }, now: () => clock });
});
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function exportDeps(): ExportDeps {
  return { ...serviceDeps(t), jobs: undefined as never, dataDir };
}

const call = (method: 'GET' | 'POST', url: string, user?: TestUser) => t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}) });

/** Asks for an export and runs its job (as the queue would); `before` runs between the two. Answers the export's id. */
async function exportNow(user: TestUser, before?: () => Promise<void>): Promise<string> {
  const res = await call('POST', '/api/account/export', user);
  expect(res.statusCode, res.body).toBe(202);
  const { id } = res.json() as { id: string };
  await before?.();
  expect(await runExport(exportDeps(), id, () => new Date(clock))).toMatchObject({ status: 'Ready' });
  return id;
}

/** The archive's files, name → text (`untarBytes`: name → bytes). */
async function untar(body: Buffer): Promise<Map<string, string>> {
  return new Map([...(await untarBytes(body))].map(([name, bytes]) => [name, bytes.toString('utf8')]));
}

async function untarBytes(body: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
    stream.on('end', () => {
      files.set(header.name, Buffer.concat(chunks));
      next();
    });
  });
  await pipeline(Readable.from([body]), createGunzip(), extract);
  return files;
}

const ndjson = (text: string | undefined): Array<Record<string, unknown>> =>
  (text ?? '')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('who may ask for, follow and download an export', () => {
  it('needs a token (401), and one person never sees or downloads another’s', async () => {
    for (const [method, url] of [
      ['POST', '/api/account/export'],
      ['GET', '/api/account/export'],
      ['GET', '/api/account/export/download'],
    ] as const) {
      expect((await call(method, url)).statusCode, `${method} ${url}`).toBe(401);
    }
    const ann = await createUser(t);
    const bo = await createUser(t);
    expect((await call('GET', '/api/account/export', ann)).json()).toMatchObject({ status: 404, code: 'accounts.no_export' });
    await exportNow(ann);

    const own = await call('GET', '/api/account/export', ann);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ status: 'Ready', size: expect.any(Number), readyAt: expect.any(String), expiresAt: expect.any(String) });
    const download = await call('GET', '/api/account/export/download', ann);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="fishlog-data-\d{4}-\d{2}-\d{2}\.tar\.gz"$/);
    expect(download.rawPayload.length).toBe((own.json() as { size: number }).size);

    // Bo has none: their token reaches only their own.
    expect((await call('GET', '/api/account/export', bo)).statusCode).toBe(404);
    expect((await call('GET', '/api/account/export/download', bo)).json()).toMatchObject({ status: 404, code: 'accounts.export_not_available' });

    // The person is told in-app.
    const inbox = (await call('GET', '/api/notifications', ann)).json() as Array<{ type: string; path: string }>;
    expect(inbox.find((n) => n.type === 'accounts.export_ready')).toMatchObject({ path: '/api/account/export/download' });
  });

  it('lets a person whose deletion is pending take their data first', async () => {
    const cy = await createUser(t);
    expect((await t.app.inject({ method: 'POST', url: '/api/account/deletion', headers: cy.headers, payload: { password: cy.password } })).statusCode).toBe(202);
    // Asking for the deletion signed them out everywhere: they sign in again (allowed during the grace period).
    const headers = { authorization: `Bearer ${(await login(t, cy.username, cy.password)).id_token}` };
    const res = await t.app.inject({ method: 'POST', url: '/api/account/export', headers });
    expect(res.statusCode, res.body).toBe(202);
  });
});

describe('the archive', () => {
  it('holds every row of the person in every registered table and none of another person’s', async () => {
    const jo = await createUser(t);
    const friend = await createUser(t);
    for (const user of [jo, friend]) {
      const entry = await createEntry(t, user, { visibility: 'Public' });
      await createCatch(t, user, entry);
      await createSession(t, user);
      await createBoat(t, user);
      await createSetup(t, user);
      await createSpot(t, user, { name: `${user.username} edge` });
    }
    await befriend(t, jo, friend);
    const post = await createPost(t, jo, { text: 'Dusk bite', visibility: 'Public' });
    const friendsPost = await createPost(t, friend, { text: 'My pike', visibility: 'Public' });
    await createComment(t, friend, post.id, 'Great one');
    await createComment(t, jo, friendsPost.id, 'Nice pike');

    // Table by table, what the database holds naming Jo when the job runs (its "ready" notification comes after).
    const tables = new Map<string, string[]>();
    for (const registration of personalDataOf(t)) for (const column of registration.columns) tables.set(column.table, [...(tables.get(column.table) ?? []), column.column]);
    const expected = new Map<string, Array<Record<string, unknown>>>();
    await exportNow(jo, async () => {
      for (const [table, columns] of tables) {
        const where = columns.map((column) => `"${column}" = $1`).join(' OR ');
        const { rows } = await t.database.owner.pool.query(`SELECT to_jsonb(t) AS row FROM "${table}" t WHERE ${where}`, [jo.userId]);
        expected.set(table, rows.map((row: { row: Record<string, unknown> }) => row.row));
      }
    });
    const files = await untar((await call('GET', '/api/account/export/download', jo)).rawPayload);
    expect(files.get('README.md')).toContain('| users.ndjson | 1 |');
    expect(ndjson(files.get('users.ndjson'))).toEqual([expect.objectContaining({ id: jo.userId, username: jo.username })]);

    const filled: string[] = [];
    for (const [table, columns] of tables) {
      const rows = expected.get(table)!;
      const exported = ndjson(files.get(`${table}.ndjson`));
      expect(files.has(`${table}.ndjson`), table).toBe(true);
      expect(exported, table).toHaveLength(rows.length);
      // Every row of Jo's is there, and each row there names Jo.
      if (rows.length > 0 && 'id' in rows[0]!) expect(exported.map((row) => row.id).sort(), table).toEqual(rows.map((row) => row.id).sort());
      for (const row of exported) expect(columns.some((column) => row[column] === jo.userId), `${table}: ${JSON.stringify(row)}`).toBe(true);
      if (rows.length > 0) filled.push(table);
      expect(files.get('README.md'), table).toContain(`| ${table}.ndjson | ${rows.length} |`);
    }
    expect(filled).toEqual(expect.arrayContaining(['fishing_log_entries', 'catches', 'fishing_sessions', 'boats', 'gear_setups', 'spots', 'posts', 'post_comments', 'friend_links']));
    // The friend's own rows are not there: their entry, boat and post.
    const ids = (table: string) => ndjson(files.get(`${table}.ndjson`)).map((row) => row.id);
    const { rows: theirs } = await t.database.owner.pool.query('SELECT id FROM posts WHERE author_id = $1', [friend.userId]);
    for (const { id } of theirs) expect(ids('posts')).not.toContain(id);
    const { rows: theirBoats } = await t.database.owner.pool.query('SELECT id FROM boats WHERE owner_id = $1', [friend.userId]);
    expect(theirBoats.length).toBeGreaterThan(0);
    for (const { id } of theirBoats) expect(ids('boats')).not.toContain(id);
  });
});

describe('the archive’s photos', () => {
  it('holds the display size of each of the person’s photos, byte for byte as GET /api/photos/{id}/display serves it, listed in the README; none of another person’s', async () => {
    const kim = await createUser(t);
    const lee = await createUser(t);
    const mine: string[] = [];
    for (const [i, user] of [kim, lee].entries()) {
      const entry = await createEntry(t, user, { visibility: 'Public' });
      const caught = await createCatch(t, user, entry);
      const photo = await uploadPhoto(t, user, catchPhotosUrl(entry.id, caught.id), await jpegWithGps({ width: 900 + i * 10, height: 600 }));
      const avatar = await uploadPhoto(t, user, '/api/userprofile/me/avatar', await smallPng(), { method: 'PUT' });
      if (user === kim) mine.push(photo.id, avatar.id);
    }
    const { rows: theirs } = await t.database.pool.query<{ id: string }>('SELECT id FROM photos WHERE owner_id = $1', [lee.userId]);
    expect(theirs).toHaveLength(2);

    await exportNow(kim);
    const files = await untarBytes((await call('GET', '/api/account/export/download', kim)).rawPayload);
    const photoFiles = [...files.keys()].filter((name) => name.startsWith('photos/')).sort();
    expect(photoFiles).toEqual(mine.map((id) => `photos/${id}.jpg`).sort());
    for (const id of mine) {
      const served = await call('GET', `/api/photos/${id}/display`, kim);
      expect(served.statusCode).toBe(200);
      expect(files.get(`photos/${id}.jpg`)!.equals(served.rawPayload), id).toBe(true);
    }
    for (const { id } of theirs) expect(files.has(`photos/${id}.jpg`)).toBe(false);
    const readme = files.get('README.md')!.toString('utf8');
    expect(readme).toContain('Your photos, 2, each at its display size');
    for (const id of mine) expect(readme).toMatch(new RegExp(`\\| photos/${id}\\.jpg \\| (Catch|Avatar) photo of `));
    for (const { id } of theirs) expect(readme).not.toContain(id);
    // The photos' rows are in photos.ndjson too, and only Kim's.
    expect(ndjson(files.get('photos.ndjson')!.toString('utf8')).map((row) => row.id).sort()).toEqual([...mine].sort());
  });

  it('says so in the README when the person has no photos', async () => {
    const mo = await createUser(t);
    await exportNow(mo);
    const files = await untar((await call('GET', '/api/account/export/download', mo)).rawPayload);
    expect(files.get('README.md')).toContain('You had no photos when this archive was written.');
    expect([...files.keys()].filter((name) => name.startsWith('photos/'))).toEqual([]);
  });
});

describe('the mail that the archive is ready', () => {
  it('arrives (through the job queue, in the local mailbox) with a download link that works with the person’s token only, and not after 7 days', async () => {
    // An app of the same database with job workers: the export job, the notification's dispatch and its mail, as in production.
    const worker = await createTestApp({ sameDatabaseAs: t, env: { FISHLOG_DATA_DIR: dataDir, FISHLOG_JOBS: 'true', FISHLOG_JOBS_POLL_SECONDS: '1' } });
    try {
      const pat = await createUser(t);
      const other = await createUser(t);
      const asked = await worker.app.inject({ method: 'POST', url: '/api/account/export', headers: pat.headers });
      expect(asked.statusCode, asked.body).toBe(202);
      const mail = await until('the mail of the ready export', async () => {
        const { rows } = await t.database.pool.query<{ to: string; subject: string; text: string; html: string }>('SELECT "to", subject, text, html FROM mailbox_messages WHERE "to" = $1', [pat.email]);
        return rows[0];
      });
      expect(mail).toMatchObject({ to: pat.email, subject: 'Fishlog: Your data is ready to download' });
      expect(mail.text).toContain('the link works only when you are signed in to your account');
      const { expiresAt } = (await call('GET', '/api/account/export', pat)).json() as { expiresAt: string };
      expect(mail.text).toContain(`Download it before ${expiresAt}`);
      const link = new URL(/^(http\S+\/api\/account\/export\/download)$/m.exec(mail.text)![1]!);
      expect(link.pathname).toBe('/api/account/export/download');
      expect(mail.html).toContain(`href="${link.href}"`);
      // Nothing of another person's in it.
      for (const secret of [other.username, other.email, other.userId]) expect(mail.text).not.toContain(secret);

      const url = `${link.pathname}${link.search}`;
      // With Pat's token: the archive. Without a token: 401. With another person's: theirs (none: 404), never Pat's.
      const own = await call('GET', url, pat);
      expect(own.statusCode).toBe(200);
      expect(own.headers['content-type']).toBe('application/gzip');
      expect((await untar(own.rawPayload)).get('users.ndjson')).toContain(pat.userId);
      expect((await call('GET', url)).json()).toMatchObject({ status: 401 });
      expect((await call('GET', url, other)).json()).toMatchObject({ status: 404, code: 'accounts.export_not_available' });
      // 7 days on, the link answers 404.
      clock += 8 * DAY;
      try {
        expect((await call('GET', url, pat)).json()).toMatchObject({ status: 404, code: 'accounts.export_not_available' });
      } finally {
        clock -= 8 * DAY;
      }
    } finally {
      await worker.close();
    }
  });
});

describe('erasure', () => {
  it('deletes the person’s archive file as soon as their account is erased (and nobody else’s)', async () => {
    const ned = await createUser(t);
    const ola = await createUser(t);
    const nedsExport = await exportNow(ned);
    const olasExport = await exportNow(ola);
    expect(await readdir(exportsDir(dataDir))).toEqual(expect.arrayContaining([`${nedsExport}.tar.gz`, `${olasExport}.tar.gz`]));
    const asked = await t.app.inject({ method: 'POST', url: '/api/account/deletion', headers: ned.headers, payload: { password: ned.password } });
    expect(asked.statusCode, asked.body).toBe(202);
    // During the grace period the archive stays (the person may still download it).
    expect(await readdir(exportsDir(dataDir))).toContain(`${nedsExport}.tar.gz`);

    const deps: DeletionDeps = { ...serviceDeps(t), idp: new LocalIdentityProvider(t.database.db, t.config.idp as never), settings: { get: () => undefined }, log: { warn: () => undefined, info: () => undefined }, invalidate: () => undefined };
    expect(await eraseDueAccounts(deps, new Date(Date.now() + 31 * DAY))).toContain(ned.userId);
    const left = await readdir(exportsDir(dataDir));
    expect(left).not.toContain(`${nedsExport}.tar.gz`);
    expect(left).toContain(`${olasExport}.tar.gz`);
    const { rows } = await t.database.pool.query('SELECT id FROM account_exports WHERE user_id = $1', [ned.userId]);
    expect(rows).toEqual([]);
    expect((await call('GET', '/api/account/export/download', ola)).statusCode).toBe(200);
  });
});

describe('one at a time, once a day, 7 days', () => {
  it('answers one of parallel requests with 202 and the others 409; a second the same day 429 with Retry-After; expires after 7 days', async () => {
    const dee = await createUser(t);
    const answers = await Promise.all(Array.from({ length: 6 }, () => call('POST', '/api/account/export', dee)));
    const codes = answers.map((res) => res.statusCode).sort();
    expect(codes).toEqual([202, 409, 409, 409, 409, 409]);
    expect(answers.find((res) => res.statusCode === 409)!.json()).toMatchObject({ code: 'accounts.export_in_progress' });
    expect((await call('GET', '/api/account/export', dee)).json()).toMatchObject({ status: 'Pending', readyAt: null, size: null });
    expect((await call('GET', '/api/account/export/download', dee)).statusCode).toBe(404);

    const { id } = answers.find((res) => res.statusCode === 202)!.json() as { id: string };
    await runExport(exportDeps(), id, () => new Date(clock));
    const again = await Promise.all(Array.from({ length: 3 }, () => call('POST', '/api/account/export', dee)));
    for (const res of again) {
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ code: 'accounts.export_too_soon' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(DAY / 1000 - 120);
    }

    // 8 days on: expired at once (checked on read), the sweep deletes the file, a new one may be asked for.
    clock += 8 * DAY;
    try {
      expect((await call('GET', '/api/account/export', dee)).json()).toMatchObject({ id, status: 'Expired', size: null });
      expect((await call('GET', '/api/account/export/download', dee)).statusCode).toBe(404);
      expect(await readdir(exportsDir(dataDir))).toContain(`${id}.tar.gz`);
      await sweepExports(exportDeps(), new Date(clock));
      expect(await readdir(exportsDir(dataDir))).not.toContain(`${id}.tar.gz`);
      expect((await call('POST', '/api/account/export', dee)).statusCode).toBe(202);
    } finally {
      clock -= 8 * DAY;
    }
  });
});
