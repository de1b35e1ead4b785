/**
 * The audit-log export streams: GET /api/admin/audit-logs/export over HTTP on a log of
 * 1,000,000 entries (BENCH_AUDIT_ROWS), with the process's RSS sampled every 50 ms while the
 * whole export is read. Goal: at most 100 MB of RSS growth over the level before the export.
 *
 *   npx tsx bench/audit-export.bench.ts                  # embedded PostgreSQL in a temp folder
 *   DATABASE_URL=postgres://… npx tsx bench/audit-export.bench.ts   (a throw-away database there)
 *   BENCH_AUDIT_FORMAT=csv BENCH_AUDIT_ROWS=200000 npx tsx bench/audit-export.bench.ts
 *
 * The rows are inserted with INSERT … SELECT generate_series (their hashes are not a valid
 * chain: the bench measures the stream, not the verification). Not part of `npm test`.
 */
import http from 'node:http';
import { buildApp } from '../src/app.js';
import { benchConfig } from './bench-config.js';
import { createIdpUser } from '../src/core/auth/idp/local/local-users.js';
import { Role } from '../src/core/access/roles.js';
import { openDatabase } from '../src/core/db/client.js';
import { prepareDatabase } from '../src/core/db/prepare.js';
import { setRole, upsertFromClaims } from '../src/modules/users/users.repository.js';

const rows = Number(process.env.BENCH_AUDIT_ROWS ?? 1_000_000);
const format = process.env.BENCH_AUDIT_FORMAT === 'csv' ? 'csv' : 'ndjson';
const GOAL_MB = 100;

const { config, cleanup } = await benchConfig('fishlog-bench-audit');
const database = await openDatabase(config, { processName: 'fishlog-bench', poolSize: 10 });
try {
  await prepareDatabase(database.pool, () => undefined);
  const idp = await createIdpUser(database.db, 10, { username: 'bench_auditor', email: 'auditor@example.com', password: 'bench-password-1' });
  const auditor = await upsertFromClaims(database.db, { sub: idp.sub, username: 'bench_auditor', email: 'auditor@example.com' });
  await setRole(database.db, auditor.id, Role.Owner);
  const started = Date.now();
  await database.pool.query(
    `INSERT INTO audit_log (occurred_at, actor_type, actor_user_id, action, target_type, target_id, reason, before, after, ip_address, user_agent, request_id, prev_hash, hash)
     SELECT now() - ((${rows} - g) || ' milliseconds')::interval, 'user', $1::uuid, 'bench.action_' || (g % 20), 'bench', 'target-' || g,
            'bench reason number ' || g, jsonb_build_object('n', g), jsonb_build_object('n', g + 1, 'note', 'after'), '203.0.113.7',
            'bench-agent/1.0', 'req-' || g, md5(g::text) || md5((g + 1)::text), md5((g + 2)::text) || md5((g + 3)::text)
     FROM generate_series(1, ${rows}) g`,
    [auditor.id],
  );
  await database.pool.query('VACUUM ANALYZE audit_log');
  process.stderr.write(`inserted ${rows} audit rows in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'bench_auditor', password: 'bench-password-1' } });
  const token = (login.json() as { id_token: string }).id_token;

  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const streamStarted = Date.now();
  const { bytes, lines } = await new Promise<{ bytes: number; lines: number }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: `/api/admin/audit-logs/export?format=${format}`, headers: { authorization: `Bearer ${token}` } }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`export answered ${response.statusCode}`));
      let total = 0;
      let newlines = 0;
      response.on('data', (chunk: Buffer) => {
        total += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
      });
      response.on('end', () => resolve({ bytes: total, lines: newlines }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  // Less the header line (CSV) and the seal line.
  const exported = (format === 'csv' ? lines - 1 : lines) - 1;
  const rssGrowthMb = Math.round(((peak - baseline) / 1_048_576) * 10) / 10;
  await app.close();
  // The bench's own process serves and reads: the growth covers both ends of the stream.
  console.log(
    JSON.stringify({
      name: `audit-log export (${format}, streamed over HTTP)`,
      rows: exported,
      bytes,
      seconds: Math.round((Date.now() - streamStarted) / 100) / 10,
      baselineRssMb: Math.round(baseline / 1_048_576),
      rssGrowthMb,
      goal: `<= ${GOAL_MB} MB`,
      ok: rssGrowthMb <= GOAL_MB && exported >= rows,
    }),
  );
} finally {
  await database.close();
  await cleanup();
}
