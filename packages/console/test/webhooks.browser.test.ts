import { describe, expect, it } from 'vitest';
import { haveChromium, useConsoleInBrowser } from './browser.js';

/**
 * The console's Webhooks screen in Chromium (./browser.ts): an Admin registers an endpoint (its
 * secret shown once), opens another whose delivery failed, narrows the log to Failed (in the URL),
 * sends it again with a reason, pings, and deactivates it with a reason; a Moderator has no entry.
 * (The test app works no jobs: deliveries stay as the API leaves them.)
 */
describe.skipIf(!haveChromium('packages/console/test/webhooks.browser.test.ts'))('the console\'s webhooks screen in Chromium', { timeout: 90_000 }, () => {
  const session = useConsoleInBrowser({ owner: 'hooks_owner' });

  it('an Admin registers a webhook, sends a failed delivery again with a reason, pings and deactivates; a Moderator sees no Webhooks entry', async () => {
    const { owner, t } = session;
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/admin/webhooks',
      headers: owner.headers,
      payload: { url: 'https://club.example.com/fishlog/hook', eventTypes: ['charters.booking_requested'], description: 'Club site bookings', reason: 'Club integration' },
    });
    expect(made.statusCode).toBe(201);
    const hook = made.json() as { id: string };
    // One delivery whose retries were used up while the receiver was down (as the worker leaves it).
    const ping = (await t.app.inject({ method: 'POST', url: `/api/admin/webhooks/${hook.id}/ping`, headers: owner.headers })).json() as { id: string };
    await t.database.owner.pool.query(
      "UPDATE webhook_deliveries SET status = 'Failed', attempts = 12, response_status = 503, response_body = 'down for maintenance', error = 'HTTP 503', last_attempt_at = now() WHERE id = $1",
      [ping.id],
    );

    const page = await session.signInStaff(owner, { username: 'hooks_admin', role: 'Admin', permissions: {}, waitFor: 'Webhooks' });
    await page.getByRole('menuitem', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('link', { name: 'https://club.example.com/fishlog/hook' }).waitFor();
    await session.expectAccessible(page, 'webhooks');

    // A new endpoint: the secret is shown this once.
    await page.getByRole('link', { name: 'New webhook' }).click();
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('URL (https://)').fill('https://charters.example.org/hooks/fishlog');
    await form.getByRole('checkbox', { name: 'charters.booking_accepted' }).check();
    await form.getByLabel('Reason').fill('Charter operator integration');
    await form.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByLabel('Signing secret').textContent()).resolves.toMatch(/^whsec_/);
    await session.expectAccessible(page, 'webhook-new');
    const listed = await session.get('/api/admin/webhooks');
    expect(listed.map((w: { url: string }) => w.url)).toContain('https://charters.example.org/hooks/fishlog');

    // The endpoint with the failed delivery: its log narrowed to Failed, in the URL.
    await page.goto(`${session.base}/console/#/webhooks/${hook.id}/show`);
    const deliveries = page.getByRole('region', { name: 'Deliveries' });
    await deliveries.getByRole('cell', { name: 'HTTP 503: down for maintenance' }).waitFor();
    await deliveries.getByRole('combobox', { name: 'Delivery status' }).click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await page.waitForURL(/filter=.*status.*Failed/);
    // Until the log's read is answered (the screenshot shows the narrowed log).
    await expect.poll(() => page.getByRole('progressbar').count(), { timeout: 25_000 }).toBe(0);
    await session.expectAccessible(page, 'webhook');

    // Sent again with a reason: Pending once more.
    const retry = deliveries.getByRole('form', { name: /^Send the ping delivery/ });
    await expect(retry.getByRole('button', { name: 'Retry' }).isDisabled()).resolves.toBe(true);
    await retry.getByLabel('Reason to send again').fill('Club site back up after maintenance');
    await retry.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('The ping delivery is sent again').waitFor();
    await retry.waitFor({ state: 'detached' }); // none Failed any more
    expect((await session.get(`/api/admin/webhooks/${hook.id}/deliveries`))[0]).toMatchObject({ id: ping.id, status: 'Pending', attempts: 12 });
    const audit = await t.database.pool.query("SELECT reason FROM audit_log WHERE action = 'webhooks.delivery_retried' AND target_id = $1", [hook.id]);
    expect(audit.rows).toEqual([{ reason: 'Club site back up after maintenance' }]);

    // A test ping, then deactivation with a reason.
    await page.getByRole('button', { name: 'Send a test ping' }).click();
    await page.getByText('Ping queued: its delivery shows below').waitFor();
    expect(await session.get(`/api/admin/webhooks/${hook.id}/deliveries`)).toHaveLength(2);
    const off = page.getByRole('form', { name: 'Deactivate https://club.example.com/fishlog/hook' });
    await off.getByLabel('Reason to deactivate').fill('Club moved to another booking system');
    await off.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('heading', { name: 'https://club.example.com/fishlog/hook (deactivated)' }).waitFor();
    await expect(page.getByRole('button', { name: 'Send a test ping' }).count()).resolves.toBe(0);
    await page.context().close();

    const moderator = await session.signInStaff(owner, { username: 'hooks_moderator', role: 'Moderator', permissions: { 'Content.Moderate': true }, waitFor: 'Moderation' });
    await expect(moderator.getByRole('menuitem', { name: 'Webhooks' }).count()).resolves.toBe(0);
    await moderator.context().close();
  });
});
