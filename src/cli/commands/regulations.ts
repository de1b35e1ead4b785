import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { systemAuditContext } from '../../core/audit/context.js';
import { AppError } from '../../core/http/problem.js';
import { importLicenseYears, type YearDifferences } from '../../modules/regulations/license-years.js';
import { CliError, cliServices, withDatabase, type CliIo } from '../context.js';

/**
 * `fishlog regulations import <file.json>`: loads license years from a file in the format of
 * reference-data/regulations/rules-<year>.json (reference-data/README.md), as the admin API's
 * POST /api/admin/regulations/license-years does; --dry-run prints the differences only.
 */

const show = (value: unknown) => JSON.stringify(value);

export function describeDifferences(years: YearDifferences[]): string {
  return years
    .map((y) => {
      const lines = [`${y.jurisdiction} ${y.year} (${y.startsOn} to ${y.endsOn}): ${y.rules} rules, ${y.waters} waters; ${y.previousYear === null ? 'no earlier license year to compare with' : `compared with ${y.previousYear}:`}`];
      for (const rule of y.added) lines.push(`  + ${rule}`);
      for (const rule of y.removed) lines.push(`  - ${rule}`);
      for (const c of y.changed) {
        lines.push(`  ~ ${c.rule}`);
        for (const f of c.fields) lines.push(`      ${f.field}: ${show(f.from)} -> ${show(f.to)}`);
      }
      if (y.previousYear !== null && !y.added.length && !y.removed.length && !y.changed.length) lines.push('  (no differences in limits or seasons)');
      return lines.join('\n');
    })
    .join('\n');
}

function readFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
}

export function registerRegulations(program: Command, io: CliIo): void {
  const regulations = program.command('regulations').description('Fishing regulations data (license years)');
  regulations
    .command('import <file>')
    .description('Load the license years of a file in the format of reference-data/regulations/rules-<year>.json; checked as a whole, one transaction, audit-logged')
    .option('--dry-run', 'check the file and print what differs from the previous license year; write nothing')
    .option('--reason <text>', 'why, recorded in the audit log', 'Imported with fishlog regulations import')
    .action(async (file: string, options: { dryRun?: boolean; reason: string }) => {
      const data = readFile(file);
      await withDatabase(io, async (database, config) => {
        const result = await importLicenseYears(cliServices(database, config), systemAuditContext('regulations import'), data, { dryRun: options.dryRun ?? false, reason: options.reason }).catch((error: unknown) => {
          if (!(error instanceof AppError)) throw error;
          const details = (error.errors ?? []).map((e) => `\n  ${e.pointer} ${e.detail}`).join('');
          throw new CliError(`${error.detail}${details}`, error.status === 400 ? 2 : 1);
        });
        io.out(`${describeDifferences(result.licenseYears)}\n${result.dryRun ? 'dry run: nothing written' : `imported ${result.licenseYears.length} license year(s)`}\n`);
      });
    });
}
