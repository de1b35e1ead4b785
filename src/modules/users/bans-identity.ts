import { createHash } from 'node:crypto';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { uuidv7 } from '../../core/db/ids.js';
import { userBans } from './bans.tables.js';

/**
 * A banned person cannot delete their way around a ban. When a banned account is erased, its bans
 * stay (kept as they are: who banned, why, until when) and learn two pseudonymous hashes of the
 * identity: the identity provider's subject and the e-mail (trimmed, lower case). A user seen for
 * the first time whose subject or e-mail hashes to those of a ban in force is banned too, until
 * the same end, with a reason that says why. The hashes are SHA-256 with a purpose prefix: they
 * name nobody by themselves, and match only an identity presented again.
 */
export function identityHash(kind: 'sub' | 'email', value: string): string {
  return createHash('sha256').update(`fishlog.banned-identity.${kind}:${value.trim().toLowerCase()}`).digest('base64url');
}

/** Writes the hashes into every ban of the user (at their erasure, before the identity is cleared). */
export async function rememberBannedIdentity(db: DbOrTx, userId: string, identity: { sub: string; email: string | null }): Promise<void> {
  await db
    .update(userBans)
    .set({ subjectHash: identityHash('sub', identity.sub), emailHash: identity.email ? identityHash('email', identity.email) : null, updatedAt: new Date() })
    .where(eq(userBans.userId, userId));
}

/**
 * For a user just created from `identity`: a ban in force of an erased account with the same
 * subject or e-mail bans them too (the same end; the reason says where it comes from). Answers
 * whether it did.
 */
export async function banRecognisedIdentity(db: DbOrTx, userId: string, identity: { sub: string; email: string | null }, now: Date): Promise<boolean> {
  const matches = [eq(userBans.subjectHash, identityHash('sub', identity.sub))];
  if (identity.email) matches.push(eq(userBans.emailHash, identityHash('email', identity.email)));
  const [ban] = await db
    .select({ reason: userBans.reason, endsAt: userBans.endsAt, subjectHash: userBans.subjectHash, emailHash: userBans.emailHash })
    .from(userBans)
    .where(and(or(...matches), isNull(userBans.liftedAt), sql`(${userBans.endsAt} IS NULL OR ${userBans.endsAt} > ${now})`))
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
  });
  return true;
}
