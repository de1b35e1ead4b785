import type { Command } from 'commander';
import path from 'node:path';
import { configureAuditKey, loadAuditKey, readCheckpoint, verifyAuditChain, writeCheckpoint } from '../../core/audit/audit.js';
import { CliError, withDatabase, type CliIo } from '../context.js';

/**
 * `fishlog audit verify`: the triggers stop changes through SQL, but someone with enough
 * privileges can bypass them; the hash chain is what shows such tampering afterwards.
 */
export function registerAudit(program: Command, io: CliIo): void {
  const audit = program.command('audit').description('Inspect the append-only audit log');

  audit
    .command('verify')
    .description(
      'Check the HMAC chain of the audit log against the checkpoint of the last run; exits 1 at the first altered, inserted, removed or ' +
        'recomputed entry, or when the newest entries were deleted. On success it advances the checkpoint and prints the head: keep a copy elsewhere.',
    )
    .option('--checkpoint <file>', 'checkpoint file (default: audit.checkpoint in FISHLOG_DATA_DIR)')
    .action(async (options: { checkpoint?: string }) => {
      await withDatabase(io, async (database, config) => {
        const key = loadAuditKey(config);
        configureAuditKey(key);
        const file = options.checkpoint ?? path.join(config.dataDir, 'audit.checkpoint');
        const checkpoint = readCheckpoint(file);
        const report = await verifyAuditChain(database.db, 1000, { checkpoint, key });
        if (report.brokenAt) {
          const { id, reason } = report.brokenAt;
          throw new CliError(`audit log BROKEN at entry ${id}: ${reason} (${report.checked} entries before it are intact)`, 1);
        }
        if (report.head) writeCheckpoint(file, report.head);
        const legacy = report.legacy ? ` (${report.legacy} from before the chain was keyed)` : '';
        const anchored = checkpoint ? `; checkpoint #${checkpoint.id} matched` : '; no checkpoint yet';
        io.out(`audit log intact: ${report.checked} entries checked${legacy}${anchored}\n`);
        if (report.head) io.out(`head: #${report.head.id} ${report.head.hash} (saved to ${file}; compare with your external copy)\n`);
      });
    });
}
