import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { jwtVerify, SignJWT, decodeProtectedHeader } from 'jose';
import { uuidv7 } from '../../../db/ids.js';
import type { LocalIdpConfig } from '../../../../config.js';
import type { Db, Tx } from '../../../db/client.js';
import { AuthErrors } from '../../auth.errors.js';
import { mapJoseError } from '../jwt-errors.js';
import { REFRESH_LIFETIME_SECONDS, type IdentityClaims, type IdentityProvider, type IdpUserStatus, type TokenSet } from '../types.js';
import { KeyStore } from './keys.js';
import { notifyPrincipalChanged } from '../../notify.js';
import { idpUsers, refreshTokens } from './local.tables.js';
import { needsRehash, PasswordHashing } from './passwords.js';

/**
 * The embedded identity provider, shaped like a Cognito user pool: Cognito's id and access
 * token claims, RS256 keys with a kid, opaque refresh tokens rotated on every use.
 *
 * Refresh-token reuse: presenting a refresh token that was already used revokes its whole
 * family (every token descended from that login). A client that sends the same refresh token
 * again within REFRESH_GRACE_SECONDS (two tabs refreshing at once, a retried request) is not
 * logged out and gets the *same* token set as the first use (idempotent: no new family member).
 * That set is stored sealed with a key derived from the presented refresh token, which the
 * database does not hold.
 */
export const REFRESH_GRACE_SECONDS = 10;

/**
 * Revokes every live refresh token `scope` selects (a family, a user), also those a refresh
 * running meanwhile rotates into it; call it in a transaction. Under READ COMMITTED an UPDATE
 * does not see the successor that a refresh it waited for (on the row lock) inserted, so the
 * UPDATE runs again until it finds nothing left: then every live token of the scope is locked by
 * this transaction, and a refresh of any of them waits for the commit and finds it revoked.
 */
export async function revokeRefreshTokens(tx: Tx, scope: SQL): Promise<number> {
  let revoked = 0;
  for (;;) {
    const rows = await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(scope, isNull(refreshTokens.revokedAt)))
      .returning({ id: refreshTokens.id });
    if (rows.length === 0) return revoked;
    revoked += rows.length;
  }
}

export function localIssuer(poolId: string): string {
  return `urn:fishlog:idp:${poolId}`;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

function successorKey(presented: string): Buffer {
  return createHash('sha256').update(`fishlog:refresh-successor:${presented}`).digest();
}

/** Seals the token set answered for `presented`, so only its holder can open it again. */
function sealSuccessor(presented: string, tokens: TokenSet): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', successorKey(presented), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(tokens), 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
}

function openSuccessor(presented: string, sealed: string): TokenSet | undefined {
  try {
    const [, iv, tag, data] = sealed.split(':');
    const decipher = createDecipheriv('aes-256-gcm', successorKey(presented), Buffer.from(iv!, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
    return JSON.parse(Buffer.concat([decipher.update(Buffer.from(data!, 'base64url')), decipher.final()]).toString('utf8')) as TokenSet;
  } catch {
    return undefined;
  }
}

interface IdpUser {
  sub: string;
  username: string;
  email: string;
  emailVerified: boolean;
}

export class LocalIdentityProvider implements IdentityProvider {
  readonly kind = 'local' as const;
  readonly issuer: string;
  readonly keys: KeyStore;
  /** This provider's password hashing queue (FISHLOG_HASH_CONCURRENCY, FISHLOG_HASH_QUEUE). */
  readonly hashing: PasswordHashing;

  constructor(
    private readonly db: Db,
    private readonly config: LocalIdpConfig,
  ) {
    this.issuer = localIssuer(config.poolId);
    this.hashing = new PasswordHashing({ concurrency: config.hashConcurrency, queue: config.hashQueue });
    this.keys = new KeyStore(db, config.keySecret);
  }

  async login(username: string, password: string): Promise<TokenSet> {
    const [user] = await this.db.select().from(idpUsers).where(sql`lower(${idpUsers.username}) = lower(${username})`).limit(1);
    if (!user) {
      await this.hashing.burn(this.config.scryptCost);
      throw AuthErrors.invalidCredentials();
    }
    if (!(await this.hashing.verify(password, user.passwordHash))) throw AuthErrors.invalidCredentials();
    if (needsRehash(user.passwordHash, this.config.scryptCost)) {
      // Made with older parameters: replaced now that the password is known (only if unchanged meanwhile).
      const passwordHash = await this.hashing.hash(password, this.config.scryptCost);
      await this.db
        .update(idpUsers)
        .set({ passwordHash })
        .where(and(eq(idpUsers.sub, user.sub), eq(idpUsers.passwordHash, user.passwordHash)));
    }
    // Only someone who knows the password learns the account's state.
    if (!user.enabled) throw AuthErrors.userDisabled();
    if (user.status !== 'CONFIRMED') throw AuthErrors.userNotConfirmed();
    const authTime = new Date();
    const refreshToken = await this.storeRefreshToken(this.db, user.sub, randomUUID(), authTime);
    return this.tokens(user, authTime, refreshToken);
  }

  async refresh(presented: string): Promise<TokenSet> {
    const outcome = await this.db.transaction(async (tx) => {
      const rows = await tx
        .select({ token: refreshTokens, user: idpUsers })
        .from(refreshTokens)
        .innerJoin(idpUsers, eq(idpUsers.sub, refreshTokens.sub))
        .where(eq(refreshTokens.tokenHash, hashToken(presented)))
        .for('update');
      const row = rows[0];
      if (!row || row.token.revokedAt || row.token.expiresAt.getTime() <= Date.now()) return { kind: 'invalid' as const };
      if (row.token.usedAt && Date.now() - row.token.usedAt.getTime() > REFRESH_GRACE_SECONDS * 1000) {
        await revokeRefreshTokens(tx, eq(refreshTokens.familyId, row.token.familyId));
        return { kind: 'reused' as const };
      }
      if (!row.user.enabled) return { kind: 'disabled' as const };
      if (row.token.usedAt) {
        // Within the grace window: the same answer as the first use (the row lock made us wait for it).
        const same = row.token.successorSealed ? openSuccessor(presented, row.token.successorSealed) : undefined;
        if (same) return { kind: 'ok' as const, tokens: same };
      }
      const next = await this.storeRefreshToken(tx as unknown as Db, row.user.sub, row.token.familyId, row.token.authTime);
      const tokens = await this.tokens(row.user, row.token.authTime, next);
      await tx
        .update(refreshTokens)
        .set({ usedAt: row.token.usedAt ?? new Date(), successorSealed: sealSuccessor(presented, tokens) })
        .where(eq(refreshTokens.id, row.token.id));
      return { kind: 'ok' as const, tokens };
    });
    if (outcome.kind === 'invalid') throw AuthErrors.refreshInvalid();
    if (outcome.kind === 'reused') throw AuthErrors.refreshReused();
    if (outcome.kind === 'disabled') throw AuthErrors.userDisabled();
    return outcome.tokens;
  }

  /**
   * One sign-in is the token's family (every refresh token rotated from one login): all of it is
   * revoked, so a refresh that raced this sign-out and rotated the token leaves no live successor.
   * A token this provider does not know, or one already revoked or expired, answers like a
   * revoked one (RFC 7009, section 2.2): what the caller asked for, that the token no longer
   * works, is already so, and a client signing out could do nothing with an error but forget the
   * token, as it does anyway. `everywhere` has no such token to tell whose sign-ins to end.
   */
  async signOut(presented: string, { everywhere }: { everywhere: boolean }): Promise<void> {
    const ended = await this.db.transaction(async (tx) => {
      const [token] = await tx
        .select({ familyId: refreshTokens.familyId, sub: refreshTokens.sub, revokedAt: refreshTokens.revokedAt, expiresAt: refreshTokens.expiresAt })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(presented)));
      if (!token) return false;
      if (everywhere && (token.revokedAt || token.expiresAt.getTime() <= Date.now())) return false;
      await revokeRefreshTokens(tx, everywhere ? eq(refreshTokens.sub, token.sub) : eq(refreshTokens.familyId, token.familyId));
      return true;
    });
    if (!ended && everywhere) throw AuthErrors.refreshInvalid();
  }

  async verifyIdToken(token: string): Promise<IdentityClaims> {
    let payload: Record<string, unknown>;
    try {
      const header = decodeProtectedHeader(token);
      if (header.alg !== 'RS256') throw AuthErrors.tokenAlgorithm();
      const result = await jwtVerify(
        token,
        async (protectedHeader) => {
          const key = protectedHeader.kid ? await this.keys.publicKey(protectedHeader.kid) : undefined;
          if (!key) throw AuthErrors.tokenUnknownKey();
          return key;
        },
        { algorithms: ['RS256'], issuer: this.issuer, requiredClaims: ['exp', 'sub'] },
      );
      payload = result.payload as Record<string, unknown>;
    } catch (error) {
      throw mapJoseError(error);
    }
    return checkIdTokenClaims(payload, this.config.clientId);
  }

  async userStatus(claims: { sub: string }): Promise<IdpUserStatus> {
    if (!isUuid(claims.sub)) return { exists: false, enabled: false };
    const [user] = await this.db
      .select({ enabled: idpUsers.enabled, username: idpUsers.username, email: idpUsers.email, passwordChangedAt: idpUsers.passwordChangedAt })
      .from(idpUsers)
      .where(eq(idpUsers.sub, claims.sub));
    if (!user) return { exists: false, enabled: false };
    return {
      exists: true,
      enabled: user.enabled,
      username: user.username,
      email: user.email,
      ...(user.passwordChangedAt ? { validAfter: user.passwordChangedAt.getTime() } : {}),
    };
  }

  async findUser(username: string) {
    const [user] = await this.db
      .select({ sub: idpUsers.sub, username: idpUsers.username, email: idpUsers.email })
      .from(idpUsers)
      .where(sql`lower(${idpUsers.username}) = lower(${username})`);
    return user;
  }

  /** Revokes every refresh token of the user, as signing out everywhere does. */
  async signOutUser(sub: string): Promise<void> {
    if (!isUuid(sub)) return;
    await this.db.transaction((tx) => revokeRefreshTokens(tx, eq(refreshTokens.sub, sub)));
  }

  async deleteUser(sub: string): Promise<void> {
    if (!isUuid(sub)) return;
    await this.db.transaction(async (tx) => {
      await tx.delete(idpUsers).where(eq(idpUsers.sub, sub)); // refresh tokens cascade
      await notifyPrincipalChanged(tx, sub);
    });
  }

  async close(): Promise<void> {}

  private async storeRefreshToken(db: Db, sub: string, familyId: string, authTime: Date): Promise<string> {
    const token = randomBytes(48).toString('base64url');
    await db.insert(refreshTokens).values({
      id: uuidv7(),
      familyId,
      sub,
      tokenHash: hashToken(token),
      authTime,
      expiresAt: new Date(Date.now() + REFRESH_LIFETIME_SECONDS * 1000),
    });
    return token;
  }

  private async tokens(user: IdpUser, authTime: Date, refreshToken: string): Promise<TokenSet> {
    const key = await this.keys.signingKey();
    const now = Math.floor(Date.now() / 1000);
    const common = { auth_time: Math.floor(authTime.getTime() / 1000), event_id: randomUUID() };
    const idToken = await new SignJWT({
      ...common,
      token_use: 'id',
      email: user.email,
      email_verified: user.emailVerified,
      'cognito:username': user.username,
    })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setSubject(user.sub)
      .setAudience(this.config.clientId)
      .setIssuer(this.issuer)
      .setIssuedAt(now)
      .setExpirationTime(now + this.config.tokenLifetimeSeconds)
      .setJti(randomUUID())
      .sign(key.privateKey);
    const accessToken = await new SignJWT({
      ...common,
      token_use: 'access',
      client_id: this.config.clientId,
      username: user.username,
      scope: 'aws.cognito.signin.user.admin',
    })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setSubject(user.sub)
      .setIssuer(this.issuer)
      .setIssuedAt(now)
      .setExpirationTime(now + this.config.tokenLifetimeSeconds)
      .setJti(randomUUID())
      .sign(key.privateKey);
    return { access_token: accessToken, id_token: idToken, refresh_token: refreshToken, token_type: 'Bearer', expires_in: this.config.tokenLifetimeSeconds };
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Tolerated clock skew for a token's issue time. */
export const MAX_IAT_SKEW_SECONDS = 300;

/** Claim checks shared by both providers once the signature is verified. */
export function checkIdTokenClaims(payload: Record<string, unknown>, clientId: string, nowMs: number = Date.now()): IdentityClaims {
  if (payload.token_use === 'access') throw AuthErrors.accessTokenUsed();
  if (payload.token_use !== 'id') throw AuthErrors.tokenClaims('token_use');
  const aud = payload.aud;
  if (Array.isArray(aud) ? !aud.includes(clientId) : aud !== clientId) throw AuthErrors.tokenAudience();
  if (typeof payload.exp !== 'number') throw AuthErrors.tokenExpMissing();
  if (payload.iat !== undefined && typeof payload.iat !== 'number') throw AuthErrors.tokenClaims('iat');
  if (typeof payload.iat === 'number' && payload.iat > nowMs / 1000 + MAX_IAT_SKEW_SECONDS) throw AuthErrors.tokenIssuedInFuture();
  if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw AuthErrors.tokenClaims('sub');
  const username = payload['cognito:username'];
  if (typeof username !== 'string' || username.length === 0) throw AuthErrors.tokenClaims('cognito:username');
  return {
    sub: payload.sub,
    username,
    email: typeof payload.email === 'string' ? payload.email : undefined,
    exp: payload.exp,
    ...(typeof payload.iat === 'number' ? { iat: payload.iat } : {}),
    ...(typeof payload.auth_time === 'number' ? { authTime: payload.auth_time } : {}),
  };
}
