import { describe, expect, it } from 'vitest';
import { banUser, createEntry, createUser } from '../../../test/factories.js';
import { haveChromium, useConsoleInBrowser } from './browser.js';

/**
 * The console's people screens in Chromium (./browser.ts): a user's activity timeline on the
 * user's page (newest first, paged through the API, the page in the URL).
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
});
