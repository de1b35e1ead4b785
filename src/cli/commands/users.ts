import type { Command } from 'commander';
import type { Config } from '../../config.js';
import { ROLES, roleName, roleValue } from '../../core/access/roles.js';
import { systemAuditContext } from '../../core/audit/context.js';
import { createIdentityProvider } from '../../core/auth/idp/index.js';
import type { Database } from '../../core/db/client.js';
import { AppError } from '../../core/http/problem.js';
import * as repo from '../../modules/users/users.repository.js';
import { changeUserRole } from '../../modules/users/users.service.js';
import { CliError, cliServices, withDatabase, type CliIo } from '../context.js';
import { inTx } from '../../core/service-deps.js';

/**
 * `fishlog users …`: operator actions on the app's users. set-role is the only way to make the
 * first Owner (the API cannot: nobody holds the permission yet), so it also works for a user
 * who has never called the API, by provisioning their row from the identity provider.
 */

function parseRole(name: string): number {
  const value = roleValue(name);
  if (value === undefined) throw new CliError(`unknown role "${name}"; use one of ${ROLES.join(', ')} (case-insensitive)`, 2);
  return value;
}

/** The identity as the identity provider knows it, for a user the app has not seen yet. */
async function findInIdentityProvider(config: Config, database: Database, username: string) {
  const idp = await createIdentityProvider(config, database.db);
  try {
    return await idp.findUser(username);
  } finally {
    await idp.close();
  }
}

function roleErrorToCli(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  // The service speaks to API callers; on the command line the way out is --force.
  const hint = error.code === 'users.owner_role_protected' ? ' Pass --force to change it anyway (e.g. to hand ownership to someone else).' : '';
  return new CliError(`${error.detail}${hint}`, error.status === 400 ? 2 : 1);
}

async function setRole(io: CliIo, username: string, role: number, options: { reason?: string; force?: boolean }): Promise<void> {
  await withDatabase(io, async (database, config) => {
    const known = await repo.findByUsername(database.db, username);
    const identity = known ?? (await findInIdentityProvider(config, database, username));
    if (!identity) {
      throw new CliError(`no user named ${username} in the app or the identity provider; create the user first (IDP=local: fishlog idp users create)`, 1);
    }
    const change = await database.db
      .transaction(async (tx) => {
        // Provisioned in the same transaction, so a refused change leaves no half-made user behind.
        const user = known ?? (await repo.upsertFromClaims(tx, { sub: identity.sub, username: identity.username, email: identity.email ?? undefined }));
        // Locked before the change so the old role printed is the one that was replaced.
        const before = await repo.findByIdForUpdate(tx, user.id);
        if (!before) throw new CliError(`user ${username} was deleted while the role was being set; run the command again`, 1);
        const after = await changeUserRole(inTx(cliServices(database, config), tx), systemAuditContext('users set-role'), user.id, role, {
          action: 'users.role_set',
          reason: options.reason ?? null,
          force: options.force ?? false,
        });
        return { username: after.username, from: before.role, to: after.role };
      })
      .catch((error: unknown) => {
        throw roleErrorToCli(error);
      });
    io.out(`${change.username}: ${roleName(change.from)} -> ${roleName(change.to)}\n`);
  });
}

/**
 * The API's user id of `username` (what POST /api/social/friends/{friendId} and the admin routes
 * take; not the identity provider's subject). A user known to the identity provider who never
 * called the API is provisioned first, as their first request would, so the id printed is the one
 * the API will use.
 */
async function showUser(io: CliIo, username: string, options: { json?: boolean }): Promise<void> {
  await withDatabase(io, async (database, config) => {
    let user = await repo.findByUsername(database.db, username);
    if (!user) {
      const identity = await findInIdentityProvider(config, database, username);
      if (!identity) {
        throw new CliError(`no user named ${username} in the app or the identity provider; create the user first (IDP=local: fishlog idp users create)`, 1);
      }
      user = await repo.upsertFromClaims(database.db, { sub: identity.sub, username: identity.username, email: identity.email ?? undefined });
    }
    const shown = { userId: user.id, username: user.username, role: roleName(user.role), active: user.isActive, sub: user.sub };
    if (options.json) {
      io.out(`${JSON.stringify(shown)}\n`);
      return;
    }
    io.out(
      `${shown.username}\n` +
        `  user id:  ${shown.userId}   (the API's id: POST /api/social/friends/${shown.userId})\n` +
        `  role:     ${shown.role}${shown.active ? '' : ' (deactivated)'}\n` +
        `  subject:  ${shown.sub}   (the identity provider's id, not used by the API's routes)\n`,
    );
  });
}

export function registerUsers(program: Command, io: CliIo): void {
  const users = program.command('users').description("Manage the app's users (roles, ids)");

  users
    .command('show <username>')
    .description("Print a user's API user id (the id friends and admin routes take), role and identity-provider subject")
    .option('--json', 'print one JSON object: userId, username, role, active, sub')
    .action(async (username: string, options: { json?: boolean }) => {
      await showUser(io, username, options);
    });

  users
    .command('set-role <username> <role>')
    .description(`Set a user's role (${ROLES.join(', ')}); the only way to make the first Owner. Recorded in the audit log.`)
    .option('--reason <text>', 'why, recorded in the audit log')
    .option('--force', "allow changing the Owner's role (otherwise refused, so ownership is not lost by accident)")
    .action(async (username: string, roleArgument: string, options: { reason?: string; force?: boolean }) => {
      // Checked before the database is opened: a typo is a usage error, not a failed run.
      const role = parseRole(roleArgument);
      await setRole(io, username, role, options);
    });
}
