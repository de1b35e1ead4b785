import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { APPLICATION, createEvent, createFishingReport, createOrganizer, createTournament, createUser } from '../../../test/factories.js';
import { haveChromium, useConsoleInBrowser } from './browser.js';

/**
 * The console's community queues in Chromium (./browser.ts): events, tournaments, organizers,
 * charter captains and fishing reports decided with a reason through the page, each checked
 * through the API after; each decision shown only to whoever holds its permission.
 */
describe.skipIf(!haveChromium('packages/console/test/community.browser.test.ts'))('the console\'s community screens in Chromium', { timeout: 90_000 }, () => {
  const session = useConsoleInBrowser({ owner: 'community_owner' });
  const { signIn, expectAccessible } = session;
  const api = session.get;
  /** The reasons the audit log keeps about a record. */
  const auditReasons = async (targetId: string) => ((await api(`/api/admin/audit-logs?targetId=${targetId}`)) as Array<{ reason: string | null }>).map((e) => e.reason);
  /** Opens `screen` from the menu, types `reason` on the card named `card` and presses `decision`, then waits for the notice. */
  async function decide(page: Page, screen: string, card: string, decision: string, reason: string | undefined, done: string) {
    await page.getByRole('menuitem', { name: screen, exact: true }).click();
    const article = page.getByRole('article', { name: card });
    await article.waitFor();
    if (reason !== undefined) await article.getByRole('textbox').fill(reason);
    await article.getByRole('button', { name: `${decision} ${card}` }).click();
    await page.getByText(`${card}: ${done}`).waitFor();
  }

  it('the Owner rejects an event, approves a tournament and verifies its organizer, each with a reason', async () => {
    const proposer = await createUser(session.t, { username: 'community_proposer' });
    const event = await createEvent(session.t, proposer, { title: 'Ice fishing safety night' });
    const organizer = await createOrganizer(session.t, { status: 'Pending', name: 'Brainerd Bass Club' });
    const tournament = await createTournament(session.t, await createOrganizer(session.t, { name: 'Gull Lake Anglers' }), { status: 'PendingApproval', overrides: { name: 'Gull Lake Open' } });

    const page = await signIn(session.owner);
    await page.getByRole('menuitem', { name: 'Events', exact: true }).click();
    await page.getByRole('article', { name: 'Ice fishing safety night' }).waitFor();
    await expectAccessible(page, 'community-events');
    await decide(page, 'Events', 'Ice fishing safety night', 'Reject', 'The venue is a private home', 'rejected');
    expect(await api(`/api/admin/events?status=Rejected`)).toEqual(expect.arrayContaining([expect.objectContaining({ id: event.id, rejectionReason: 'The venue is a private home' })]));

    await decide(page, 'Organizers', 'Brainerd Bass Club', 'Verify', 'Club registration checked', 'verified');
    await expectAccessible(page, 'community-organizers');
    expect(await api(`/api/admin/organizers/${organizer.organizerId}`)).toMatchObject({ status: 'Verified' });
    expect(await auditReasons(organizer.organizerId)).toContain('Club registration checked');

    await page.getByRole('menuitem', { name: 'Tournaments', exact: true }).click();
    await page.getByRole('article', { name: 'Gull Lake Open' }).getByText('Entry fee').waitFor();
    await expectAccessible(page, 'community-tournaments');
    await decide(page, 'Tournaments', 'Gull Lake Open', 'Approve', 'Rules and prizes checked', 'approved');
    expect(await api(`/api/admin/tournaments/${tournament.id}`)).toMatchObject({ status: 'Approved' });
    expect(await auditReasons(tournament.id)).toContain('Rules and prizes checked');
    await page.context().close();
  });

  it('the Owner verifies a charter captain and publishes a held fishing report, with reasons', async () => {
    const captain = await createUser(session.t, { username: 'community_captain' });
    const applied = await session.t.app.inject({ method: 'POST', url: '/api/charter/captains', headers: captain.headers, payload: { ...APPLICATION, vesselName: 'Reel Deal' } });
    expect(applied.statusCode).toBe(201);
    const author = await createUser(session.t, { username: 'community_author' });
    // Reports mentioning "guide service" are held for a moderator (a flag rule for posts applies to reports).
    const rule = await session.t.app.inject({
      method: 'POST',
      url: '/api/admin/moderation-rules',
      headers: session.owner.headers,
      payload: { name: 'Guides', kind: 'keyword', pattern: 'guide service', action: 'flag', category: 'spam', appliesTo: ['post'] },
    });
    expect(rule.statusCode).toBe(201);
    const report = await createFishingReport(session.t, author, { waterBody: 'Leech Lake', text: 'Call my guide service for the hot spots' });
    expect(report.status).toBe('PendingReview');

    const page = await signIn(session.owner);
    await decide(page, 'Charter captains', 'Captain of Reel Deal', 'Verify', 'Licence and insurance checked', 'verified');
    await expectAccessible(page, 'community-captains');
    expect(await api(`/api/admin/charter/captains/${captain.userId}`)).toMatchObject({ status: 'Verified', reviewReason: 'Licence and insurance checked' });

    await decide(page, 'Fishing reports', 'Report on Leech Lake by community_author', 'Publish', 'A fair mention of a guide', 'published');
    await expectAccessible(page, 'community-fishing-reports');
    const published = await api(`/api/reports/${report.id}`);
    expect(published).toMatchObject({ status: 'Published' });
    await page.context().close();
  });

  it('a Moderator granted Events.View and Events.Reject sees only Events, with Reject and no Approve', async () => {
    const proposer = await createUser(session.t, { username: 'community_proposer2' });
    await createEvent(session.t, proposer, { title: 'Kids casting clinic' });
    const page = await session.signInStaff(session.owner, { username: 'community_events', role: 'Moderator', permissions: { 'Events.View': true, 'Events.Reject': true }, waitFor: 'Events' });
    expect((await page.getByRole('menuitem').allTextContents()).map((m) => m.trim())).toEqual(['Events']);
    await page.getByRole('menuitem', { name: 'Events', exact: true }).click();
    const card = page.getByRole('article', { name: 'Kids casting clinic' });
    await card.getByRole('button', { name: 'Reject Kids casting clinic' }).waitFor();
    await expect(card.getByRole('button', { name: 'Approve Kids casting clinic' }).count()).resolves.toBe(0);
    await page.context().close();
  });
});
