import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Db } from '../db/client.js';
import { upsertFromClaims } from '../../modules/users/users.repository.js';
import { AuthErrors } from './auth.errors.js';
import type { IdentityClaims, IdentityProvider } from './idp/types.js';
import { PRINCIPAL_CHANNEL } from './notify.js';

/** The authenticated caller of a request. */
export interface Principal {
  userId: string;
  sub: string;
  username: string;
  email: string | null;
  role: number;
}

/** How long who-a-user-is may be cached; changes are also pushed by NOTIFY. */
export const PRINCIPAL_TTL_MS = 60_000;
const MAX_CACHED_TOKENS = 50_000;

interface CachedPrincipal {
  principal: Principal;
  until: number;
}

/**
 * Verifies bearer id tokens and turns them into principals.
 * - Verified tokens are cached by the SHA-256 of the token, never beyond their `exp`.
 * - The identity provider's word (user exists, enabled) and the User row are cached per `sub`
 *   for at most 60 s, and dropped at once when a change is notified.
 * - An unknown identity gets its User row on first sight (one upsert: no duplicates).
 */
export class Authenticator {
  private readonly tokens = new Map<string, IdentityClaims>();
  private readonly principals = new Map<string, CachedPrincipal>();
  private listener: pg.PoolClient | undefined;
  private closed = false;

  constructor(
    private readonly idp: IdentityProvider,
    private readonly db: Db,
    private readonly log: { warn: (obj: object, msg: string) => void } = { warn: () => undefined },
    private readonly now: () => number = Date.now,
  ) {}

  async authenticate(header: string | undefined): Promise<Principal> {
    if (!header) throw AuthErrors.tokenMissing();
    const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/.exec(header.trim());
    if (!match) throw AuthErrors.tokenMalformed();
    const claims = await this.verify(match[1]!);
    return this.principalFor(claims);
  }

  /** Drops what is cached about a user (after a change to them). */
  invalidate(sub: string): void {
    this.principals.delete(sub);
  }

  private async verify(token: string): Promise<IdentityClaims> {
    const key = createHash('sha256').update(token).digest('base64url');
    const now = Date.now() / 1000;
    const cached = this.tokens.get(key);
    if (cached && cached.exp > now) return cached;
    if (cached) this.tokens.delete(key);
    const claims = await this.idp.verifyIdToken(token);
    if (this.tokens.size >= MAX_CACHED_TOKENS) this.evictTokens(now);
    this.tokens.set(key, claims);
    return claims;
  }

  private evictTokens(now: number): void {
    for (const [key, claims] of this.tokens) if (claims.exp <= now) this.tokens.delete(key);
    // Still full: drop the oldest half (Map keeps insertion order).
    if (this.tokens.size >= MAX_CACHED_TOKENS) {
      let n = this.tokens.size / 2;
      for (const key of this.tokens.keys()) {
        if (n-- <= 0) break;
        this.tokens.delete(key);
      }
    }
  }

  private async principalFor(claims: IdentityClaims): Promise<Principal> {
    const cached = this.principals.get(claims.sub);
    if (cached && cached.until > this.now()) return cached.principal;
    const status = await this.idp.userStatus(claims);
    const checkedAt = Math.min(status.checkedAt ?? this.now(), this.now());
    if (!status.exists) throw AuthErrors.userNotFound();
    if (!status.enabled) throw AuthErrors.userDisabled();
    const user = await upsertFromClaims(this.db, claims);
    if (!user.isActive) throw AuthErrors.accountDeactivated();
    const principal: Principal = { userId: user.id, sub: user.sub, username: user.username, email: user.email, role: user.role };
    this.principals.set(claims.sub, { principal, until: checkedAt + PRINCIPAL_TTL_MS });
    return principal;
  }

  /** Listens for principal changes from every process (CLI, other servers). */
  async listen(pool: pg.Pool): Promise<void> {
    if (this.closed) return;
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      this.log.warn({ err: error }, 'cannot listen for principal changes yet; retrying (cache entries expire within 60 s)');
      if (!this.closed) setTimeout(() => void this.listen(pool), 5000).unref();
      return;
    }
    this.listener = client;
    client.on('notification', (message) => {
      if (message.channel === PRINCIPAL_CHANNEL && message.payload) this.invalidate(message.payload);
    });
    client.on('error', (error) => this.lose(pool, client, error));
    try {
      await client.query(`LISTEN ${PRINCIPAL_CHANNEL}`);
    } catch (error) {
      this.lose(pool, client, error);
    }
  }

  /** The listening connection failed: drop it (once, even if it reports several errors) and listen again. */
  private lose(pool: pg.Pool, client: pg.PoolClient, error: unknown): void {
    if (this.listener !== client) return; // already handled, or handed back by close()
    this.listener = undefined;
    this.log.warn({ err: error }, 'principal change listener lost its connection; reconnecting');
    this.principals.clear();
    client.release(true);
    if (!this.closed) setTimeout(() => void this.listen(pool), 1000).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = undefined;
    if (listener) {
      await listener.query(`UNLISTEN ${PRINCIPAL_CHANNEL}`).catch(() => undefined);
      listener.release();
    }
  }
}
