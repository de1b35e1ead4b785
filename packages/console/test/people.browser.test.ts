import { describe, expect, it } from 'vitest';
import { banUser, createEntry, createUser } from '../../../test/factories.js';
import { haveChromium, useConsoleInBrowser } from './browser.js';

/**
 * The console's people screens in Chromium (./browser.ts): a user's activity timeline on the
 * user's page (newest first, paged through the API, the page in the URL); account deletions, with
 * the Owner's legal hold placed and lifted with reasons (Users.LegalHold: no buttons without it).
 */
describe.skipIf(!haveChromium('packages/console/test/people.browser.test.ts'))('the console\'s people screens in Chromium', { timeout: 90_000 }, () => {
  const session = useConsoleInBrowser({ owner: 'people_owner' });

  it('an Admin reads what a user did on the user\'s page, newest first, and pages back (the page in the URL)', async () => {
    const { owner, t } = session;
    const angler = await createUser(t, { username: 'timeline_angler' });
    for (let day = 1; day <= 11; day++) await createEntry(t, angler, { title: `Evening bite ${day}`, occurredAt: new Date(`2026-05-${String(day).padStart(2, '0')}T19:00:00Z`), createdAt: new Date(`2026-05-${String(day).padStart(2, '0')}T20:00:00Z`) });
    await banUser(t, owner, angler, { durationDays: 3, reason: 'Posted a phone number in a comment' });

    const page = await session.signInStaff(owner, { username: 'people_admin', role: 'Admin', permissions: {}, waitFor: 'Users' });
    await page.goto(`${session.base}/console/#/users/${angler.userId}/show`);
    const timeline = page.getByRole('region', { name: 'Activity timeline' });
    const rows = timeline.locator('tbody tr');
    // Newest first: the ban, then the entries from the last one back.
    await timeline.getByRole('cell', { name: 'Posted a phone number in a comment' }).waitFor();
    await expect(rows.first().getByRole('cell', { name: 'Ban', exact: true }).count()).resolves.toBe(1);
    const bites = (await rows.allInnerTexts()).map((text) => /Evening bite (\d+)/.exec(text)?.[1]).filter(Boolean).map(Number);
    expect(bites).toEqual(bites.toSorted((a, b) => b - a));
    expect(bites[0]).toBe(11);
    await expect(rows.count()).resolves.toBe(10);
    await session.expectAccessible(page, 'user-timeline');

    await timeline.getByRole('button', { name: 'Go to page 2' }).click();
    await page.waitForURL(/page=2/);
    await timeline.getByRole('cell', { name: 'Evening bite 1', exact: true }).waitFor();
    const total = Number((await t.app.inject({ method: 'GET', url: `/api/admin/users/${angler.userId}/activity-timeline?pageSize=1`, headers: owner.headers })).headers['x-total-count']);
    await expect(rows.count()).resolves.toBe(total - 10);
    // A reload keeps the page.
    await page.reload();
    await timeline.getByRole('cell', { name: 'Evening bite 1', exact: true }).waitFor();
    await page.context().close();
  });

  it('account deletions: an Admin reads the pending ones without hold buttons; the Owner places a legal hold and lifts it, with reasons, the filter in the URL', async () => {
    const { owner, t } = session;
    for (const username of ['leaving_angler', 'other_leaver']) {
      const user = await createUser(t, { username });
      expect((await t.app.inject({ method: 'POST', url: '/api/account/deletion', headers: user.headers })).statusCode).toBe(202);
    }

    const admin = await session.signInStaff(owner, { username: 'deletions_admin', role: 'Admin', permissions: {}, waitFor: 'Account deletions' });
    await admin.getByRole('menuitem', { name: 'Account deletions', exact: true }).click();
    await admin.getByRole('article', { name: 'leaving_angler' }).waitFor();
    await expect(admin.getByRole('button', { name: /legal hold/ }).count()).resolves.toBe(0);
    await admin.context().close();

    const page = await session.signIn(owner);
    await page.getByRole('menuitem', { name: 'Account deletions', exact: true }).click();
    const card = page.getByRole('article', { name: 'leaving_angler' });
    await card.waitFor();
    await session.expectAccessible(page, 'account-deletions');
    await expect(card.getByRole('button', { name: 'Place legal hold leaving_angler' }).isDisabled()).resolves.toBe(true);
    await card.getByLabel('Reason (kept in the audit log)').fill('Preservation letter from the county attorney, case 26-118');
    await card.getByRole('button', { name: 'Place legal hold leaving_angler' }).click();
    await card.getByText(/since .*: Preservation letter from the county attorney, case 26-118/).waitFor();

    await page.getByRole('combobox', { name: 'Legal hold' }).click();
    await page.getByRole('option', { name: 'On hold', exact: true }).click();
    await page.waitForURL(/filter=.*legalHold.*true/);
    await page.getByRole('article', { name: 'other_leaver' }).waitFor({ state: 'detached' });
    await session.expectAccessible(page, 'account-deletions-on-hold');
    const held = (await session.get('/api/admin/account-deletions?legalHold=true')) as Array<{ username: string; legalHold: { reason: string } }>;
    expect(held.map((d) => [d.username, d.legalHold.reason])).toEqual([['leaving_angler', 'Preservation letter from the county attorney, case 26-118']]);

    await card.getByLabel('Reason (kept in the audit log)').fill('The county attorney released the hold');
    await card.getByRole('button', { name: 'Lift legal hold leaving_angler' }).click();
    await card.waitFor({ state: 'detached' }); // no longer on hold
    expect(await session.get('/api/admin/account-deletions?legalHold=true')).toEqual([]);
    const audit = await t.database.pool.query("SELECT action, reason FROM audit_log WHERE reason IN ('Preservation letter from the county attorney, case 26-118', 'The county attorney released the hold') ORDER BY id");
    expect(audit.rows.map((r) => r.reason)).toEqual(['Preservation letter from the county attorney, case 26-118', 'The county attorney released the hold']);
    await page.context().close();
  });
});
