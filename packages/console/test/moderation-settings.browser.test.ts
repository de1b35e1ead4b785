import { describe, expect, it } from 'vitest';
import { haveChromium, useConsoleInBrowser } from './browser.js';

/**
 * The console's moderation provider settings in Chromium (./browser.ts): this month's figures, a
 * change of provider refused without an API key (the API's text shown, what was typed kept), then
 * accepted with one (the key write-only: only "one is set" shows); Admin and Owner only.
 */
describe.skipIf(!haveChromium('packages/console/test/moderation-settings.browser.test.ts'))('the console\'s moderation settings in Chromium', { timeout: 90_000 }, () => {
  const session = useConsoleInBrowser({ owner: 'modset_owner' });

  it('an Admin switches to the openai provider: refused without a key, saved with one, the key never shown; a Moderator has no entry', async () => {
    const page = await session.signInStaff(session.owner, { username: 'modset_admin', role: 'Admin', permissions: {}, waitFor: 'Moderation settings' });
    await page.getByRole('menuitem', { name: 'Moderation settings', exact: true }).click();
    const month = page.getByRole('region', { name: /^This month/ });
    await month.getByText('Provider calls').waitFor();
    await expect(month.getByText('Waiting for review').count()).resolves.toBe(1);
    const form = page.getByRole('form', { name: 'Change the moderation settings' });
    await expect(form.getByRole('combobox', { name: 'Provider' }).textContent()).resolves.toBe('local');
    await session.expectAccessible(page, 'moderation-settings');

    await form.getByRole('combobox', { name: 'Provider' }).click();
    await page.getByRole('option', { name: 'openai' }).click();
    await form.getByLabel('Thresholds per category').fill('harassment=0.4, spam=0.8');
    await form.getByLabel('Monthly budget (USD)').fill('25');
    await form.getByRole('button', { name: 'Save' }).click();
    const refusal = form.getByRole('alert');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toMatch(/apiKey|API key/);
    await expect(form.getByLabel('Monthly budget (USD)').inputValue()).resolves.toBe('25');
    await session.expectAccessible(page, 'moderation-settings-refused');

    await form.getByLabel('API key (none set)').fill('sk-test-console-key-123');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Moderation settings saved').waitFor();
    await form.getByLabel('New API key (one is set)').waitFor();
    await expect(form.getByLabel('New API key (one is set)').inputValue()).resolves.toBe('');
    const saved = await session.get('/api/admin/moderation-settings');
    expect(saved).toMatchObject({ provider: 'openai', apiKeySet: true, thresholds: { harassment: 0.4, spam: 0.8 }, monthlyBudgetUsd: 25 });
    await expect(page.content()).resolves.not.toContain('sk-test-console-key-123');
    await page.context().close();

    const moderator = await session.signInStaff(session.owner, { username: 'modset_moderator', role: 'Moderator', permissions: { 'Content.Moderate': true }, waitFor: 'Moderation' });
    await expect(moderator.getByRole('menuitem', { name: 'Moderation settings' }).count()).resolves.toBe(0);
    await moderator.context().close();
  });
});
