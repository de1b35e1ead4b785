import { Registries } from '../core/registries.js';
import { loadAuditKey, setAuditKey } from '../core/audit/audit.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { ConfigError, loadConfig, withEnvFile, type Config } from '../config.js';
import { openDatabase, type Database } from '../core/db/client.js';
import { migrateDatabase } from '../core/db/migrate.js';

/** What every CLI command gets: its output streams, the environment, and helpers. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/** An error that ends the command with a message and an exit code (1 runtime, 2 usage). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function cliConfig(io: CliIo): Config {
  try {
    return loadConfig(withEnvFile(io.env));
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, 2);
    throw error;
  }
}

/**
 * Opens the configured database for a command (sharing the embedded cluster with a running
 * server), brings its schema up to date, runs `fn` and closes it again.
 */
export async function withDatabase<T>(io: CliIo, fn: (database: Database, config: Config) => Promise<T>): Promise<T> {
  const config = cliConfig(io);
  const database = await openDatabase(config, { log: (m) => io.err(`${m}\n`), processName: 'fishlog-cli', poolSize: 4 });
  try {
    await migrateDatabase(database.pool);
    return await fn(database, config);
  } finally {
    await database.close();
  }
}

/**
 * What a service needs, for a command run outside the app: the database, and registries no module
 * registered with (a command uses none) holding the configured audit key (commands audit-log as the app does).
 */
export function cliServices(database: Database, config: Config): ServiceDeps {
  const registries = new Registries();
  setAuditKey(registries, loadAuditKey(config));
  return { db: database.db, registries };
}
