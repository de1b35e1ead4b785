import type { Command } from 'commander';
import { migrateDatabase } from '../../core/db/migrate.js';
import { openDatabase } from '../../core/db/client.js';
import { cliConfig, type CliIo } from '../context.js';

export function registerMigrate(program: Command, io: CliIo): void {
  program
    .command('migrate')
    .description('Apply the SQL migrations in drizzle/ that the database has not seen (idempotent)')
    .action(async () => {
      const config = cliConfig(io);
      const database = await openDatabase(config, { log: (m) => io.err(`${m}\n`), processName: 'fishlog-cli', poolSize: 2 });
      try {
        const before = await database.pool
          .query<{ n: string }>('SELECT count(*)::text AS n FROM drizzle.__drizzle_migrations')
          .then((r) => Number(r.rows[0]?.n ?? 0))
          .catch(() => 0);
        await migrateDatabase(database.pool);
        const after = await database.pool
          .query<{ n: string }>('SELECT count(*)::text AS n FROM drizzle.__drizzle_migrations')
          .then((r) => Number(r.rows[0]?.n ?? 0));
        io.out(`migrations: ${after - before} applied, ${after} in total (${database.description})\n`);
      } finally {
        await database.close();
      }
    });
}
