import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createClub, createSpot, createUser } from '../../../test/factories.js';
import { haveChromium, useConsoleInBrowser } from './browser.js';

/**
 * The console's Spots and Clubs screens in Chromium (./browser.ts), over the administrators'
 * lists (GET /api/admin/spots, /api/admin/clubs): a spot verified, corrected, deactivated, found
 * again among the inactive ones (the filter in the URL) and reactivated, each with its reason; a
 * club featured and deactivated; statuses read as words in the community queues; Admin and Owner only.
 */
describe.skipIf(!haveChromium('packages/console/test/spots-clubs.browser.test.ts'))('the console\'s spots and clubs screens in Chromium', { timeout: 90_000 }, () => {
  const session = useConsoleInBrowser({ owner: 'places_owner' });
  /** Until the list's reads are answered (no progress bar: react-admin's, unnamed, would fail axe mid-load). */
  const loaded = (page: Page) => expect.poll(() => page.getByRole('progressbar').count(), { timeout: 25_000 }).toBe(0);

  it('an Admin verifies, corrects, deactivates and reactivates a spot, and features and deactivates a club, each with a reason; a Moderator has neither', async () => {
    const { t, owner } = session;
    const angler = await createUser(t, { username: 'places_angler' });
    const spot = await createSpot(t, angler, { name: 'Kabetogama narrows', waterBody: 'Lake Kabetogma', stateCode: 'US-MN' });
    const club = await createClub(t, angler, { name: 'Kabetogama Walleye Club', homeWater: 'Lake Kabetogama' });

    const page = await session.signInStaff(owner, { username: 'places_admin', role: 'Admin', permissions: {}, waitFor: 'Spots' });
    await page.getByRole('menuitem', { name: 'Spots', exact: true }).click();
    await page.getByRole('textbox', { name: 'Name, water or county' }).fill('Kabetogama');
    await page.waitForURL(/filter=.*Kabetogama/);
    const card = page.getByRole('article', { name: 'Kabetogama narrows' });
    await card.waitFor();
    await loaded(page);
    await expect(card.getByText('added by places_angler').count()).resolves.toBe(1);
    await session.expectAccessible(page, 'spots');

    // Verified with a note; corrected with a reason.
    await card.getByLabel('Reason (kept in the audit log)').fill('Checked against the county access map');
    await card.getByRole('button', { name: 'Verify Kabetogama narrows' }).click();
    await page.getByText('Kabetogama narrows: verified').waitFor();
    await card.getByText('Correct Kabetogama narrows').click();
    const correct = card.getByRole('form', { name: 'Correct Kabetogama narrows' });
    await correct.getByLabel('Water body').fill('Lake Kabetogama');
    await correct.getByLabel('Reason').fill('The water body was misspelt');
    await correct.getByRole('button', { name: 'Correct' }).click();
    await page.getByText('Kabetogama narrows corrected').waitFor();
    const [listed] = await session.get('/api/admin/spots?q=Kabetogama%20narrows');
    expect(listed).toMatchObject({ id: spot.id, status: 'Verified', waterBody: 'Lake Kabetogama' });

    // Deactivated: gone from the active ones, found among the inactive ones (in the URL), reactivated.
    await card.getByLabel('Reason (kept in the audit log)').fill('Private land since the sale');
    await card.getByRole('button', { name: 'Deactivate Kabetogama narrows' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Inactive' }).click();
    await page.waitForURL(/filter=.*status.*Inactive/);
    await card.getByText(/Private land since the sale/).waitFor();
    await loaded(page);
    await session.expectAccessible(page, 'spots-inactive');
    await page.reload();
    await card.getByLabel('Reason (kept in the audit log)').fill('The new owner keeps the access open');
    await card.getByRole('button', { name: 'Reactivate Kabetogama narrows' }).click();
    await card.waitFor({ state: 'detached' });
    expect((await session.get('/api/admin/spots?q=Kabetogama%20narrows'))[0]).toMatchObject({ isActive: true, deactivationReason: null });
    const audit = await t.database.pool.query('SELECT action, reason FROM audit_log WHERE target_id = $1 ORDER BY id', [spot.id]);
    expect(audit.rows.map((r) => r.reason)).toEqual(['Checked against the county access map', 'The water body was misspelt', 'Private land since the sale', 'The new owner keeps the access open']);

    // A club: featured, then deactivated, with reasons.
    await page.getByRole('menuitem', { name: 'Clubs', exact: true }).click();
    const clubCard = page.getByRole('article', { name: 'Kabetogama Walleye Club' });
    await clubCard.getByText('1 member (1 running it), 0 requests to join waiting').waitFor();
    await clubCard.getByLabel('Reason (kept in the audit log)').fill('Club of the month');
    await clubCard.getByRole('button', { name: 'Feature Kabetogama Walleye Club' }).click();
    await clubCard.getByRole('button', { name: 'Stop featuring Kabetogama Walleye Club' }).waitFor();
    await loaded(page);
    await session.expectAccessible(page, 'clubs');
    await clubCard.getByLabel('Reason (kept in the audit log)').fill('Advertises a charter business');
    await clubCard.getByRole('button', { name: 'Deactivate Kabetogama Walleye Club' }).click();
    await clubCard.waitFor({ state: 'detached' });
    expect((await session.get('/api/admin/clubs?q=Kabetogama&status=Inactive'))[0]).toMatchObject({ id: club.id, isActive: false, featured: true, deactivationReason: 'Advertises a charter business' });
    await page.context().close();

    // The community queues name their statuses as words.
    const ownerPage = await session.signIn(owner);
    await ownerPage.getByRole('menuitem', { name: 'Events', exact: true }).click();
    await expect(ownerPage.getByRole('combobox', { name: 'Status' }).textContent()).resolves.toBe('Pending approval');
    await ownerPage.context().close();

    const moderator = await session.signInStaff(owner, { username: 'places_moderator', role: 'Moderator', permissions: { 'Content.Moderate': true }, waitFor: 'Moderation' });
    await expect(moderator.getByRole('menuitem', { name: 'Spots' }).count()).resolves.toBe(0);
    await expect(moderator.getByRole('menuitem', { name: 'Clubs' }).count()).resolves.toBe(0);
    await moderator.context().close();
  });
});
