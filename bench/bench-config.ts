import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config.js';

/**
 * The configuration of a bench: embedded PostgreSQL in a temp folder, or, with DATABASE_URL, a
 * throw-away database created on that server. `cleanup` removes the temp folder.
 */
export async function benchConfig(prefix: string): Promise<{ config: Config; cleanup(): Promise<void> }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `${prefix}-`));
  let databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const name = `fishlog_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    FISHLOG_SCRYPT_COST: '10',
    FISHLOG_DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  return { config, cleanup: () => fs.rm(dataDir, { recursive: true, force: true }) };
}
