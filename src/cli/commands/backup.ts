import type { Command } from 'commander';
import { BackupError, backupStatus, restoreBackup, takeBaseBackup, verifyBackup, type BackupConfig } from '../../core/db/backup.js';
import { CliError, cliConfig, type CliIo } from '../context.js';

/**
 * `fishlog backup [list|verify]` and `fishlog restore`: base backups, the archived WAL and
 * point-in-time restore of the embedded PostgreSQL (src/core/db/backup.ts).
 */
export function registerBackup(program: Command, io: CliIo): void {
  const log = (message: string) => io.err(`fishlog: ${message}\n`);
  const config = (): BackupConfig => cliConfig(io);
  const failing = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof BackupError) throw new CliError(error.message, 1);
      throw error;
    }
  };

  const backup = program
    .command('backup')
    .description(
      'Back up the embedded PostgreSQL: take a base backup now (the server takes one every FISHLOG_BACKUP_EVERY_HOURS), ' +
        'into FISHLOG_BACKUP_DIR (default <data folder>/backups), beside the WAL the server archives there continuously. With DATABASE_URL it does nothing: that server\'s operator backs it up.',
    );

  backup
    .command('create', { isDefault: true })
    .description('Take a base backup now (a running server keeps serving), then apply the retention (FISHLOG_BACKUP_KEEP_DAILY, FISHLOG_BACKUP_KEEP_WEEKLY)')
    .action(() =>
      failing(async () => {
        const manifest = await takeBaseBackup(config(), log);
        io.out(`base backup ${manifest.id}: ${manifest.files} files, ${manifest.archive.bytes} bytes compressed, sha256 ${manifest.archive.sha256}\n`);
      }),
    );

  backup
    .command('list')
    .description('List the base backups, the archived WAL, and the earliest and latest times a restore can reach')
    .option('--json', 'print it as JSON')
    .action((options: { json?: boolean }) =>
      failing(async () => {
        const settings = config();
        const status = await backupStatus(settings.backups.dir);
        if (options.json) return io.out(`${JSON.stringify(status, null, 2)}\n`);
        io.out(`backups in ${settings.backups.dir}\n`);
        if (status.baseBackups.length === 0) io.out('no base backup yet: take one with `fishlog backup`\n');
        for (const b of status.baseBackups) io.out(`base ${b.id}  ended ${b.finishedAt}  ${b.files} files  ${b.archive.bytes} bytes  from WAL ${b.startWalFile}\n`);
        io.out(status.wal.segments ? `WAL: ${status.wal.segments} files, ${status.wal.first} … ${status.wal.last}, last archived ${status.wal.lastArchivedAt}\n` : 'WAL: nothing archived yet\n');
        if (status.restorable) io.out(`restorable from ${status.restorable.earliest} to ${status.restorable.latest}\n`);
      }),
    );

  backup
    .command('verify')
    .description('Restore the newest base backup (or --from) with all archived WAL into a temporary folder and check it: checksum, start, migrations, row counts; exits 1 when it fails')
    .option('--from <backup>', 'the base backup to check (an id from `fishlog backup list`)')
    .action((options: { from?: string }) =>
      failing(async () => {
        const result = await verifyBackup(config(), { ...(options.from ? { from: options.from } : {}), log });
        const rows = Object.entries(result.rows)
          .map(([table, count]) => `${table} ${count}`)
          .join(', ');
        io.out(`backup ${result.backup} verified: restored to ${result.reachedAt ?? 'the end of the archive'}; ${result.migrations.applied}/${result.migrations.expected} migrations; rows: ${rows}\n`);
      }),
    );

  program
    .command('restore')
    .description(
      'Rebuild the embedded PostgreSQL from a base backup and the archived WAL, to a time (--to) or as far as the archive goes (--latest, the default). ' +
        'Every fishlog process using the data folder must be stopped; a database that is there is replaced only with --force (moved aside, not deleted).',
    )
    .option('--to <time>', 'an ISO 8601 time, e.g. 2026-11-28T14:05:00Z: the database as it was then')
    .option('--latest', 'replay all archived WAL (the default)')
    .option('--from <backup>', 'start from this base backup (default: the newest that ended before the target)')
    .option('--force', 'replace the database in the data folder')
    .action((options: { to?: string; latest?: boolean; from?: string; force?: boolean }) =>
      failing(async () => {
        if (options.to && options.latest) throw new CliError('give --to or --latest, not both', 2);
        const to = options.to ? new Date(options.to) : undefined;
        if (to && (Number.isNaN(to.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(options.to!))) {
          throw new CliError(`--to ${options.to} is not an ISO 8601 time such as 2026-11-28T14:05:00Z`, 2);
        }
        const result = await restoreBackup(config(), { to, from: options.from, force: options.force ?? false, log });
        io.out(`restored from base backup ${result.backup} to ${result.reachedAt ?? 'the end of the archive'}${result.replacedFolder ? `; the previous database is in ${result.replacedFolder}` : ''}; start the service with npm start\n`);
      }),
    );
}
