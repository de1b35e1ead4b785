import { createHash, createHmac } from 'node:crypto';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../core/db/client.js';
import { uuidv7 } from '../../core/db/ids.js';
import { registryKey, type Registries } from '../../core/registries.js';
import { settingsKey } from '../settings/settings.service.js';
import { userBans } from './bans.tables.js';

/**
 * A banned person cannot delete their way around a ban. When a banned account is erased, its bans
 * stay (kept as they are: who banned, why, until when) and learn two pseudonymous hashes of the
 * identity: the identity provider's subject and the e-mail (trimmed, lower case). A user seen for
 * the first time whose subject or e-mail hashes to those of a ban in force is banned too, until
 * the same end, with a reason that says why.
 *
 * The hashes are keyed: HMAC-SHA-256, under a key derived from the settings key
 * (FISHLOG_SETTINGS_KEY, else `settings.key` in the data folder; never in the database), of the
 * SHA-256 of the purpose-prefixed value. Whoever holds the bans table without the key cannot test
 * known e-mails against it; the server, holding the key, still recognises an identity presented
 * again. Losing the key (or changing FISHLOG_SETTINGS_KEY) loses that recognition, as it loses the
 * sealed settings. `identityHashVersion` 1 marks the unkeyed SHA-256 hashes written before
 * migration 0048: `rekeyLegacyBanHashes` turns them into keyed ones (an HMAC of the stored
 * digest), so no identity is needed to upgrade them.
 */

export const IDENTITY_HASH_VERSION = 2;

/** The key of the identity hashes: derived from the settings key for this purpose only. */
export function banIdentityKey(config: Pick<Config, 'settingsKey' | 'dataDir'>): Buffer {
  return createHmac('sha256', settingsKey(config)).update('fishlog.banned-identity.key').digest();
}

const keyOf = registryKey('users.ban_identity_key', (): { key?: Buffer } => ({}));

/** Set at start-up by the users module (its plugin), from the configuration. */
export function setBanIdentityKey(registries: Registries, key: Buffer): void {
  registries.of(keyOf).key = key;
}

/** The app's key of the identity hashes. */
export function banIdentityKeyOf(registries: Registries): Buffer {
  const { key } = registries.of(keyOf);
  if (!key) throw new Error('No ban identity key: the users module sets it at start-up (src/modules/users/users.module.ts).');
  return key;
}

/** The unkeyed digest (what version 1 stored, base64url). */
function digest(kind: 'sub' | 'email', value: string): Buffer {
  return createHash('sha256').update(`fishlog.banned-identity.${kind}:${value.trim().toLowerCase()}`).digest();
}

const keyed = (key: Buffer, digestBytes: Buffer) => createHmac('sha256', key).update(digestBytes).digest('base64url');

/** The keyed hash of an identity's subject or e-mail. */
export function identityHash(key: Buffer, kind: 'sub' | 'email', value: string): string {
  return keyed(key, digest(kind, value));
}

/** Writes the hashes into every ban of the user (at their erasure, before the identity is cleared). */
export async function rememberBannedIdentity(db: DbOrTx, key: Buffer, userId: string, identity: { sub: string; email: string | null }): Promise<void> {
  await db
    .update(userBans)
    .set({
      subjectHash: identityHash(key, 'sub', identity.sub),
      emailHash: identity.email ? identityHash(key, 'email', identity.email) : null,
      identityHashVersion: IDENTITY_HASH_VERSION,
      updatedAt: new Date(),
    })
    .where(eq(userBans.userId, userId));
}

/**
 * For a user just created from `identity`: a ban in force of an erased account with the same
 * subject or e-mail bans them too (the same end; the reason says where it comes from). Answers
 * whether it did.
 */
export async function banRecognisedIdentity(db: DbOrTx, key: Buffer, userId: string, identity: { sub: string; email: string | null }, now: Date): Promise<boolean> {
  const matches = [eq(userBans.subjectHash, identityHash(key, 'sub', identity.sub))];
  if (identity.email) matches.push(eq(userBans.emailHash, identityHash(key, 'email', identity.email)));
  const [ban] = await db
    .select({ reason: userBans.reason, endsAt: userBans.endsAt, subjectHash: userBans.subjectHash, emailHash: userBans.emailHash })
    .from(userBans)
    .where(and(or(...matches), eq(userBans.identityHashVersion, IDENTITY_HASH_VERSION), isNull(userBans.liftedAt), sql`(${userBans.endsAt} IS NULL OR ${userBans.endsAt} > ${now})`))
    .orderBy(sql`${userBans.endsAt} DESC NULLS FIRST`)
    .limit(1);
  if (!ban) return false;
  await db.insert(userBans).values({
    id: uuidv7(),
    userId,
    bannedBy: null,
    reason: `The same identity as an erased account banned for: ${ban.reason}`.slice(0, 1000),
    startsAt: now,
    endsAt: ban.endsAt,
    subjectHash: ban.subjectHash,
    emailHash: ban.emailHash,
    identityHashVersion: IDENTITY_HASH_VERSION,
  });
  return true;
}

/**
 * Re-keys the unkeyed hashes written before migration 0048 (version 1): each becomes the HMAC of
 * its stored digest, as `identityHash` makes it. Each row is changed only while it is still
 * version 1, so processes starting at once never re-key a row twice. Answers how many it changed.
 */
export async function rekeyLegacyBanHashes(db: DbOrTx, key: Buffer): Promise<number> {
  const rows = await db
    .select({ id: userBans.id, subjectHash: userBans.subjectHash, emailHash: userBans.emailHash })
    .from(userBans)
    .where(eq(userBans.identityHashVersion, 1));
  let changed = 0;
  const rekey = (hash: string | null) => (hash === null ? null : keyed(key, Buffer.from(hash, 'base64url')));
  for (const row of rows) {
    const updated = await db
      .update(userBans)
      .set({ subjectHash: rekey(row.subjectHash), emailHash: rekey(row.emailHash), identityHashVersion: IDENTITY_HASH_VERSION, updatedAt: new Date() })
      .where(and(eq(userBans.id, row.id), eq(userBans.identityHashVersion, 1)))
      .returning({ id: userBans.id });
    changed += updated.length;
  }
  return changed;
}
