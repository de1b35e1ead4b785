import { createHash, createHmac } from 'node:crypto';
import {
  AdminDeleteUserCommand,
  AdminUserGlobalSignOutCommand,
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RevokeTokenCommand,
  type AdminGetUserCommandOutput,
  type InitiateAuthCommandOutput,
} from '@aws-sdk/client-cognito-identity-provider';
import { JwtVerifier } from 'aws-jwt-verify';
import {
  CognitoJwtInvalidTokenUseError,
  FetchError,
  JwkInvalidKtyError,
  JwkInvalidUseError,
  JwksNotAvailableInCacheError,
  JwksValidationError,
  JwtExpiredError,
  JwtInvalidAudienceError,
  JwtInvalidClaimError,
  JwtInvalidIssuerError,
  JwtInvalidSignatureAlgorithmError,
  JwtInvalidSignatureError,
  JwtNotBeforeError,
  KidNotFoundInJwksError,
  WaitPeriodNotYetEndedJwkError,
} from 'aws-jwt-verify/error';
import type { Fetcher } from 'aws-jwt-verify/https';
import { assertIsJwks, SimpleJwksCache, type Jwks } from 'aws-jwt-verify/jwk';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { CognitoIdpConfig } from '../../../../config.js';
import { AppError } from '../../../http/problem.js';
import { AuthErrors } from '../../auth.errors.js';
import { checkIdTokenClaims } from '../local/local-idp.js';
import { REFRESH_LIFETIME_SECONDS, TOKEN_LIFETIME_SECONDS, type IdentityClaims, type IdentityProvider, type IdpUserStatus, type TokenSet } from '../types.js';

/** A JSON Web Key Set as served at `/.well-known/jwks.json`. */
export interface JsonWebKeySetLike {
  keys: readonly Record<string, unknown>[];
}

export interface CognitoIdentityProviderOptions {
  /** Pins the signing keys: no JWKS is ever downloaded (tests, or an air-gapped deployment). */
  jwks?: JsonWebKeySetLike;
  /** Clock in milliseconds, for the caches (tests move time instead of sleeping). */
  now?: () => number;
}

/** A disable in Cognito takes effect for this API within this time. */
export const USER_STATUS_TTL_MS = 60_000;
/** While Cognito cannot be reached, a status this old is still trusted rather than failing every request. */
export const USER_STATUS_STALE_MS = 5 * 60_000;
const MAX_CACHED_STATUSES = 50_000;
const MAX_REFRESH_OWNERS = 50_000;
const JWKS_FETCH_TIMEOUT_MS = 5_000;

const WWW_AUTHENTICATE = { 'www-authenticate': 'Bearer' };

/** RevokeToken's answers for a token it cannot revoke: not a refresh token of this client, or none it knows. */
const NOT_REVOCABLE = new Set(['UnsupportedTokenTypeException', 'InvalidParameterException', 'NotAuthorizedException', 'UnauthorizedException']);

/**
 * Amazon Cognito user pool behind the IdentityProvider interface (`IDP=cognito`).
 *
 * Login and refresh use the app client's USER_PASSWORD_AUTH and REFRESH_TOKEN_AUTH flows;
 * id tokens are verified locally against the pool's JWKS (RS256 only); user status comes from
 * AdminGetUser, which needs AWS credentials with `cognito-idp:AdminGetUser` on the pool. Sign-out
 * uses RevokeToken (the app client must have token revocation enabled, Cognito's default) and
 * GlobalSignOut, which the user's own tokens authorise.
 */
export class CognitoIdentityProvider implements IdentityProvider {
  readonly kind = 'cognito' as const;
  /** Cognito signs with the regional issuer, or with the newer global one: both name the same pool. */
  readonly issuers: readonly string[];
  private readonly client: CognitoIdentityProviderClient;
  private readonly verifier: { verify(token: string): Promise<JwtPayload> };
  private readonly now: () => number;
  private readonly statuses = new Map<string, { status: IdpUserStatus; fetchedAt: number }>();
  private readonly refreshOwners = new Map<string, { username: string; until: number }>();

  constructor(
    private readonly config: CognitoIdpConfig,
    options: CognitoIdentityProviderOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.issuers = [
      `https://cognito-idp.${config.region}.amazonaws.com/${config.userPoolId}`,
      `https://issuer-cognito-idp.${config.region}.amazonaws.com/${config.userPoolId}`,
    ];
    this.client = new CognitoIdentityProviderClient({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      maxAttempts: 2,
      // A login must not hang on a stalled connection: fail over to a 503 instead.
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000 },
      ...standInCredentials(config.endpoint, process.env),
    });
    this.verifier = createVerifier(config, this.issuers, options.jwks);
  }

  async login(username: string, password: string): Promise<TokenSet> {
    const parameters: Record<string, string> = { USERNAME: username, PASSWORD: password };
    if (this.config.clientSecret) parameters.SECRET_HASH = secretHash(this.config.clientSecret, username, this.config.clientId);
    const output = await this.initiateAuth('USER_PASSWORD_AUTH', parameters, mapLoginError);
    const tokens = tokenSet(output, undefined);
    this.rememberRefreshOwner(tokens.refresh_token, canonicalUsername(tokens.id_token, username));
    return tokens;
  }

  /**
   * With a client secret, Cognito wants SECRET_HASH on refresh too, computed with the user's
   * (canonical) username, which an opaque refresh token does not reveal. The username is
   * therefore remembered in memory at login, keyed by the token's hash. A refresh token from
   * before a restart, or from another instance, is sent without SECRET_HASH and Cognito answers
   * it as invalid: the user logs in again. Without a client secret nothing is remembered.
   */
  async refresh(refreshToken: string): Promise<TokenSet> {
    const owner = this.refreshOwner(refreshToken);
    const output = await this.initiateAuth('REFRESH_TOKEN_AUTH', this.refreshParameters(refreshToken, owner), mapRefreshError);
    // Without refresh-token rotation Cognito returns no new refresh token: the presented one stays valid.
    const tokens = tokenSet(output, refreshToken);
    if (owner && tokens.refresh_token !== refreshToken) this.rememberRefreshOwner(tokens.refresh_token, owner);
    return tokens;
  }

  /**
   * One sign-in: RevokeToken ends the refresh token (and Cognito's access tokens issued from it).
   * A token Cognito cannot revoke (not one of its refresh tokens, of another client, revoked
   * already) is answered as done, for the reasons the interface gives.
   * Everywhere: a refresh token names no user, so it is exchanged for an access token first
   * (REFRESH_TOKEN_AUTH), which GlobalSignOut takes to end every sign-in of its user. Cognito
   * refuses that exchange for a revoked or unknown token (`auth.refresh_token_invalid`) and for a
   * disabled user (`auth.user_disabled`, whose refresh tokens Cognito refuses anyway). With a
   * client secret, the same limit as `refresh`: the token must have been issued by this process.
   */
  async signOut(refreshToken: string, { everywhere }: { everywhere: boolean }): Promise<void> {
    if (everywhere) {
      const output = await this.initiateAuth('REFRESH_TOKEN_AUTH', this.refreshParameters(refreshToken, this.refreshOwner(refreshToken)), mapRefreshError);
      const accessToken = tokenSet(output, refreshToken).access_token;
      await this.call(() => this.client.send(new GlobalSignOutCommand({ AccessToken: accessToken })), (error) =>
        errorName(error) === 'NotAuthorizedException' ? AuthErrors.refreshInvalid() : AuthErrors.providerUnavailable(),
      );
    } else {
      const secret = this.config.clientSecret ? { ClientSecret: this.config.clientSecret } : {};
      await this.call(() => this.client.send(new RevokeTokenCommand({ Token: refreshToken, ClientId: this.config.clientId, ...secret })), (error) =>
        NOT_REVOCABLE.has(errorName(error) ?? '') ? undefined : AuthErrors.providerUnavailable(),
      );
    }
    this.refreshOwners.delete(tokenHash(refreshToken));
  }

  async verifyIdToken(token: string): Promise<IdentityClaims> {
    this.precheck(token);
    let payload: JwtPayload;
    try {
      payload = await this.verifier.verify(token);
    } catch (error) {
      throw mapVerifyError(error);
    }
    return checkIdTokenClaims(payload as Record<string, unknown>, this.config.clientId);
  }

  async userStatus(claims: { sub: string; username: string }): Promise<IdpUserStatus> {
    const cached = this.statuses.get(claims.sub);
    const age = cached ? this.now() - cached.fetchedAt : Infinity;
    if (cached && age < USER_STATUS_TTL_MS) return { ...cached.status, checkedAt: cached.fetchedAt };
    let status: IdpUserStatus;
    try {
      status = statusOf(await this.adminGetUser(claims.username), claims.sub);
    } catch (error) {
      // An outage of Cognito should not log everybody out at once: a recent answer still holds.
      if (error instanceof AppError && error.status === 503 && cached && age < USER_STATUS_STALE_MS) return { ...cached.status, checkedAt: this.now() };
      throw error;
    }
    this.cacheStatus(claims.sub, status);
    return { ...status, checkedAt: this.now() };
  }

  async findUser(username: string): Promise<{ sub: string; username: string; email: string | undefined } | undefined> {
    const user = await this.adminGetUser(username);
    const sub = user && attribute(user, 'sub');
    if (!user || !sub) return undefined;
    return { sub, username: user.Username ?? username, email: attribute(user, 'email') };
  }

  /** AdminUserGlobalSignOut (needs `cognito-idp:AdminUserGlobalSignOut` on the pool): every refresh token of the user ends. */
  async signOutUser(sub: string): Promise<void> {
    await this.call(() => this.client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: this.config.userPoolId, Username: sub })), (error) =>
      errorName(error) === 'UserNotFoundException' ? undefined : AuthErrors.providerUnavailable(),
    );
  }

  /** AdminDeleteUser (needs `cognito-idp:AdminDeleteUser` on the pool); the pool accepts the `sub` as the username. */
  async deleteUser(sub: string): Promise<void> {
    await this.call(() => this.client.send(new AdminDeleteUserCommand({ UserPoolId: this.config.userPoolId, Username: sub })), (error) =>
      errorName(error) === 'UserNotFoundException' ? undefined : AuthErrors.providerUnavailable(),
    );
    this.statuses.delete(sub);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  /** Checks what the signature check cannot answer precisely, so each failure gets its own code. */
  private precheck(token: string): void {
    let alg: unknown;
    let iss: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
      iss = decodeJwt(token).iss;
    } catch {
      throw AuthErrors.tokenMalformed();
    }
    // Cognito signs with RS256 only; anything else ("none", HS256 keyed with the public key) is an attack.
    if (alg !== 'RS256') throw AuthErrors.tokenAlgorithm();
    if (typeof iss !== 'string' || !this.issuers.includes(iss)) throw AuthErrors.tokenIssuer();
  }

  /** REFRESH_TOKEN_AUTH's parameters: with a client secret, SECRET_HASH of the token's owner when known (see `refresh`). */
  private refreshParameters(refreshToken: string, owner: string | undefined): Record<string, string> {
    const parameters: Record<string, string> = { REFRESH_TOKEN: refreshToken };
    if (this.config.clientSecret && owner) parameters.SECRET_HASH = secretHash(this.config.clientSecret, owner, this.config.clientId);
    return parameters;
  }

  /** A call whose answer is not needed; `mapError` turns its failure into the AppError to throw, or undefined to let it pass. */
  private async call(send: () => Promise<unknown>, mapError: (error: unknown) => AppError | undefined): Promise<void> {
    try {
      await send();
    } catch (error) {
      const mapped = mapError(error);
      if (mapped) throw mapped;
    }
  }

  private async initiateAuth(
    flow: 'USER_PASSWORD_AUTH' | 'REFRESH_TOKEN_AUTH',
    parameters: Record<string, string>,
    mapError: (error: unknown) => AppError,
  ): Promise<InitiateAuthCommandOutput> {
    try {
      return await this.client.send(new InitiateAuthCommand({ AuthFlow: flow, ClientId: this.config.clientId, AuthParameters: parameters }));
    } catch (error) {
      throw mapError(error);
    }
  }

  /** The user, or undefined when Cognito does not know them. */
  private async adminGetUser(username: string): Promise<AdminGetUserCommandOutput | undefined> {
    try {
      return await this.client.send(new AdminGetUserCommand({ UserPoolId: this.config.userPoolId, Username: username }));
    } catch (error) {
      if (errorName(error) === 'UserNotFoundException') return undefined;
      throw AuthErrors.providerUnavailable();
    }
  }

  private cacheStatus(sub: string, status: IdpUserStatus): void {
    this.statuses.delete(sub);
    this.statuses.set(sub, { status, fetchedAt: this.now() });
    // Map order is insertion order: the first entry is the oldest.
    if (this.statuses.size > MAX_CACHED_STATUSES) this.statuses.delete(this.statuses.keys().next().value!);
  }

  private rememberRefreshOwner(refreshToken: string, username: string): void {
    if (!this.config.clientSecret) return;
    this.refreshOwners.set(tokenHash(refreshToken), { username, until: this.now() + REFRESH_LIFETIME_SECONDS * 1000 });
    if (this.refreshOwners.size > MAX_REFRESH_OWNERS) this.refreshOwners.delete(this.refreshOwners.keys().next().value!);
  }

  private refreshOwner(refreshToken: string): string | undefined {
    const key = tokenHash(refreshToken);
    const owner = this.refreshOwners.get(key);
    if (!owner) return undefined;
    // Past the refresh token's lifetime Cognito refuses it anyway: forget the entry.
    if (owner.until <= this.now()) {
      this.refreshOwners.delete(key);
      return undefined;
    }
    return owner.username;
  }
}

/** Cognito's SECRET_HASH: base64(HMAC-SHA256(client secret, username + client id)). */
export function secretHash(clientSecret: string, username: string, clientId: string): string {
  return createHmac('sha256', clientSecret).update(username + clientId).digest('base64');
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * AdminGetUser is signed with AWS credentials from the default provider chain. A loopback
 * endpoint is a local stand-in that does not check signatures: without credentials in the
 * environment it gets dummy ones, so the chain never probes the instance metadata service.
 * Any other endpoint (a VPC endpoint) always uses the real chain.
 */
function standInCredentials(endpoint: string | undefined, env: NodeJS.ProcessEnv): { credentials?: { accessKeyId: string; secretAccessKey: string } } {
  if (!endpoint || env.AWS_ACCESS_KEY_ID || env.AWS_PROFILE) return {};
  let host: string;
  try {
    host = new URL(endpoint).hostname;
  } catch {
    return {};
  }
  return LOOPBACK_HOSTS.test(host) ? { credentials: { accessKeyId: 'loopback-stand-in', secretAccessKey: 'loopback-stand-in' } } : {};
}

/**
 * The id-token verifier. Keys come from the pinned JWKS when given; else from the pool's JWKS
 * (at the configured endpoint when there is one, so a VPC endpoint or stand-in serves it).
 * Audience and token_use are left to checkIdTokenClaims, which tells an access token apart.
 */
function createVerifier(config: CognitoIdpConfig, issuers: readonly string[], jwks: JsonWebKeySetLike | undefined) {
  const base = config.endpoint ? config.endpoint.replace(/\/+$/, '') : `https://cognito-idp.${config.region}.amazonaws.com`;
  const jwksUri = `${base}/${config.userPoolId}/.well-known/jwks.json`;
  const jwksCache = jwks ? new PinnedJwksCache() : config.endpoint ? new SimpleJwksCache({ fetcher: anyProtocolFetcher }) : new SimpleJwksCache();
  const verifier = JwtVerifier.create(
    issuers.map((issuer) => ({ issuer, jwksUri, audience: null, customJwtCheck: requireExp })),
    { jwksCache },
  );
  if (jwks) {
    assertIsJwks(jwks as unknown as Parameters<typeof assertIsJwks>[0]);
    for (const issuer of issuers) verifier.cacheJwks(jwks as unknown as Jwks, issuer);
  }
  return { verify: (token: string) => verifier.verify(token) as Promise<JwtPayload> };
}

/** aws-jwt-verify accepts a token without `exp`; this API refuses it. */
function requireExp({ payload }: { payload: JwtPayload }): void {
  if (typeof payload.exp !== 'number') throw AuthErrors.tokenExpMissing();
}

/** A JWKS cache that never downloads: an unknown kid stays unknown. */
class PinnedJwksCache extends SimpleJwksCache {
  override async getJwk(jwksUri: string, decomposedJwt: Parameters<SimpleJwksCache['getJwk']>[1]) {
    return this.getCachedJwk(jwksUri, decomposedJwt);
  }

  override async getJwks(jwksUri: string): Promise<Jwks> {
    throw new JwksNotAvailableInCacheError(`JWKS for ${jwksUri} is pinned and not downloaded`);
  }
}

/** The library's own fetcher speaks https only; a configured endpoint may be plain http (loopback stand-in). */
const anyProtocolFetcher: Fetcher = {
  async fetch(uri) {
    let response: Response;
    try {
      response = await fetch(uri, { signal: AbortSignal.timeout(JWKS_FETCH_TIMEOUT_MS) });
    } catch (error) {
      throw new FetchError(uri, error instanceof Error ? error.message : String(error));
    }
    if (response.status !== 200) throw new FetchError(uri, `Status code is ${response.status}, expected 200`);
    return response.arrayBuffer();
  },
};

function mapVerifyError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof JwtExpiredError) return AuthErrors.tokenExpired();
  if (error instanceof JwtInvalidSignatureError) return AuthErrors.tokenSignature();
  if (error instanceof JwtInvalidSignatureAlgorithmError) return AuthErrors.tokenAlgorithm();
  if (error instanceof JwtInvalidIssuerError) return AuthErrors.tokenIssuer();
  if (error instanceof JwtInvalidAudienceError) return AuthErrors.tokenAudience();
  if (error instanceof KidNotFoundInJwksError || error instanceof JwksNotAvailableInCacheError || error instanceof WaitPeriodNotYetEndedJwkError) {
    return AuthErrors.tokenUnknownKey();
  }
  // A key of the right kid but unfit for signatures is not a key this service trusts.
  if (error instanceof JwkInvalidUseError || error instanceof JwkInvalidKtyError) return AuthErrors.tokenUnknownKey();
  if (error instanceof JwtInvalidClaimError) return AuthErrors.tokenClaims(claimName(error));
  // The pool's JWKS could not be downloaded or read: Cognito's problem, not the caller's.
  if (error instanceof FetchError || error instanceof JwksValidationError) return AuthErrors.providerUnavailable();
  // JwtParseError, JwtWithoutValidKidError and anything unexpected.
  return AuthErrors.tokenMalformed();
}

function claimName(error: JwtInvalidClaimError): string {
  if (error instanceof JwtNotBeforeError) return 'nbf';
  if (error instanceof CognitoJwtInvalidTokenUseError) return 'token_use';
  return 'required';
}

function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

function mapLoginError(error: unknown): AppError {
  const name = errorName(error);
  if (name === 'NotAuthorizedException') return isDisabled(error) ? AuthErrors.userDisabled() : AuthErrors.invalidCredentials();
  // Same answer as a wrong password: the response must not tell which usernames exist.
  if (name === 'UserNotFoundException') return AuthErrors.invalidCredentials();
  if (name === 'UserNotConfirmedException') return AuthErrors.userNotConfirmed();
  if (name === 'PasswordResetRequiredException') {
    return new AppError(401, 'auth.password_reset_required', 'The password of this account must be reset first; ask an administrator to reset it.', {
      headers: WWW_AUTHENTICATE,
    });
  }
  // Throttling, network failures, Cognito 5xx, and misconfiguration (unknown client, flow not enabled).
  return AuthErrors.providerUnavailable();
}

function mapRefreshError(error: unknown): AppError {
  if (errorName(error) === 'NotAuthorizedException') return isDisabled(error) ? AuthErrors.userDisabled() : AuthErrors.refreshInvalid();
  return AuthErrors.providerUnavailable();
}

function isDisabled(error: unknown): boolean {
  return error instanceof Error && /disabled/i.test(error.message);
}

function tokenSet(output: InitiateAuthCommandOutput, presentedRefreshToken: string | undefined): TokenSet {
  const result = output.AuthenticationResult;
  if (!result) {
    const challenge = output.ChallengeName ?? 'unknown';
    throw new AppError(
      401,
      'auth.challenge_required',
      `Cognito requires the ${challenge} challenge before this account can log in; this API cannot complete it, ask an administrator.`,
      { headers: WWW_AUTHENTICATE },
    );
  }
  const refreshToken = result.RefreshToken ?? presentedRefreshToken;
  if (!result.AccessToken || !result.IdToken || !refreshToken) throw AuthErrors.providerUnavailable();
  return {
    access_token: result.AccessToken,
    id_token: result.IdToken,
    refresh_token: refreshToken,
    token_type: 'Bearer',
    expires_in: result.ExpiresIn ?? TOKEN_LIFETIME_SECONDS,
  };
}

/**
 * Cognito's own username for the user (`cognito:username`), which differs from what was typed
 * when the user logs in with an alias such as the email. The token comes straight from Cognito
 * over the SDK's connection, so reading it without verifying is safe here.
 */
function canonicalUsername(idToken: string, typed: string): string {
  try {
    const username = decodeJwt(idToken)['cognito:username'];
    return typeof username === 'string' && username.length > 0 ? username : typed;
  } catch {
    return typed;
  }
}

function attribute(user: AdminGetUserCommandOutput, name: string): string | undefined {
  return user.UserAttributes?.find((a) => a.Name === name)?.Value;
}

/** A user re-created under the same username has another sub: the token's user no longer exists. */
function statusOf(user: AdminGetUserCommandOutput | undefined, sub: string): IdpUserStatus {
  if (!user) return { exists: false, enabled: false };
  const actualSub = attribute(user, 'sub');
  if (actualSub !== undefined && actualSub !== sub) return { exists: false, enabled: false };
  // After an administrator's password reset, tokens issued before it are refused (until the user
  // sets a new password, Cognito reports RESET_REQUIRED / FORCE_CHANGE_PASSWORD).
  const reset = user.UserStatus === 'RESET_REQUIRED' || user.UserStatus === 'FORCE_CHANGE_PASSWORD';
  const validAfter = reset ? (user.UserLastModifiedDate?.getTime() ?? Date.now()) : undefined;
  return { exists: true, enabled: user.Enabled === true, username: user.Username, email: attribute(user, 'email'), ...(validAfter ? { validAfter } : {}) };
}
