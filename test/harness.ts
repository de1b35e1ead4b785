import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { createDb, openDatabase, type Database, type Db } from '../src/core/db/client.js';
import type { IdentityProvider } from '../src/core/auth/idp/types.js';
import { Registries } from '../src/core/registries.js';
import { checkResponsesAgainstOpenApi } from './conformance.js';
import { replicaCountsFile } from './replica-cluster.js';

/** Test harness: one database per test file, cloned from the run's migrated template. */

function withDatabase(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const { adminUrl } = inject('testDb');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Drops a test database once the connections closing on it are gone (a plain DROP fails with
 * 55006 while they linger). Forcing it at once would kill connections that a pool is still ending,
 * and their clients would report the termination as an uncaught error.
 */
async function dropDatabase(name: string): Promise<void> {
  for (let attempt = 1; attempt <= 30; attempt++) {
    try {
      await adminQuery(`DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006') throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A fresh database cloned from the template (migrated and seeded). */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const { adminUrl, template, prefix, cloneStrategy } = inject('testDb');
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const source = options.empty ? 'template0' : template;
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${source} STRATEGY ${cloneStrategy}`);
      break;
    } catch (error) {
      // 55006: the template is briefly in use by another worker's clone
      if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
  return {
    name,
    url: withDatabase(adminUrl, name),
    drop: () => dropDatabase(name),
  };
}

/**
 * For the tests of a `describe` block that need a PostgreSQL but none of the schema: an empty
 * database (from template0), a pool of two connections on it and its Drizzle handle, made before
 * the block's tests (`beforeAll`) and ended and dropped after them. Read `pool` and `db` in tests
 * and hooks registered after this call, not at collection time.
 */
export function scratchDatabase(): { readonly pool: pg.Pool; readonly db: Db } {
  let target: TestDatabase | undefined;
  const scratch = {} as { pool: pg.Pool; db: Db };
  beforeAll(async () => {
    target = await createTestDatabase({ empty: true });
    scratch.pool = new pg.Pool({ connectionString: target.url, max: 2 });
    scratch.db = createDb(scratch.pool);
  });
  afterAll(async () => {
    await scratch.pool?.end();
    await target?.drop();
  });
  return scratch;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  // Cheaper password hashing keeps the suite fast; production uses OWASP's cost (17).
  // The run's keys (vitest.config.ts): every app of the run, and the template's seeds, chain the
  // audit log with the same key, and no key file is written into the working folder.
  const keys = Object.fromEntries(
    (['FISHLOG_AUDIT_KEY', 'FISHLOG_SETTINGS_KEY'] as const).flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])),
  );
  // Tests create dozens of users at once (each signs in): a long sign-in queue instead of the
  // production's 503 after 16 waiters (src/modules/accounts tests set their own queue to test that).
  // Job workers run only where a test asks for them (FISHLOG_JOBS=true): the others call the
  // jobs' service functions with their own clock, and a hundred apps polling would load the database.
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', FISHLOG_SCRYPT_COST: '10', FISHLOG_HASH_QUEUE: '1000', FISHLOG_JOBS: 'false', ...keys, ...overrides });
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** The app's registries (what its modules registered), for services a test calls directly (`paymentsOf(testApp)`). */
  registries: Registries;
  testDatabase: TestDatabase;
  close(): Promise<void>;
}

/**
 * The real app on its own database. `configure` may add routes (e.g. test-only probes)
 * before the app is made ready.
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    configure?: (app: FastifyInstance) => void | Promise<void>;
    idp?: IdentityProvider;
    now?: () => number;
    /** Another process of the same deployment: the same database, its own app and caches. */
    sameDatabaseAs?: TestApp;
  } = {},
): Promise<TestApp> {
  const shared = options.sameDatabaseAs?.testDatabase;
  const testDatabase = shared ? { ...shared, drop: async () => undefined } : await createTestDatabase();
  // TEST_DATABASE_REPLICA=1 (test/global-setup.ts): the app reads through the run's streaming standby.
  const { replicaUrl } = inject('testDb');
  const replica: Record<string, string> = replicaUrl ? { DATABASE_REPLICA_URLS: withDatabase(replicaUrl, testDatabase.name), DATABASE_REPLICA_POOL_SIZE: '5', DATABASE_REPLICA_CHECK_MS: '100' } : {};
  const config = testConfig({ DATABASE_URL: testDatabase.url, ...replica, ...options.env });
  const database = await openDatabase(config, { processName: 'fishlog-test', poolSize: 5 });
  // As in production, the app runs as the application role; tests that need the owner's powers
  // (tampering with the audit log behind its triggers) use `database.owner`.
  await database.useApplicationRole();
  const registries = new Registries();
  const app = await buildApp({ config, database, registries, logger: false, onCreate: checkResponsesAgainstOpenApi, ...(options.idp ? { idp: options.idp } : {}), ...(options.now ? { now: options.now } : {}) });
  await options.configure?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    registries,
    testDatabase,
    async close() {
      await app.close();
      const counts = database.replicas?.counts;
      if (counts) appendFileSync(replicaCountsFile(inject('testDb').prefix), `${counts.replica} ${counts.primary} ${counts.retried}\n`);
      await database.close();
      await testDatabase.drop();
    },
  };
}
