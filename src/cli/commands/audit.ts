import type { Command } from 'commander';
import { verifyAuditChain } from '../../core/audit/audit.js';
import { CliError, withDatabase, type CliIo } from '../context.js';

/**
 * `fishlog audit verify`: the triggers stop changes through SQL, but someone with enough
 * privileges can bypass them; the hash chain is what shows such tampering afterwards.
 */
export function registerAudit(program: Command, io: CliIo): void {
  const audit = program.command('audit').description('Inspect the append-only audit log');

  audit
    .command('verify')
    .description('Check the hash chain of the audit log; exits 1 at the first altered, removed or reordered entry')
    .action(async () => {
      await withDatabase(io, async (database) => {
        const report = await verifyAuditChain(database.db);
        if (report.brokenAt) {
          const { id, reason } = report.brokenAt;
          throw new CliError(`audit log BROKEN at entry ${id}: ${reason} (${report.checked} entries before it are intact)`, 1);
        }
        io.out(`audit log intact: ${report.checked} entries checked\n`);
      });
    });
}
