import type { ServiceDeps } from '../../core/service-deps.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { Static } from 'typebox';
import type { HealthBody, Readiness as ReadinessSchema } from './health.schemas.js';
import { migrationsFolder } from '../../paths.js';
import { regulationDataWarnings } from '../regulations/index.js';

const DATABASE_TIMEOUT_MS = 2000;

async function databaseAnswers(pool: pg.Pool): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), DATABASE_TIMEOUT_MS);
  });
  const probe = pool.query('SELECT 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(pool: pg.Pool, version: string, startedAt: number): Promise<HealthBody> {
  const database = (await databaseAnswers(pool)) ? 'ok' : 'unavailable';
  return {
    status: database === 'ok' ? 'ok' : 'error',
    database,
    version,
    uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
  };
}

/** How many migrations this build ships (drizzle/meta/_journal.json). */
function shippedMigrations(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

async function appliedMigrations(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
  return result.rows[0]?.n ?? 0;
}

export type Readiness = Static<typeof ReadinessSchema>;

/**
 * Ready: the database answers, every shipped migration is applied, and no shutdown has begun.
 * The details carry data warnings (regulations about to run out), which never make it not ready.
 */
export async function checkReadiness(pool: pg.Pool, deps: ServiceDeps, shuttingDown: boolean, now: Date): Promise<Readiness> {
  const database = (await databaseAnswers(pool)) ? 'ok' : 'unavailable';
  let migrations: Readiness['migrations'] = 'unknown';
  if (database === 'ok') {
    migrations = await appliedMigrations(pool).then(
      (n) => (n >= shippedMigrations() ? 'applied' : 'pending'),
      () => 'pending' as const,
    );
  }
  const ready = database === 'ok' && migrations === 'applied' && !shuttingDown;
  const regulationData = migrations === 'applied' ? await regulationDataWarnings(deps, now).catch(() => []) : [];
  return { status: ready ? 'ready' : 'not_ready', database, migrations, shuttingDown, details: { regulationData } };
}
