import type pg from 'pg';
import type { HealthBody } from './health.schemas.js';

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
