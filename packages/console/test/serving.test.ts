import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser } from '../../../test/factories.js';
import { projectRoot } from '../../../src/paths.js';

/** /console: the built console served by the API process, with its caching and CSP; FISHLOG_CONSOLE=false turns it off. */

let on: TestApp;
let off: TestApp;
const dist = path.join(projectRoot, 'packages/console/dist');

beforeAll(async () => {
  // The build skips itself when its inputs are unchanged, and waits for a build under way (the browser test's).
  execFileSync(process.execPath, ['packages/console/scripts/build.mjs'], { cwd: projectRoot, stdio: 'inherit' });
  on = await createTestApp();
  off = await createTestApp({ env: { FISHLOG_CONSOLE: 'false' }, sameDatabaseAs: on });
});
afterAll(async () => {
  await off?.close();
  await on?.close();
});

describe('/console', () => {
  it('serves index.html uncached with a CSP allowing only its own scripts', async () => {
    expect((await on.app.inject({ method: 'GET', url: '/console' })).headers.location).toBe('/console/');
    const res = await on.app.inject({ method: 'GET', url: '/console/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("script-src 'self';");
    expect(res.headers['content-security-policy']).toContain("connect-src 'self'");
    expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it('serves hashed assets immutable, and no source maps or build stamp', async () => {
    const asset = readdirSync(path.join(dist, 'assets')).find((f) => f.endsWith('.js'))!;
    const res = await on.app.inject({ method: 'GET', url: `/console/assets/${asset}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await on.app.inject({ method: 'GET', url: '/console/.build-inputs' })).statusCode).toBe(404);
  });

  it('stays served during maintenance (staff open screens whose scripts are not loaded yet); the API behind it still answers 503 to users', async () => {
    const owner = await createUser(on, { role: 'Owner', username: 'serving_owner' });
    const user = await createUser(on, { username: 'serving_user' });
    const maintenance = (value: boolean) =>
      on.app.inject({ method: 'PUT', url: '/api/admin/system-settings/MaintenanceMode', headers: owner.headers, payload: { value, reason: value ? 'Console files during maintenance' : 'Test over' } });
    expect((await maintenance(true)).statusCode).toBe(200);
    try {
      const asset = readdirSync(path.join(dist, 'assets')).find((f) => f.endsWith('.js'))!;
      expect((await on.app.inject({ method: 'GET', url: `/console/assets/${asset}` })).statusCode).toBe(200);
      expect((await on.app.inject({ method: 'GET', url: '/console/' })).statusCode).toBe(200);
      expect((await on.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: user.headers })).statusCode).toBe(503);
    } finally {
      await maintenance(false);
    }
  });

  it('is not there with FISHLOG_CONSOLE=false', async () => {
    expect((await off.app.inject({ method: 'GET', url: '/console/' })).statusCode).toBe(404);
  });
});
