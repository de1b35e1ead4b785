import { Command, CommanderError } from 'commander';
import { version } from '../paths.js';
import { registerAudit } from './commands/audit.js';
import { registerBackup } from './commands/backup.js';
import { registerIdp } from './commands/idp.js';
import { registerMail } from './commands/mail.js';
import { registerMigrate } from './commands/migrate.js';
import { registerRegulations } from './commands/regulations.js';
import { registerSeed } from './commands/seed.js';
import { registerServe } from './commands/serve.js';
import { registerUsers } from './commands/users.js';
import { CliError, type CliIo } from './context.js';

/**
 * The `fishlog` command. One file per command under commands/; each registers itself here.
 * Exit codes: 0 success, 1 failure while running, 2 bad usage or configuration.
 */
export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  let exitCode = 0;
  const program = new Command('fishlog')
    .description('fishlog: the fishing-log API service and its administration commands')
    .version(version, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride();
  program.configureHelp({ sortSubcommands: true });

  registerServe(program, io, (code) => (exitCode = code));
  registerMigrate(program, io);
  registerSeed(program, io);
  registerIdp(program, io);
  registerUsers(program, io);
  registerAudit(program, io);
  registerBackup(program, io);
  registerRegulations(program, io);
  registerMail(program, io);
  for (const command of program.commands) command.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });

  if (argv.length === 0) {
    program.outputHelp();
    return 2;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return 0;
      return 2;
    }
    if (error instanceof CliError) {
      io.err(`fishlog: ${error.message}\n`);
      return error.exitCode;
    }
    io.err(`fishlog: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function defaultIo(): CliIo {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    env: process.env,
  };
}
