import type { Command } from 'commander';
import { applySeeds } from '../../core/db/seeds.js';
import { demoSeeds, seeds } from '../../seeds.js';
import { withDatabase, type CliIo } from '../context.js';

export function registerSeed(program: Command, io: CliIo): void {
  program
    .command('seed')
    .description('Apply every reference-data seed again (idempotent: existing rows are updated, none duplicated)')
    .option('--pending', 'apply only seeds whose version is newer than the applied one (what start-up does)')
    .option('--demo', 'also apply the demonstration data (sample organizer, captain, ramps…), never applied on start')
    .action(async (options: { pending?: boolean; demo?: boolean }) => {
      await withDatabase(io, async (database) => {
        const chosen = options.demo ? [...seeds, ...demoSeeds] : seeds;
        const report = await applySeeds(database.pool, chosen, { force: !options.pending, log: (m) => io.err(`${m}\n`) });
        io.out(`seeds: ${report.applied.length} applied, ${report.skipped.length} already current (${chosen.length} known)\n`);
      });
    });
}
