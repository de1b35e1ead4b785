import type { Command } from 'commander';
import type { LocalIdpConfig } from '../../config.js';
import { rotateSigningKey } from '../../core/auth/idp/local/keys.js';
import {
  confirmIdpUser,
  createIdpUser,
  deleteIdpUser,
  listIdpUsers,
  resetIdpPassword,
  setIdpPassword,
  setIdpUserEnabled,
  type IdpUserView,
} from '../../core/auth/idp/local/local-users.js';
import { PASSWORD_RULES } from '../../core/auth/idp/local/passwords.js';
import { TOKEN_LIFETIME_SECONDS } from '../../core/auth/idp/types.js';
import type { Db } from '../../core/db/client.js';
import { AppError } from '../../core/http/problem.js';
import { CliError, cliConfig, withDatabase, type CliIo } from '../context.js';

/**
 * `fishlog idp …`: user and key management of the embedded identity provider (IDP=local).
 * Users are managed outside the API (the spec), so this is the only way to create them.
 * Passwords are never printed, except the one reset-password generates (shown once).
 */

const COGNITO_MESSAGE =
  'IDP=cognito: users are managed in the Cognito user pool, not by fishlog; use the AWS console or the AWS CLI (aws cognito-idp admin-create-user …)';

/**
 * Runs `fn` against the local identity provider's tables. The configuration is checked before
 * the database is opened, so a Cognito deployment gets its usage error without a connection.
 */
async function withLocalIdp<T>(io: CliIo, fn: (db: Db, idp: LocalIdpConfig) => Promise<T>): Promise<T> {
  const config = cliConfig(io);
  if (config.idp.kind !== 'local') throw new CliError(COGNITO_MESSAGE, 2);
  const idp = config.idp;
  return withDatabase(io, async (database) => {
    try {
      return await fn(database.db, idp);
    } catch (error) {
      throw idpErrorToCli(error);
    }
  });
}

/** Invalid input is a usage error (2); a missing or duplicate user is a runtime failure (1). */
function idpErrorToCli(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  return new CliError(error.detail, error.status === 400 ? 2 : 1);
}

function formatDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const COLUMNS: { title: string; value: (user: IdpUserView) => string }[] = [
  { title: 'USERNAME', value: (u) => u.username },
  { title: 'EMAIL', value: (u) => u.email },
  { title: 'STATUS', value: (u) => u.status },
  { title: 'ENABLED', value: (u) => (u.enabled ? 'yes' : 'no') },
  { title: 'SUB', value: (u) => u.sub },
  { title: 'CREATED', value: (u) => formatDate(u.createdAt) },
];

function userTable(users: IdpUserView[]): string {
  const rows = [COLUMNS.map((c) => c.title), ...users.map((user) => COLUMNS.map((c) => c.value(user)))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
}

function registerUserCommands(idp: Command, io: CliIo): void {
  const users = idp.command('users').description('Manage the users of the embedded identity provider');

  users
    .command('create <username>')
    .description('Create a user who can sign in with the password (confirmed unless --unconfirmed)')
    .requiredOption('--email <email>', "the user's email address")
    .requiredOption('--password <password>', `the initial password (${PASSWORD_RULES})`)
    .option('--unconfirmed', 'create the user UNCONFIRMED: they cannot sign in until `fishlog idp users confirm`')
    .action(async (username: string, options: { email: string; password: string; unconfirmed?: boolean }) => {
      await withLocalIdp(io, async (db, config) => {
        const user = await createIdpUser(db, config.scryptCost, { username, email: options.email, password: options.password, confirmed: !options.unconfirmed });
        io.out(`created ${user.username} <${user.email}> (sub ${user.sub}, ${user.status})\n`);
        if (user.status === 'UNCONFIRMED') io.out(`${user.username} cannot sign in until you run: fishlog idp users confirm ${user.username}\n`);
      });
    });

  users
    .command('set-password <username>')
    .description("Set a user's password (their current sessions stay signed in; use reset-password to end them)")
    .requiredOption('--password <password>', `the new password (${PASSWORD_RULES})`)
    .action(async (username: string, options: { password: string }) => {
      await withLocalIdp(io, async (db, config) => {
        const user = await setIdpPassword(db, config.scryptCost, username, options.password);
        io.out(`${user.username}: password changed\n`);
      });
    });

  users
    .command('confirm <username>')
    .description('Confirm an UNCONFIRMED user so that they can sign in')
    .action(async (username: string) => {
      await withLocalIdp(io, async (db) => {
        const user = await confirmIdpUser(db, username);
        io.out(`${user.username}: ${user.status}\n`);
      });
    });

  users
    .command('list')
    .description('List the users (never their passwords)')
    .option('--json', 'print a JSON array instead of a table')
    .action(async (options: { json?: boolean }) => {
      await withLocalIdp(io, async (db) => {
        const list = await listIdpUsers(db);
        if (options.json) io.out(`${JSON.stringify(list, null, 2)}\n`);
        else if (list.length === 0) io.out('no users yet; create one with: fishlog idp users create <username> --email <email> --password <password>\n');
        else io.out(userTable(list));
      });
    });

  users
    .command('disable <username>')
    .description('Stop a user from signing in; running servers refuse their tokens at once')
    .action(async (username: string) => {
      await withLocalIdp(io, async (db) => {
        const user = await setIdpUserEnabled(db, username, false);
        io.out(`${user.username}: disabled (undo with: fishlog idp users enable ${user.username})\n`);
      });
    });

  users
    .command('enable <username>')
    .description('Let a disabled user sign in again')
    .action(async (username: string) => {
      await withLocalIdp(io, async (db) => {
        const user = await setIdpUserEnabled(db, username, true);
        io.out(`${user.username}: enabled\n`);
      });
    });

  users
    .command('delete <username>')
    .description('Delete a user and their sessions (their data in the app stays; this cannot be undone)')
    .action(async (username: string) => {
      await withLocalIdp(io, async (db) => {
        const user = await deleteIdpUser(db, username);
        io.out(`${user.username}: deleted (sub ${user.sub})\n`);
      });
    });

  users
    .command('reset-password <username>')
    .description('Give a user a new random password (printed once) and sign them out everywhere')
    .action(async (username: string) => {
      await withLocalIdp(io, async (db, config) => {
        const { user, password, revoked } = await resetIdpPassword(db, config.scryptCost, username);
        io.out(`${user.username}: password reset; hand this over securely, it is shown only this once:\n`);
        io.out(`new password: ${password}\n`);
        io.out(`${revoked} session${revoked === 1 ? '' : 's'} revoked; ${user.username} must sign in again\n`);
      });
    });
}

function registerKeyCommands(idp: Command, io: CliIo): void {
  const keys = idp.command('keys').description("Manage the identity provider's token signing keys");

  keys
    .command('rotate')
    .description('Sign new tokens with a fresh key; the previous keys keep verifying the tokens they signed')
    .action(async () => {
      await withLocalIdp(io, async (db, config) => {
        const { kid, retired } = await rotateSigningKey(db, config.keySecret);
        io.out(`new signing key: ${kid}\n`);
        io.out(`retired keys: ${retired.length > 0 ? retired.join(', ') : 'none'}\n`);
        io.out(`tokens signed with a retired key stay valid until they expire (at most ${TOKEN_LIFETIME_SECONDS / 60} minutes); refresh tokens are not affected\n`);
      });
    });
}

export function registerIdp(program: Command, io: CliIo): void {
  const idp = program.command('idp').description('Manage the embedded identity provider (IDP=local): users and signing keys');
  registerUserCommands(idp, io);
  registerKeyCommands(idp, io);
}
