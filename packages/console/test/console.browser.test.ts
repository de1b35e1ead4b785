import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/harness.js';
import { banUser, createAnnouncement, createEntryWithCatch, createPost, createTestPayment, createUser, grant, setPhotoVerdict, uploadPhoto, type TestUser } from '../../../test/factories.js';
import { haveChromium, useConsoleInBrowser } from './browser.js';

/**
 * The staff console in a real browser (./browser.ts: Playwright driving Debian's Chromium against
 * a test app that serves the built console): sign-in, moderation, users and bans, audit log,
 * payments, appeals, settings, announcements, photo review, rules, keyboard use at tablet width.
 * Screenshots go to .tmp/console-screenshots/ (not committed).
 */
describe.skipIf(!haveChromium('packages/console/test/console.browser.test.ts'))('the staff console in Chromium', { timeout: 90_000 }, () => {
  const session = useConsoleInBrowser();
  const { newPage, signIn, expectAccessible } = session;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let owner: TestUser;
  let moderator: TestUser;
  let standard: TestUser;
  let author: TestUser;

  beforeAll(async () => {
    ({ t, base, browser } = session);
    owner = await createUser(t, { role: 'Owner', username: 'console_owner' });
    moderator = await createUser(t, { role: 'Moderator', username: 'console_mod' });
    standard = await createUser(t, { username: 'console_std' });
    author = await createUser(t, { username: 'console_author' });
  });

  it('serves the sign-in page, accessible, its script from its own origin only', async () => {
    const page = await newPage();
    const response = await page.goto(`${base}/console/`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { name: 'fishlog staff console' }).waitFor();
    await expectAccessible(page, 'sign-in');
    await page.context().close();
  });

  it('the Owner grants a Moderator Content.Approve on the Employees screen; that Moderator sees only moderation and approves a flagged post with its photo, which then shows in the public feed', async () => {
    const post = await createPost(t, author, { text: 'Walleye at dawn, you idiot asshole', visibility: 'Public' });
    expect(post.moderationStatus).toBe('PendingReview');
    const photo = await uploadPhoto(t, author, `/api/social/posts/${post.id}/photos`);

    // The Owner: Employees, the moderator's card, grant with a reason.
    const boss = await signIn(owner);
    await boss.getByRole('menuitem', { name: 'Employees' }).click();
    const employee = boss.getByRole('article', { name: 'Employee console_mod' });
    await employee.waitFor();
    const form = employee.getByRole('form', { name: 'Change a permission of console_mod' });
    await form.getByLabel('Permission').click();
    await boss.getByRole('option', { name: 'Content.Approve', exact: true }).click();
    await form.getByLabel('Reason').fill('Covers the weekend review queue');
    await form.getByRole('button', { name: 'Save' }).click();
    await boss.getByText('console_mod: Content.Approve granted').waitFor();
    // In force under its canonical name (Content.Approve is its other spelling).
    await employee.getByRole('list', { name: 'Permissions in force' }).getByText('moderation.approve', { exact: true }).waitFor();
    await employee.getByRole('button', { name: 'Show permission history' }).click();
    await employee.getByRole('cell', { name: 'Covers the weekend review queue' }).waitFor();
    await expectAccessible(boss, 'employees');
    const history = await t.app.inject({ method: 'GET', url: `/api/admin/employees/${moderator.userId}/permissions/history`, headers: owner.headers });
    expect(history.json()[0]).toMatchObject({ permission: 'moderation.approve', isGranted: true, reason: 'Covers the weekend review queue', grantedBy: owner.userId });
    await boss.context().close();

    const page = await signIn(moderator);
    const card = page.getByRole('article', { name: 'Post by console_author' });
    await card.waitFor();
    const menu = await page.getByRole('menuitem').allTextContents();
    // Held fishing reports are moderated with the same permission as posts.
    expect(menu.map((m) => m.trim())).toEqual(['Moderation', 'Photo review', 'Fishing reports']);
    await expect(card.getByText('Walleye at dawn').isVisible()).resolves.toBe(true);
    // The photo, read through the review endpoint with the moderator's token, drawn at its thumbnail size.
    const thumbnail = card.getByRole('img', { name: 'Photo 1 of 1 (Published)' });
    await thumbnail.waitFor();
    await expect.poll(() => thumbnail.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(photo.thumbnailWidth);
    // Rejecting needs Content.Moderate, which this Moderator does not hold: no Reject button.
    await expect(card.getByRole('button', { name: /^Reject/ }).count()).resolves.toBe(0);
    await expectAccessible(page, 'moderation-queue');

    await card.getByRole('button', { name: 'Approve Post by console_author' }).click();
    await page.getByText('Post by console_author approved').waitFor();
    const feed = await t.app.inject({ method: 'GET', url: '/api/social/posts?pageSize=50', headers: standard.headers });
    const shown = feed.json().find((p: { id: string }) => p.id === post.id);
    expect(shown.photos).toMatchObject([{ id: photo.id, moderationStatus: 'Published', displayUrl: `/api/photos/${photo.id}/display` }]);
    await page.context().close();
  });

  it('a Standard user sees "no access"', async () => {
    const page = await signIn(standard);
    await page.getByRole('heading', { name: 'No access' }).waitFor();
    await expect(page.getByText('whose role is Standard').isVisible()).resolves.toBe(true);
    // No menu entry either: nothing in the console is theirs.
    expect(await page.getByRole('menuitem').count()).toBe(0);
    await expect(page.getByText('Dashboard').count()).resolves.toBe(0);
    await expectAccessible(page, 'no-access');
    await page.context().close();
  });

  it('an expired refresh sends the person back to sign-in with where they were in the URL, and back there after signing in', async () => {
    const page = await signIn(moderator);
    await page.getByRole('menuitem', { name: 'Moderation' }).waitFor();
    // The id token has expired and the refresh token is one the server refuses.
    await page.evaluate(`(() => {
      const session = JSON.parse(sessionStorage.getItem('fishlog.console.session'));
      sessionStorage.setItem('fishlog.console.session', JSON.stringify({ ...session, expiresAt: 0, refreshToken: 'not-a-refresh-token' }));
    })()`);
    await page.goto(`${base}/console/#/moderation?filter=%7B%22contentType%22%3A%22Post%22%7D`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(decodeURIComponent(new URL(page.url()).hash)).toContain('/login?next=/moderation?filter=');
    await page.getByLabel('Username').fill(moderator.username);
    await page.getByLabel('Password').fill(moderator.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/moderation\?filter=/);
    expect(await page.evaluate('Object.keys(localStorage)')).toEqual([]);
    await page.context().close();
  });

  it('a Moderator whose Users.Ban grant caps bans at 7 days finds a user, is refused a 30-day ban with the API\'s text, bans for 7 days, and the user is refused from then on', async () => {
    const banMod = await createUser(t, { role: 'Moderator', username: 'console_banmod' });
    await grant(t, owner, banMod, 'Users.View', true);
    await grant(t, owner, banMod, 'Users.Ban', true, { maxBanDays: 7 });
    const troll = await createUser(t, { username: 'console_troll' });
    await createUser(t, { username: 'console_angler' });

    const page = await signIn(banMod);
    await page.getByRole('menuitem', { name: 'Users' }).waitFor();
    expect((await page.getByRole('menuitem').allTextContents()).map((m) => m.trim())).toEqual(['Users', 'Ban appeals', 'Account deletions']);
    // The filter and the page live in the URL: this link is what the search box makes.
    await page.goto(`${base}/console/#/users?filter=${encodeURIComponent(JSON.stringify({ q: 'console_tr' }))}&page=1&perPage=25`);
    await page.getByRole('cell', { name: 'console_troll', exact: true }).waitFor();
    await expect(page.getByRole('cell', { name: 'console_angler', exact: true }).count()).resolves.toBe(0);
    await expectAccessible(page, 'users-list');

    await page.getByRole('cell', { name: 'console_troll', exact: true }).click();
    await page.getByRole('heading', { name: 'Ban console_troll' }).waitFor();
    await expect(page.getByText('Your grant caps bans at 7 days').isVisible()).resolves.toBe(true);
    await page.getByLabel('Duration (days)').fill('30');
    await page.getByLabel('Reason (shown to the user)').fill('Spamming tackle-shop links in every comment');
    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'too long' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('A 30-day ban is too long: your ban permission is limited to 7 days');
    expect(await refusal.textContent()).toMatch(/\(request [\w-]+\)/);
    await expectAccessible(page, 'user-ban-refused');

    // The form kept what was typed: only the duration changes.
    await page.getByLabel('Duration (days)').fill('7');
    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    await page.getByText('console_troll is banned').waitFor();
    const bans = page.getByRole('region', { name: 'Bans' });
    await bans.getByRole('cell', { name: 'Spamming tackle-shop links in every comment' }).waitFor();
    await expect(bans.getByRole('cell', { name: 'Active' }).count()).resolves.toBe(1);
    await expect(bans.getByRole('cell', { name: 'console_banmod' }).count()).resolves.toBe(1);
    await expectAccessible(page, 'user-page');

    // The banned user's next call is refused by the API.
    let res = await t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: troll.headers });
    for (let i = 0; i < 20 && res.statusCode !== 403; i++) {
      await sleep(50);
      res = await t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: troll.headers });
    }
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'auth.banned', status: 403 });
    expect(res.json().detail).toContain('Spamming tackle-shop links in every comment');
    await page.context().close();
  });

  it('the Owner finds that ban in the audit log by its reason, with who did it, then lifts it and changes the user\'s role from their page', async () => {
    const page = await signIn(owner);
    await page.getByRole('menuitem', { name: 'Audit log' }).click();
    await page.getByLabel('Reason contains (full text)').fill('tackle-shop');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/#\/audit\?q=tackle-shop/);
    const entries = page.getByRole('table', { name: 'Audit log entries' });
    const row = entries.getByRole('row').filter({ hasText: 'users.banned' });
    await row.waitFor();
    await expect(row.count()).resolves.toBe(1);
    const text = await row.textContent();
    expect(text).toContain('console_banmod');
    expect(text).toContain('Spamming tackle-shop links in every comment');
    expect(text).toContain('Success');
    // The period's statistics, and the export downloaded as a file through the API.
    const tools = page.getByRole('region', { name: 'Statistics and export' });
    await tools.getByText(/The period, whatever the other filters: \d+ entries from .* Most active: .*console_banmod/).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), tools.getByRole('button', { name: 'Export the period (CSV)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^fishlog-audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toContain('action');
    expect(csv).toContain('Spamming tackle-shop links in every comment');
    await expectAccessible(page, 'audit-log');

    // A reload keeps the search (the filters live in the URL).
    await page.reload();
    await entries.getByRole('row').filter({ hasText: 'users.banned' }).waitFor();

    await page.getByRole('menuitem', { name: 'Users' }).click();
    await page.getByRole('cell', { name: 'console_troll', exact: true }).click();
    await page.getByLabel('Reason for lifting').fill('Appeal accepted by phone');
    await page.getByRole('button', { name: 'Lift' }).click();
    await page.getByText('The ban of console_troll is lifted').waitFor();
    await page.getByRole('region', { name: 'Bans' }).getByRole('cell', { name: 'Lifted' }).waitFor();
    await page.getByRole('heading', { name: 'Ban console_troll' }).waitFor();

    // Role change with the reason the API requires; the API's answer is the record of it.
    const roleForm = page.getByRole('region', { name: 'Change the role' });
    await roleForm.getByLabel('New role').click();
    await page.getByRole('option', { name: 'Researcher' }).click();
    await roleForm.getByLabel('Reason for the change').fill('Research access request #7 approved');
    await roleForm.getByRole('button', { name: 'Change role' }).click();
    await page.getByText('console_troll is now Researcher').waitFor();
    await expectAccessible(page, 'user-page-owner');
    const troll = await t.app.inject({ method: 'GET', url: `/api/admin/users?q=console_troll`, headers: owner.headers });
    expect(troll.json()[0]).toMatchObject({ username: 'console_troll', role: 'Researcher', status: 'Active' });
    await page.context().close();
  });

  it('the Owner lands on the dashboard: overview figures, the user-growth, revenue and popular-content charts drawn from the data, with a period picker', async () => {
    await createTestPayment(t, author, { amountCents: 12_500 });
    await createEntryWithCatch(t, author, {}, { caughtAt: new Date(), count: 3 });
    const liked = await createPost(t, author, { text: 'Smallmouth on a tube jig', visibility: 'Public' });
    expect((await t.app.inject({ method: 'POST', url: `/api/social/posts/${liked.id}/like`, headers: standard.headers })).statusCode).toBeLessThan(300);
    const page = await signIn(owner);
    await page.waitForURL(/#\/dashboard/);
    const overview = page.getByRole('region', { name: 'Overview' });
    await overview.getByText('Bans in force').waitFor();
    const curve = page.locator('.recharts-line-curve').first();
    await curve.waitFor();
    // A drawn line through the periods: a path that moves and then draws several segments.
    const d = (await curve.getAttribute('d')) ?? '';
    expect(d).toMatch(/^M[\d.,\s-]+/);
    expect((d.match(/[LC]/g) ?? []).length).toBeGreaterThan(5);
    await expect(page.getByRole('heading', { name: /User growth \(\d+ new\)/ }).isVisible()).resolves.toBe(true);
    expect(await page.getByRole('heading', { name: /User growth/ }).textContent()).not.toContain('(0 new)');
    // The revenue chart: the payment's bar, and the total in its heading.
    await page.getByRole('heading', { name: /Revenue \(\$125\.00 net, 1 payment\)/ }).waitFor();
    await expect(page.locator('.recharts-bar-rectangle').count()).resolves.toBeGreaterThan(0);
    // Popular content: the species logged, drawn as bars, and the liked post.
    const popular = page.getByRole('region', { name: 'Popular content' });
    await popular.getByRole('img', { name: /most logged species, last 30 days: Walleye 1/ }).waitFor();
    await popular.getByText("console_author's post of").first().waitFor();
    expect(await popular.getByRole('listitem').allTextContents()).toContainEqual(expect.stringContaining('1 like in the period'));
    await expectAccessible(page, 'dashboard');

    await page.getByLabel('Period').click();
    await page.getByRole('option', { name: 'Last 12 months' }).click();
    await page.waitForURL(/days=365/);
    await page.getByRole('img', { name: /New and active users per month, last 12 months/ }).waitFor();
    await expect(page.locator('.recharts-line-curve').first().getAttribute('d')).resolves.toMatch(/^M/);
    await page.context().close();
  });

  it('a Moderator granted Content.Moderate resolves a user\'s report by rejecting the post, whose author then reads the note as the reason', async () => {
    const reviewer = await createUser(t, { role: 'Moderator', username: 'console_reviewer' });
    await grant(t, owner, reviewer, 'Content.Moderate', true);
    const post = await createPost(t, author, { text: 'Selling undersized walleye, message me', visibility: 'Public' });
    expect(post.moderationStatus).toBe('Published');
    const filed = await t.app.inject({ method: 'POST', url: `/api/social/posts/${post.id}/report`, headers: standard.headers, payload: { reason: 'IllegalActivity', details: 'Offers fish below the legal size for sale' } });
    expect(filed.statusCode, filed.body).toBe(201);

    const page = await signIn(reviewer);
    await page.getByRole('menuitem', { name: 'Reports' }).click();
    const card = page.getByRole('article', { name: 'Report of a post by console_author' });
    await card.waitFor();
    await card.getByText('Selling undersized walleye').waitFor();
    await card.getByText('“Offers fish below the legal size for sale”').waitFor();
    await card.getByLabel('Resolution').click();
    await page.getByRole('option', { name: /^Reject the content/ }).click();
    await card.getByLabel('Note (what was decided and why)').fill('Selling fish below the legal size is not allowed here.');
    await expectAccessible(page, 'reports');
    await card.getByRole('button', { name: 'Resolve Report of a post by console_author' }).click();
    await page.getByText('Report of a post by console_author: resolved (ContentRejected)').waitFor();

    const mine = await t.app.inject({ method: 'GET', url: `/api/social/posts/${post.id}`, headers: author.headers });
    expect(mine.json()).toMatchObject({ moderationStatus: 'Rejected', moderationReason: 'Selling fish below the legal size is not allowed here.' });
    const reports = await t.app.inject({ method: 'GET', url: `/api/admin/reports?targetId=${post.id}`, headers: owner.headers });
    expect(reports.json()).toMatchObject([{ status: 'Resolved', resolution: 'ContentRejected', resolvedBy: { username: 'console_reviewer' } }]);
    await page.context().close();
  });

  it('the Owner finds a payment, refunds part of it after a confirmation that shows the amount, and reads the ledger after; an Admin denied payments.refund gets no refund form', async () => {
    const payment = await createTestPayment(t, author, { amountCents: 8_000, description: 'Walleye Open entry fee' });
    const page = await signIn(owner);
    await page.getByRole('menuitem', { name: 'Payments' }).click();
    await page.getByRole('cell', { name: 'Walleye Open entry fee' }).click();
    await page.getByRole('heading', { name: 'Walleye Open entry fee · $80.00' }).waitFor();
    const refund = page.getByRole('region', { name: 'Refund', exact: true });
    await refund.getByLabel(/^Amount/).fill('25');
    await refund.getByLabel('Reason').fill('Tournament shortened by weather');
    await refund.getByRole('button', { name: 'Refund…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund $25.00?' });
    await dialog.getByText('$25.00 of $80.00 goes back to card •••• 4242').waitFor();
    await dialog.getByText('after this $55.00 remains refundable').waitFor();
    await expectAccessible(page, 'payment-refund-confirm');
    await dialog.getByRole('button', { name: 'Refund $25.00' }).click();
    await page.getByText('Refunded $25.00', { exact: true }).waitFor();
    await page.getByText('Refunded $25.00 · still refundable $55.00').waitFor();
    await page.getByRole('region', { name: 'Refunds' }).getByRole('cell', { name: 'Tournament shortened by weather' }).waitFor();
    await expectAccessible(page, 'payment');
    const stored = await t.app.inject({ method: 'GET', url: `/api/admin/payments/${payment.id}`, headers: owner.headers });
    expect(stored.json()).toMatchObject({ status: 'PartiallyRefunded', refundedCents: 2_500, refundableCents: 5_500, refunds: [{ amountCents: 2_500, reason: 'Tournament shortened by weather', status: 'Succeeded' }] });
    await page.context().close();

    const clerk = await createUser(t, { role: 'Admin', username: 'console_clerk' });
    await grant(t, owner, clerk, 'payments.refund', false);
    const denied = await signIn(clerk);
    await denied.getByRole('menuitem', { name: 'Payments' }).click();
    await denied.getByRole('cell', { name: 'Walleye Open entry fee' }).click();
    await denied.getByText('Refunded $25.00 · still refundable $55.00').waitFor();
    await expect(denied.getByRole('region', { name: 'Refund', exact: true }).count()).resolves.toBe(0);
    await denied.context().close();
  });

  it('the Owner reads an open ban appeal with the ban\'s reason and overturns it with a reply: the user may act again', async () => {
    const admin = await createUser(t, { role: 'Admin', username: 'console_admin' });
    const appellant = await createUser(t, { username: 'console_appellant' });
    const ban = await banUser(t, admin, appellant, { reason: 'Flooding the lake reports with ads', durationDays: 3 });
    const appealed = await t.app.inject({ method: 'POST', url: `/api/bans/${ban.id}/appeal`, headers: appellant.headers, payload: { text: 'Those were club notices, not ads.' } });
    expect(appealed.statusCode).toBe(201);

    const page = await signIn(owner);
    await page.getByRole('menuitem', { name: 'Ban appeals' }).click();
    const card = page.getByRole('article', { name: 'Appeal of console_appellant' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Flooding the lake reports with ads');
    expect(await card.textContent()).toContain('Those were club notices, not ads.');
    await expectAccessible(page, 'ban-appeals');
    await card.getByLabel('Reply the user reads').fill('Checked with the club: lifted, sorry.');
    await card.getByRole('button', { name: 'Overturn Appeal of console_appellant' }).click();
    await page.getByText('Appeal of console_appellant: overturned, the ban is lifted').waitFor();
    const me = await t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: appellant.headers });
    expect(me.statusCode).toBe(200);
    await page.context().close();
  });
  it('the Owner turns maintenance mode on in System settings with a reason: a banner on every screen, users get 503 from the API; off again, the banner goes', async () => {
    const page = await signIn(owner);
    await page.getByRole('menuitem', { name: 'System settings' }).click();
    await page.getByRole('cell', { name: 'MaintenanceMode', exact: true }).click();
    await page.getByRole('heading', { name: 'MaintenanceMode' }).waitFor();
    const form = page.getByRole('form', { name: 'Change MaintenanceMode' });
    const banner = page.getByRole('status').filter({ hasText: 'Maintenance mode is on' });
    try {
      await form.getByLabel('MaintenanceMode off').check();
      await form.getByLabel('Reason for the change').fill('Database upgrade tonight');
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByText('MaintenanceMode changed').waitFor();
      await banner.waitFor();
      await page.getByRole('region', { name: 'History' }).getByRole('cell', { name: 'Database upgrade tonight' }).waitFor();
      await expectAccessible(page, 'settings-maintenance');
      const refused = await t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: standard.headers });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ code: 'system.maintenance' });
      // The banner follows the Owner to every screen.
      await page.getByRole('menuitem', { name: 'Users' }).click();
      await page.waitForURL(/#\/users/);
      await banner.waitFor();

      await page.getByRole('menuitem', { name: 'System settings' }).click();
      await page.getByRole('cell', { name: 'MaintenanceMode', exact: true }).click();
      await form.getByLabel('MaintenanceMode on').uncheck();
      await form.getByLabel('Reason for the change').fill('Upgrade done');
      await form.getByRole('button', { name: 'Save' }).click();
      await banner.waitFor({ state: 'detached' });
    } finally {
      // Whatever happened above, the rest of the file runs out of maintenance.
      await t.app.inject({ method: 'PUT', url: '/api/admin/system-settings/MaintenanceMode', headers: owner.headers, payload: { value: false, reason: 'Test over' } });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: standard.headers })).statusCode).toBe(200);
    await page.context().close();
  });
  it('the Owner schedules an announcement for Moderators with its banner previewed; it is listed Scheduled and a Standard user does not get it', async () => {
    const page = await signIn(owner);
    await page.getByRole('menuitem', { name: 'Announcements' }).click();
    const form = page.getByRole('form', { name: 'New announcement' });
    await form.getByLabel('Title').fill('Queue review training Friday');
    await form.getByLabel('Text (plain text)').fill('Join the call at 15:00 UTC.');
    await form.getByLabel('Type').click();
    await page.getByRole('option', { name: 'Warning' }).click();
    await form.getByRole('checkbox', { name: 'Moderator' }).check();
    await form.getByLabel('Starts (empty: now)').fill('2030-06-01T09:00');
    const preview = form.getByRole('region', { name: 'Preview' });
    await preview.getByText('Preview, as users see it (Moderator only):').waitFor();
    await preview.getByText('Queue review training Friday').waitFor();
    await form.getByLabel('Reason').fill('Training for the new moderators');
    await expectAccessible(page, 'announcement-new');
    await form.getByRole('button', { name: 'Schedule' }).click();
    await page.getByText('"Queue review training Friday" scheduled').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Queue review training Friday' });
    await row.getByRole('cell', { name: 'Scheduled' }).waitFor();
    await row.getByRole('cell', { name: 'Moderator' }).waitFor();

    const listed = await t.app.inject({ method: 'GET', url: '/api/admin/announcements?status=Scheduled', headers: owner.headers });
    expect(listed.json().find((a: { title: string }) => a.title === 'Queue review training Friday')).toMatchObject({
      type: 'Warning',
      audience: ['Moderator'],
      startsAt: new Date('2030-06-01T09:00').toISOString(),
      dismissal: 'Dismissible',
      status: 'Scheduled',
    });
    const mine = await t.app.inject({ method: 'GET', url: '/api/announcements', headers: standard.headers });
    expect(mine.json().map((a: { title: string }) => a.title)).not.toContain('Queue review training Friday');
    await page.context().close();
  });
  it('the Owner changes an announcement from its page with a reason (the earlier version is listed with it) and deactivates it; a Moderator who may only create sees neither form', async () => {
    const created = await createAnnouncement(t, owner, { title: 'Ramp closed Saturday', body: 'The north ramp is closed for repairs.' });
    const page = await signIn(owner);
    await page.getByRole('menuitem', { name: 'Announcements' }).click();
    await page.getByRole('link', { name: 'Ramp closed Saturday' }).click();
    const form = page.getByRole('form', { name: 'Change Ramp closed Saturday' });
    await form.getByLabel('Title').fill('Ramp closed Saturday and Sunday');
    await form.getByLabel('Priority').click();
    await page.getByRole('option', { name: 'High' }).click();
    await form.getByLabel('Reason').fill('The repairs take two days');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('"Ramp closed Saturday and Sunday" changed').waitFor();
    await page.getByRole('region', { name: 'Earlier versions' }).getByRole('cell', { name: 'The repairs take two days' }).waitFor();
    await expectAccessible(page, 'announcement-page');
    const deactivate = page.getByRole('form', { name: 'Deactivate "Ramp closed Saturday and Sunday"' });
    await deactivate.getByLabel('Reason to deactivate').fill('Repairs finished early');
    await deactivate.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('form', { name: 'Reactivate "Ramp closed Saturday and Sunday"' }).waitFor();
    const stored = await t.app.inject({ method: 'GET', url: `/api/admin/announcements/${created.id}`, headers: owner.headers });
    expect(stored.json()).toMatchObject({ title: 'Ramp closed Saturday and Sunday', priority: 'High', version: 2, isActive: false, status: 'Inactive', deactivationReason: 'Repairs finished early' });
    await page.context().close();

    const writer = await session.signInStaff(owner, { username: 'console_writer', role: 'Moderator', permissions: { 'Announcements.Create': true }, waitFor: 'Announcements' });
    await writer.getByRole('menuitem', { name: 'Announcements' }).click();
    await writer.getByRole('combobox', { name: 'Status' }).waitFor();
    await writer.goto(`${base}/console/#/announcements/${created.id}/show`);
    await writer.getByRole('heading', { name: 'Ramp closed Saturday and Sunday' }).waitFor();
    await expect(writer.getByRole('form').count()).resolves.toBe(0);
    await writer.context().close();
  });
  it('the Owner publishes a photo moderation held, from the photo review queue, with a reason; its post\'s readers then see it', async () => {
    const post = await createPost(t, author, { text: 'Crappie limit before noon', visibility: 'Public' });
    const photo = await uploadPhoto(t, author, `/api/social/posts/${post.id}/photos`);
    await setPhotoVerdict(t, photo.id, 'PendingReview');
    const before = await t.app.inject({ method: 'GET', url: `/api/social/posts/${post.id}`, headers: standard.headers });
    expect(before.json().photos).toEqual([]);

    const page = await signIn(owner);
    await page.getByRole('menuitem', { name: 'Photo review' }).click();
    const card = page.getByRole('article', { name: 'Photo 1 of 1 on a post by console_author' });
    await card.waitFor();
    const image = card.getByRole('img', { name: 'Photo 1 of 1 on a post by console_author (PendingReview)' });
    await expect.poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await card.getByLabel('Reason (kept in the audit log)').fill('A fish photo, nothing against the rules');
    await expectAccessible(page, 'photo-review');
    await card.getByRole('button', { name: 'Publish Photo 1 of 1 on a post by console_author' }).click();
    await page.getByText('Photo 1 of 1 on a post by console_author: published').waitFor();

    const after = await t.app.inject({ method: 'GET', url: `/api/social/posts/${post.id}`, headers: standard.headers });
    expect(after.json().photos).toMatchObject([{ id: photo.id, moderationStatus: 'Published' }]);
    await page.context().close();
  });
  it('the Owner adds a moderation rule that rejects a keyword (a regular expression RE2 cannot compile is refused with the API\'s text), posts with it are rejected with the rule\'s reason, and after deactivation they are published', async () => {
    const page = await signIn(owner);
    await page.getByRole('menuitem', { name: 'Moderation rules' }).click();
    const form = page.getByRole('form', { name: 'New moderation rule' });
    await form.getByLabel('Name').fill('Doubled word');
    await form.getByLabel('Kind').click();
    await page.getByRole('option', { name: 'Regular expression' }).click();
    await form.getByRole('textbox', { name: 'Regular expression' }).fill('\\b(\\w+)\\s+\\1\\b');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await form.getByRole('alert').waitFor();
    // A backreference: RE2 cannot compile it, and the API says so and what to write instead.
    expect(await form.getByRole('alert').textContent()).toMatch(/uses a backreference \(\\1\), which RE2 does not support: write the repeated text out.*\(request [\w-]+\)/);

    await form.getByLabel('Name').fill('Bait shop spam');
    await form.getByLabel('Kind').click();
    await page.getByRole('option', { name: 'Keyword' }).click();
    await form.getByRole('textbox', { name: 'Keyword' }).fill('cheapbaitz');
    await form.getByLabel('Action').click();
    await page.getByRole('option', { name: 'Reject' }).click();
    await form.getByLabel('Reason the author reads').fill('Advertising is not allowed here.');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await page.getByText('Rule "Bait shop spam" added').waitFor();
    await page.getByRole('cell', { name: 'keyword: cheapbaitz' }).waitFor();
    await expectAccessible(page, 'moderation-rules');

    const rejected = await createPost(t, author, { text: 'Visit cheapbaitz for deals', visibility: 'Public' });
    expect(rejected).toMatchObject({ moderationStatus: 'Rejected', moderationReason: 'Advertising is not allowed here.' });

    const row = page.getByRole('row').filter({ hasText: 'Bait shop spam' });
    await row.getByLabel('Reason to deactivate Bait shop spam').fill('The shop closed');
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('Rule "Bait shop spam" deactivated').waitFor();
    const published = await createPost(t, author, { text: 'cheapbaitz closed down, sadly', visibility: 'Public' });
    expect(published.moderationStatus).toBe('Published');
    await page.context().close();
  });
  it('works from the keyboard alone on a tablet-width screen: sign in, open a screen from the menu, act on a card', async () => {
    const post = await createPost(t, author, { text: 'Keyboard walleye, you idiot asshole', visibility: 'Public' });
    expect(post.moderationStatus).toBe('PendingReview');
    const context = await browser.newContext({ viewport: { width: 768, height: 1024 }, reducedMotion: 'reduce' });
    context.setDefaultTimeout(25_000);
    const page = await context.newPage();
    await page.goto(`${base}/console/`);
    await page.getByLabel('Username').waitFor();
    // Tab to each field, type, Enter submits: no pointer.
    const focused = async () => String(await page.evaluate("document.activeElement?.getAttribute('name') ?? ''"));
    for (let i = 0; i < 10 && !/username/i.test(await focused()); i++) await page.keyboard.press('Tab');
    await page.keyboard.type(owner.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(owner.password);
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/dashboard/);
    // At tablet width the menu is a drawer behind the menu button; open it and pick Moderation with the keyboard.
    const menuButton = page.getByRole('button', { name: /open menu|close menu/i });
    if (await menuButton.isVisible()) {
      await menuButton.focus();
      await page.keyboard.press('Enter');
    }
    await page.getByRole('menuitem', { name: 'Moderation', exact: true }).focus();
    await page.keyboard.press('Enter');
    const card = page.getByRole('article', { name: 'Post by console_author' }).filter({ hasText: 'Keyboard walleye' });
    await card.waitFor();
    await expectAccessible(page, 'moderation-tablet');
    await card.getByRole('button', { name: 'Approve Post by console_author' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Post by console_author approved').waitFor();
    const approved = await t.app.inject({ method: 'GET', url: `/api/social/posts/${post.id}`, headers: standard.headers });
    expect(approved.json().moderationStatus).toBe('Published');
    await context.close();
  });
});
