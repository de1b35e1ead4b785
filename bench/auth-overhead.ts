/**
 * What authentication costs: the same tiny handler served public and behind a bearer id token,
 * plus GET /health, measured with autocannon against the real HTTP server on loopback.
 *
 *   npm run bench:auth                 # embedded PostgreSQL in a temp folder
 *   DATABASE_URL=postgres://… npm run bench:auth
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=32 npm run bench:auth
 *
 * Not part of `npm test`: numbers depend on the machine.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Type } from 'typebox';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createIdpUser } from '../src/core/auth/idp/local/local-users.js';
import { openDatabase } from '../src/core/db/client.js';
import { prepareDatabase } from '../src/core/db/prepare.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

async function run(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 };
}

const dataDir = process.env.DATABASE_URL ? undefined : await fs.mkdtemp(path.join(os.tmpdir(), 'fishlog-bench-'));
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000', ...(dataDir ? { FISHLOG_DATA_DIR: dataDir } : {}) });
const database = await openDatabase(config, { processName: 'fishlog-bench', poolSize: 10 });
try {
  await prepareDatabase(database.pool, () => undefined);
  const app = await buildApp({ config, database, logger: false });
  const tiny = { schema: { response: { 200: Type.Object({ ok: Type.Boolean() }) } } };
  app.get('/bench/public', { ...tiny, config: { access: 'public' } }, async () => ({ ok: true }));
  app.get('/bench/authenticated', tiny, async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const username = `bench_${Date.now()}`;
  await createIdpUser(database.db, config.idp.kind === 'local' ? config.idp.scryptCost : 17, { username, email: `${username}@example.com`, password: 'bench-password-1' });
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: 'bench-password-1' } });
  const idToken = (login.json() as { id_token: string }).id_token;
  const auth = { authorization: `Bearer ${idToken}` };

  await run(`${base}/bench/authenticated`, auth); // warm-up: JIT, caches, pool
  const results = {
    health: await run(`${base}/health`),
    public: await run(`${base}/bench/public`),
    authenticated: await run(`${base}/bench/authenticated`, auth),
  };
  const cost = 1 - results.authenticated.rps / results.public.rps;
  console.log(JSON.stringify({ seconds, connections, ...results }, null, 2));
  console.log(`authenticated/public throughput ratio: ${(results.authenticated.rps / results.public.rps).toFixed(3)} (authentication costs ${(cost * 100).toFixed(1)}% of throughput)`);
  console.log(`authenticated/health throughput ratio: ${(results.authenticated.rps / results.health.rps).toFixed(3)}`);
  await app.close();
} finally {
  await database.close();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
}
