import type { Command } from 'commander';
import { applySeeds } from '../../core/db/seeds.js';
import { seeds } from '../../seeds.js';
import { withDatabase, type CliIo } from '../context.js';

export function registerSeed(program: Command, io: CliIo): void {
  program
    .command('seed')
    .description('Apply every reference-data seed again (idempotent: existing rows are updated, none duplicated)')
    .option('--pending', 'apply only seeds whose version is newer than the applied one (what start-up does)')
    .action(async (options: { pending?: boolean }) => {
      await withDatabase(io, async (database) => {
        const report = await applySeeds(database.pool, seeds, { force: !options.pending, log: (m) => io.err(`${m}\n`) });
        io.out(`seeds: ${report.applied.length} applied, ${report.skipped.length} already current (${seeds.length} known)\n`);
      });
    });
}
