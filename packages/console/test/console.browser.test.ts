import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createPost, createUser, grant, type TestUser } from '../../../test/factories.js';
import { projectRoot } from '../../../src/paths.js';

/**
 * The staff console in a real browser: Playwright (playwright-core) driving Debian's Chromium
 * against a test app listening on 127.0.0.1, which serves the built console at /console.
 * Without Chromium the file is skipped with the reason printed; with CI=true a missing Chromium fails.
 * Screenshots go to .tmp/console-screenshots/ (not committed).
 */
const executablePath = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(executablePath);
if (!haveChromium) {
  if (process.env.CI === 'true') throw new Error(`Chromium is missing at ${executablePath}: .ci/run installs Debian's chromium package (apt-get install chromium)`);
  process.stdout.write(`SKIPPED packages/console/test/console.browser.test.ts: no Chromium at ${executablePath} (apt-get install chromium, or set PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH)\n`);
}
const screenshots = path.join(projectRoot, '.tmp', 'console-screenshots');

describe.skipIf(!haveChromium)('the staff console in Chromium', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let owner: TestUser;
  let moderator: TestUser;
  let standard: TestUser;
  let author: TestUser;

  beforeAll(async () => {
    if (!existsSync(path.join(projectRoot, 'packages/console/dist/index.html'))) execFileSync(process.execPath, ['packages/console/scripts/build.mjs'], { cwd: projectRoot, stdio: 'inherit' });
    mkdirSync(screenshots, { recursive: true });
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    owner = await createUser(t, { role: 'Owner', username: 'console_owner' });
    moderator = await createUser(t, { role: 'Moderator', username: 'console_mod' });
    standard = await createUser(t, { username: 'console_std' });
    author = await createUser(t, { username: 'console_author' });
    browser = await chromium.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  // axe needs a page of a context made with browser.newContext(); each page gets its own (its own sessionStorage).
  const newPage = async () => (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();

  async function signIn(user: TestUser, at = '/console/'): Promise<Page> {
    const page = await newPage();
    await page.goto(`${base}${at}`);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    return page;
  }

  async function expectAccessible(page: Page, screen: string): Promise<void> {
    await page.screenshot({ path: path.join(screenshots, `${screen}.png`), fullPage: true });
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), screen).toEqual([]);
  }

  it('serves the sign-in page, accessible, its script from its own origin only', async () => {
    const page = await newPage();
    const response = await page.goto(`${base}/console/`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { name: 'fishlog staff console' }).waitFor();
    await expectAccessible(page, 'sign-in');
    await page.context().close();
  });

  it('a Moderator granted only Content.Approve sees only moderation and approves a flagged post, which then shows in the public feed', async () => {
    await grant(t, owner, moderator, 'Content.Approve', true);
    const post = await createPost(t, author, { text: 'Walleye at dawn, you idiot asshole', visibility: 'Public' });
    expect(post.moderationStatus).toBe('PendingReview');

    const page = await signIn(moderator);
    const card = page.getByRole('article', { name: 'Post by console_author' });
    await card.waitFor();
    const menu = await page.getByRole('menuitem').allTextContents();
    expect(menu.map((m) => m.trim())).toEqual(['Moderation']);
    await expect(card.getByText('Walleye at dawn').isVisible()).resolves.toBe(true);
    // Rejecting needs Content.Moderate, which this Moderator does not hold: no Reject button.
    await expect(card.getByRole('button', { name: /^Reject/ }).count()).resolves.toBe(0);
    await expectAccessible(page, 'moderation-queue');

    await card.getByRole('button', { name: 'Approve Post by console_author' }).click();
    await page.getByText('Post by console_author approved').waitFor();
    const feed = await t.app.inject({ method: 'GET', url: '/api/social/posts?pageSize=50', headers: standard.headers });
    expect(feed.json().map((p: { id: string }) => p.id)).toContain(post.id);
    await page.context().close();
  });

  it('a Standard user sees "no access"', async () => {
    const page = await signIn(standard);
    await page.getByRole('heading', { name: 'No access' }).waitFor();
    await expect(page.getByText('whose role is Standard').isVisible()).resolves.toBe(true);
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
});
