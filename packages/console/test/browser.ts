import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, grant, type TestUser } from '../../../test/factories.js';
import { projectRoot } from '../../../src/paths.js';

/**
 * The staff console in a real browser, for the browser test files: Playwright (playwright-core)
 * driving Debian's Chromium against a test app listening on 127.0.0.1, which serves the built
 * console at /console. Without Chromium a file is skipped with the reason printed; with CI=true a
 * missing Chromium fails. Screenshots go to .tmp/console-screenshots/ (not committed).
 *
 * The browser is Chromium's headless shell when it is installed (Debian's `chromium-headless-shell`,
 * built from the same sources as its `chromium`; the build Playwright itself runs headless tests in):
 * the same Blink and V8 without the desktop browser around them, measured at about a third less CPU
 * for the same test file. Else Debian's `chromium`. PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH picks another.
 */
export const executablePath =
  process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file)) ?? '/usr/bin/chromium';

/**
 * axe-core's own script, evaluated once in each page that is checked; `axe.run` then checks the
 * page as it is. (@axe-core/playwright injects the script again on every check and finishes each
 * one in a new blank page: 20 checks of the console's main test file take 28 s that way, 8 s this way.)
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The ids of axe's rules, enabled by default, that can report a serious or critical violation: a
 * rule's impact is its own or the highest of its checks' (axe's metadata). An expression evaluated
 * in the page. The rules whose checks can only be minor or moderate (landmarks, heading order …)
 * cost a third of a check's time for violations the tests do not assert.
 */
const RULES_THAT_CAN_BE_SERIOUS = `axe._audit.rules
  .filter((rule) => rule.enabled && !rule.tags.includes('experimental'))
  .filter((rule) => ['serious', 'critical'].includes(rule.impact) || [...rule.any, ...rule.all, ...rule.none].some((check) => ['serious', 'critical'].includes(axe._audit.data.checks[check.id ?? check]?.impact)))
  .map((rule) => rule.id)`;

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}
/**
 * V8 in the test pages runs the console's script without its optimizing compilers (TurboFan,
 * Maglev): a test page lives a few seconds, too short for optimized code to pay for compiling it.
 * The same script, the same behaviour; measured on catalog.browser.test.ts, the renderer's CPU fell
 * from 24.0–25.3 s to 20.7–21.5 s (`--js-flags` changes how fast V8 runs it, not what it does).
 */
const TEST_PAGE_JS_FLAGS = '--js-flags=--no-opt --no-maglev';

export const screenshots = path.join(projectRoot, '.tmp', 'console-screenshots');

/** Whether Chromium is there; prints why `file` is skipped when it is not (and fails under CI=true). */
export function haveChromium(file: string): boolean {
  if (existsSync(executablePath)) return true;
  if (process.env.CI === 'true') throw new Error(`Chromium is missing at ${executablePath}: .ci/run installs Debian's chromium package (apt-get install chromium)`);
  process.stdout.write(`SKIPPED ${file}: no Chromium at ${executablePath} (apt-get install chromium, or set PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH)\n`);
  return false;
}

export interface ConsoleSession {
  t: TestApp;
  /** The Owner made for the file (`useConsoleInBrowser({ owner })`). */
  owner: TestUser;
  base: string;
  browser: Browser;
  /** A page of its own context (its own sessionStorage), 1280 × 800, reduced motion, 25 s a step. */
  newPage(): Promise<Page>;
  /** GET `url` through the API as `user` (the file's Owner by default): the parsed body. */
  get(url: string, user?: TestUser): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read what they assert
  /** A new page, signed in as `user` (at `at`, the console's start by default). */
  signIn(user: TestUser, at?: string): Promise<Page>;
  /** A screenshot of the page under `screen`, and axe: no serious or critical violation. */
  expectAccessible(page: Page, screen: string): Promise<void>;
  /** A new staff member (`role`) given or denied `permissions` by `owner`, signed in, once the menu shows `waitFor`. */
  signInStaff(owner: TestUser, staff: { username: string; role: 'Moderator' | 'Admin'; permissions: Record<string, boolean>; waitFor: string }): Promise<Page>;
}

/** In a describe block: builds the console (skipped when unchanged), starts a test app and Chromium (and makes an Owner named `owner`); stops them after. */
export function useConsoleInBrowser(options: { owner?: string } = {}): ConsoleSession {
  let dataDir: string;
  const session = {
    // Each page gets a context of its own (its own sessionStorage).
    // Reduced motion: the console then draws no transitions, and axe never measures a notice halfway through fading in.
    // Each step waits at most 25 s (a loaded 2-core machine runs the suite beside it): a step that fails names its locator before the test's own timeout.
    async newPage() {
      const context = await session.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
      context.setDefaultTimeout(25_000);
      return context.newPage();
    },
    async get(url: string, user?: TestUser) {
      return (await session.t.app.inject({ method: 'GET', url, headers: (user ?? session.owner).headers })).json();
    },
    async signIn(user: TestUser, at = '/console/') {
      const page = await session.newPage();
      await page.goto(`${session.base}${at}`);
      await page.getByLabel('Username').fill(user.username);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      return page;
    },
    async expectAccessible(page: Page, screen: string) {
      await page.screenshot({ path: path.join(screenshots, `${screen}.png`), fullPage: true });
      if (!(await page.evaluate("typeof axe !== 'undefined'"))) await page.evaluate(axeSource);
      // Only violations are collected (axe's resultTypes): passes and inapplicable rules are not listed node by node.
      // And only the rules that can fail at a serious or critical impact run (RULES_THAT_CAN_BE_SERIOUS): the others' violations are not asserted.
      const { violations } = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'rule', values: ${RULES_THAT_CAN_BE_SERIOUS} } })`)) as {
        violations: AxeViolation[];
      };
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), screen).toEqual([]);
    },
    async signInStaff(owner: TestUser, staff: { username: string; role: 'Moderator' | 'Admin'; permissions: Record<string, boolean>; waitFor: string }) {
      const user = await createUser(session.t, { role: staff.role, username: staff.username });
      for (const [permission, granted] of Object.entries(staff.permissions)) await grant(session.t, owner, user, permission, granted);
      const page = await session.signIn(user);
      await page.getByRole('menuitem', { name: staff.waitFor, exact: true }).waitFor();
      return page;
    },
  } as ConsoleSession;

  beforeAll(async () => {
    // The build skips itself when its inputs are unchanged: the browser always tests the console as the sources are.
    execFileSync(process.execPath, ['packages/console/scripts/build.mjs'], { cwd: projectRoot, stdio: 'inherit' });
    mkdirSync(screenshots, { recursive: true });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'fishlog-console-test-'));
    session.t = await createTestApp({ env: { FISHLOG_DATA_DIR: dataDir } });
    await session.t.app.listen({ host: '127.0.0.1', port: 0 });
    session.base = `http://127.0.0.1:${(session.t.app.server.address() as AddressInfo).port}`;
    if (options.owner) session.owner = await createUser(session.t, { role: 'Owner', username: options.owner });
    session.browser = await chromium.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', TEST_PAGE_JS_FLAGS],
    });
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.t?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return session;
}
