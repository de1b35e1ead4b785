import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import type { Db } from '../db/client.js';
import { listenChannel, type ChannelListener } from '../db/listen.js';
import { AuthErrors } from './auth.errors.js';
import type { IdentityClaims, IdentityProvider } from './idp/types.js';
import type { DirectoryBan, UserDirectory } from './user-directory.js';
import { PRINCIPAL_CHANNEL } from './notify.js';

/** The authenticated caller of a request. */
export interface Principal {
  userId: string;
  sub: string;
  username: string;
  email: string | null;
  role: number;
  /** The user's latest unlifted ban (maybe ended already: see Authenticator.banInForce). */
  ban: DirectoryBan | null;
  /** True while the account's deletion is pending (the account is deactivated meanwhile). */
  pendingDeletion?: boolean;
}

/** The compact JWT of an `Authorization: Bearer <jwt>` header; 401 when absent or not one. */
export function bearerToken(header: string | undefined): string {
  if (!header) throw AuthErrors.tokenMissing();
  if (!header.startsWith('Bearer ')) throw AuthErrors.tokenMalformed();
  const token = header.slice(7).trim();
  const first = token.indexOf('.');
  const second = first < 0 ? -1 : token.indexOf('.', first + 1);
  // Three dot-separated parts; their content is checked by the signature verification.
  if (first <= 0 || second < 0 || token.indexOf('.', second + 1) >= 0 || token.length > 16_384) throw AuthErrors.tokenMalformed();
  return token;
}

/** Verified tokens are cached under a hash of the token, never the token itself. */
function tokenKey(token: string): string {
  return hash('sha256', token, 'base64url');
}

/** How long who-a-user-is may be cached; changes are also pushed by NOTIFY. */
export const PRINCIPAL_TTL_MS = 60_000;
const MAX_CACHED_TOKENS = 50_000;

interface CachedPrincipal {
  principal: Principal;
  until: number;
  /** Tokens issued before this (seconds) are refused: the password changed then. */
  validAfterSeconds: number;
}

/** A token issued before the user's password was changed or reset. */
function issuedBefore(claims: IdentityClaims, validAfterSeconds: number): boolean {
  return validAfterSeconds > 0 && (claims.iat === undefined || claims.iat < validAfterSeconds);
}

/**
 * Verifies bearer id tokens and turns them into principals.
 * - Verified tokens are cached by the SHA-256 of the token, never beyond their `exp`.
 * - The identity provider's word (user exists, enabled) and the User row are cached per `sub`
 *   for at most 60 s, and dropped at once when a change is notified.
 * - An unknown identity gets its User row on first sight (one upsert: no duplicates).
 */
export class Authenticator {
  // Bounded LRU caches (lru-cache): verified tokens by hash, principals by sub, sub by user id.
  // Bounded by a count through `maxSize` (each entry 1), not `max`: `max` allocates its arrays
  // for every entry up front (three caches of 50,000: ~40 ms and a few MB at each start), these grow.
  private readonly tokens = new LRUCache<string, IdentityClaims>({ maxSize: MAX_CACHED_TOKENS, sizeCalculation: () => 1 });
  private readonly principals = new LRUCache<string, CachedPrincipal>({ maxSize: MAX_CACHED_TOKENS, sizeCalculation: () => 1 });
  private readonly subOfUser = new LRUCache<string, string>({ maxSize: MAX_CACHED_TOKENS, sizeCalculation: () => 1 });
  private listener: ChannelListener | undefined;
  private closed = false;

  constructor(
    private readonly idp: IdentityProvider,
    private readonly db: Db,
    private readonly users: UserDirectory,
    private readonly log: { warn: (obj: object, msg: string) => void } = { warn: () => undefined },
    private readonly now: () => number = Date.now,
  ) {}

  async authenticate(header: string | undefined): Promise<Principal> {
    const token = bearerToken(header);
    return this.cachedPrincipal(token) ?? this.principalFor(await this.verify(token));
  }

  /**
   * The hot path, without a promise: a token verified before whose user was checked within the
   * last 60 s. Undefined when the slow path must run.
   */
  cachedPrincipal(token: string): Principal | undefined {
    const claims = this.tokens.get(tokenKey(token));
    if (!claims || claims.exp <= Date.now() / 1000) return undefined;
    const cached = this.principals.get(claims.sub);
    if (!cached || cached.until <= this.now() || issuedBefore(claims, cached.validAfterSeconds)) return undefined;
    return cached.principal;
  }

  /** The principal's ban in force now, by this authenticator's clock (bans end by themselves). */
  banInForce(principal: Principal): DirectoryBan | null {
    const ban = principal.ban;
    return ban && (ban.endsAt === null || ban.endsAt.getTime() > this.now()) ? ban : null;
  }

  /**
   * A banned user gets 403 \`auth.banned\` (reason and end) on every authenticated route except
   * those that declare \`config: { allowBanned: true }\` (reading one's ban, appealing it).
   */
  refuseBanned(principal: Principal, allowBanned: boolean | undefined): void {
    if (allowBanned) return;
    const ban = this.banInForce(principal);
    if (ban) throw AuthErrors.banned(ban);
  }

  /**
   * A user whose account deletion is pending gets 403 \`auth.deletion_pending\` on every
   * authenticated route except those that declare \`config: { allowPendingDeletion: true }\`.
   */
  refusePendingDeletion(principal: Principal, allowPendingDeletion: boolean | undefined): void {
    if (principal.pendingDeletion && !allowPendingDeletion) throw AuthErrors.deletionPending();
  }

  /**
   * Drops what is cached about a user (after a change to them: role, disabled, banned), named by
   * its user id or its identity-provider `sub`. Other processes learn it from NOTIFY
   * (`notifyPrincipalChanged`), which calls this in each of them.
   */
  invalidate(userIdOrSub: string): void {
    this.principals.delete(userIdOrSub);
    const sub = this.subOfUser.get(userIdOrSub);
    if (sub !== undefined) {
      this.principals.delete(sub);
      this.subOfUser.delete(userIdOrSub);
    }
  }

  private async verify(token: string): Promise<IdentityClaims> {
    const key = tokenKey(token);
    const now = Date.now() / 1000;
    const cached = this.tokens.get(key);
    if (cached && cached.exp > now) return cached;
    if (cached) this.tokens.delete(key);
    const claims = await this.idp.verifyIdToken(token);
    this.tokens.set(key, claims);
    return claims;
  }

  private async principalFor(claims: IdentityClaims): Promise<Principal> {
    const cached = this.principals.get(claims.sub);
    if (cached && cached.until > this.now() && !issuedBefore(claims, cached.validAfterSeconds)) return cached.principal;
    const status = await this.idp.userStatus(claims);
    const checkedAt = Math.min(status.checkedAt ?? this.now(), this.now());
    if (!status.exists) throw AuthErrors.userNotFound();
    if (!status.enabled) throw AuthErrors.userDisabled();
    const validAfterSeconds = status.validAfter ? Math.floor(status.validAfter / 1000) : 0;
    if (issuedBefore(claims, validAfterSeconds)) throw AuthErrors.tokenBeforePasswordChange();
    const user = await this.users.upsertFromClaims(this.db, claims);
    const pendingDeletion = !user.isActive && Boolean(user.deletionRequestedAt);
    if (!user.isActive && !pendingDeletion) throw AuthErrors.accountDeactivated();
    const principal: Principal = { userId: user.id, sub: user.sub, username: user.username, email: user.email, role: user.role, ban: user.ban, ...(pendingDeletion ? { pendingDeletion } : {}) };
    this.principals.set(claims.sub, { principal, until: checkedAt + PRINCIPAL_TTL_MS, validAfterSeconds });
    this.subOfUser.set(user.id, claims.sub);
    return principal;
  }

  /**
   * Listens for principal changes from every process (CLI, other servers), on the pool's one
   * listening connection (core/db/listen.ts). While it is lost, and until it listens again, changes
   * are not heard: what is cached then is forgotten (entries also expire within 60 s).
   */
  async listen(pool: pg.Pool): Promise<void> {
    if (this.closed) return;
    this.listener = listenChannel(pool, PRINCIPAL_CHANNEL, { onNotify: (payload) => payload && this.invalidate(payload), onGap: () => this.principals.clear() }, this.log);
    await this.listener.ready;
  }

  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
  }
}
