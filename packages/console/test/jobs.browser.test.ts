import { describe, expect, it } from 'vitest';
import type { Jobs } from '../../../src/core/jobs/jobs.js';
import { CHARTERS_SWEEP } from '../../../src/modules/charters/charters.jobs.js';
import { IDEMPOTENCY_PURGE } from '../../../src/modules/payments/payments.jobs.js';
import { haveChromium, useConsoleInBrowser } from './browser.js';

/**
 * The console's "Jobs and backups" screen in Chromium (./browser.ts): the backups panel from
 * GET /health/ready (`external` here: the tests run on DATABASE_URL), the job queue's jobs with a
 * failure's attempts and last error, narrowed by state (in the URL); shown only with Settings.View.
 */
describe.skipIf(!haveChromium('packages/console/test/jobs.browser.test.ts'))('the console\'s jobs and backups screen in Chromium', { timeout: 60_000 }, () => {
  const session = useConsoleInBrowser({ owner: 'jobs_owner' });

  it('an Admin with Settings.View sees the backups and the jobs, a failed one with its error, and narrows them by state; without it, no menu entry', async () => {
    // The test app queues jobs but works none (FISHLOG_JOBS off): one sweep is made to look failed, as a worker leaves it.
    const jobs = (session.t.app as unknown as { jobs: Jobs }).jobs;
    const failed = await jobs.send(CHARTERS_SWEEP);
    await session.t.database.owner.pool.query(
      `UPDATE pgboss.job SET state = 'failed', retry_count = 5, started_on = now(), completed_on = now(), output = '{"message":"connect ECONNREFUSED 10.0.0.7:5432"}' WHERE id = $1`,
      [failed],
    );
    await jobs.send(IDEMPOTENCY_PURGE);

    const page = await session.signInStaff(session.owner, { username: 'jobs_admin', role: 'Admin', permissions: { 'Settings.View': true }, waitFor: 'Jobs and backups' });
    await page.getByRole('menuitem', { name: 'Jobs and backups', exact: true }).click();
    const backups = page.getByRole('region', { name: 'Backups' });
    await backups.getByText(/WAL archive: external/).waitFor();
    await expect(backups.getByText(/backups belong to that database server's operator/).count()).resolves.toBe(1);
    const rows = page.locator('tbody tr');
    await page.getByRole('cell', { name: IDEMPOTENCY_PURGE.name }).waitFor();
    await page.getByRole('cell', { name: 'connect ECONNREFUSED 10.0.0.7:5432' }).waitFor();
    await expect(rows.count()).resolves.toBe(2);
    await session.expectAccessible(page, 'jobs');

    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'failed' }).click();
    await page.waitForURL(/filter=.*state.*failed/);
    await page.getByRole('cell', { name: IDEMPOTENCY_PURGE.name }).waitFor({ state: 'detached' });
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().getByRole('cell', { name: '6 of 6' }).count()).resolves.toBe(1);
    await expect(rows.first().getByRole('cell', { name: CHARTERS_SWEEP.name }).count()).resolves.toBe(1);
    await session.expectAccessible(page, 'jobs-failed');
    await page.context().close();

    const other = await session.signInStaff(session.owner, { username: 'jobs_other', role: 'Admin', permissions: { 'Settings.View': false }, waitFor: 'Users' });
    await expect(other.getByRole('menuitem', { name: 'Jobs and backups' }).count()).resolves.toBe(0);
    await other.context().close();
  });

  it('the accessibility check fails on a serious violation: text without contrast and a button without a name', async () => {
    const page = await session.newPage();
    await page.setContent('<!doctype html><html lang="en"><title>t</title><main><p style="color:#888;background:#999">Faint</p><button></button></main></html>');
    const failure = await session.expectAccessible(page, 'axe-self-check').then(() => null, (error: { actual?: unknown }) => JSON.stringify(error.actual));
    expect(failure).toMatch(/color-contrast: /);
    expect(failure).toMatch(/button-name: /);
    await page.context().close();
  });
});
