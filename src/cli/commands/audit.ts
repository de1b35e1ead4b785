import type { Command } from 'commander';
import path from 'node:path';
import { GENESIS_HASH, loadAuditKey, readCheckpoint, verifyAuditChain, writeCheckpoint } from '../../core/audit/audit.js';
import { createReadStream } from 'node:fs';
import { readExport, verifyExport } from '../../modules/audit-logs/audit-export.js';
import { CliError, cliConfig, withDatabase, type CliIo } from '../context.js';

/**
 * `fishlog audit verify`: the triggers stop changes through SQL, but someone with enough
 * privileges can bypass them; the hash chain is what shows such tampering afterwards.
 */
export function registerAudit(program: Command, io: CliIo): void {
  const audit = program.command('audit').description('Inspect the append-only audit log');

  audit
    .command('verify')
    .description(
      'Check the HMAC chains of the audit log against the checkpoint of the last run; exits 1 at the first altered, inserted, removed or ' +
        'recomputed entry, or when the newest entries were deleted. On success it advances the checkpoint and prints the heads (the newest entry, and that of each chain): keep a copy elsewhere. ' +
        'With --file, checks an export (GET /api/admin/audit-logs/export, CSV or NDJSON) offline instead, without a database: every entry, each chain, and the server\'s seal on the last line (entries removed or added show). ' +
        'Either way it needs the key the log was written with: FISHLOG_AUDIT_KEY, else audit.key in FISHLOG_DATA_DIR.',
    )
    .option('--checkpoint <file>', 'checkpoint file (default: audit.checkpoint in FISHLOG_DATA_DIR)')
    .option('--file <export>', 'verify this export file (CSV or NDJSON) instead of the database')
    .action(async (options: { checkpoint?: string; file?: string }) => {
      if (options.file) return verifyFile(io, options.file);
      await withDatabase(io, async (database, config) => {
        const key = loadAuditKey(config);
        const file = options.checkpoint ?? path.join(config.dataDir, 'audit.checkpoint');
        const checkpoint = readCheckpoint(file);
        const report = await verifyAuditChain(database.db, key, 1000, { checkpoint });
        if (report.brokenAt) {
          const { id, reason } = report.brokenAt;
          throw new CliError(`audit log BROKEN at entry ${id}: ${reason} (${report.checked} entries before it are intact)`, 1);
        }
        if (report.head && report.heads) writeCheckpoint(file, { ...report.head, chains: report.heads });
        const legacy = report.legacy ? ` (${report.legacy} from before the chain was keyed)` : '';
        const anchored = checkpoint ? `; checkpoint #${checkpoint.id} matched` : '; no checkpoint yet';
        io.out(`audit log intact: ${report.checked} entries checked${legacy}${anchored}\n`);
        if (report.head) io.out(`head: #${report.head.id} ${report.head.hash} (saved to ${file}; compare with your external copy)\n`);
        for (const [chain, head] of Object.entries(report.heads ?? {})) io.out(`chain ${chain} head: #${head.id} ${head.hash}\n`);
      });
    });
}

/** `fishlog audit verify --file`: recomputes the chain of an export offline. */
async function verifyFile(io: CliIo, file: string): Promise<void> {
  const key = loadAuditKey(cliConfig(io));
  const input = createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => {
    input.once('open', () => resolve());
    input.once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`, 2);
  }
  const report = await verifyExport(readExport(input), key);
  if (report.brokenAt) {
    const { line, id, reason } = report.brokenAt;
    throw new CliError(`export BROKEN at line ${line}${id === null ? '' : ` (entry ${id})`}: ${reason} (${report.checked} entries before it are intact)`, 1);
  }
  if (!report.first || !report.last) {
    io.out(`export holds no entries: nothing to verify\n`);
    return;
  }
  const legacy = report.legacy ? ` (${report.legacy} from before the chain was keyed)` : '';
  io.out(`export intact: ${report.checked} entries checked${legacy}, #${report.first.id} to #${report.last.id}\n`);
  if (report.sealed) {
    const absent = report.absentIds > 0 ? `; ${report.absentIds} ids of the range are not log entries (writes rolled back after taking their id)` : '';
    io.out(`sealed by the server: every entry of #${report.sealed.firstId} to #${report.sealed.lastId} as it stood${absent}\n`);
  } else {
    io.out(`not sealed (exported before seals existed): checked for consecutive ids instead\n`);
  }
  for (const [chain, piece] of Object.entries(report.chains)) {
    const joins = piece.first.prevHash === GENESIS_HASH ? ' (the genesis: the chain starts here)' : ' (the hash of its previous entry, before the export)';
    io.out(`chain ${chain}: #${piece.first.id} to #${piece.last.id}, joins at prevHash ${piece.first.prevHash}${joins}; ends at ${piece.last.hash}\n`);
  }
}
