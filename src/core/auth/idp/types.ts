/** The identity provider interface: the embedded one (`IDP=local`) or Amazon Cognito. */

export interface TokenSet {
  access_token: string;
  id_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** The verified id token's identity claims. */
export interface IdentityClaims {
  sub: string;
  username: string;
  email: string | undefined;
  exp: number;
  /** Issue time (seconds), when the token says. */
  iat?: number;
  /** When the person entered their password (seconds; `auth_time`: refreshed tokens keep it), when the token says. */
  authTime?: number;
}

export interface IdpUserStatus {
  exists: boolean;
  enabled: boolean;
  username?: string;
  email?: string | undefined;
  /**
   * When the provider last checked (ms, the provider's clock); a provider that caches its answer
   * says how old it is, so that callers caching it too stay within 60 s in all.
   */
  checkedAt?: number;
  /** Tokens issued before this time (ms) are refused: the password was changed or reset then. */
  validAfter?: number;
}

export interface IdentityProvider {
  readonly kind: 'local' | 'cognito';
  /** Password login; throws AuthErrors (invalid credentials, disabled, not confirmed). */
  login(username: string, password: string): Promise<TokenSet>;
  /** Exchanges a refresh token for new tokens; throws AuthErrors. */
  refresh(refreshToken: string): Promise<TokenSet>;
  /**
   * Signs out with a refresh token: ends the sign-in it belongs to (that refresh token and every
   * one rotated from it), or with `everywhere` every sign-in of its user. Once it has answered, the
   * ended refresh tokens are refused by `refresh` in every process. A refresh token the provider
   * does not know (or no longer honours) is already signed out: nothing happens. `everywhere` needs
   * a refresh token still valid, to tell whose sessions to end: else `auth.refresh_token_invalid`.
   * Id tokens already issued stay valid until they expire.
   */
  signOut(refreshToken: string, options: { everywhere: boolean }): Promise<void>;
  /** Verifies an id token (signature, RS256, exp, iss, aud, token_use=id); throws AuthErrors. */
  verifyIdToken(token: string): Promise<IdentityClaims>;
  /** Whether the user still exists and is enabled. */
  userStatus(claims: { sub: string; username: string }): Promise<IdpUserStatus>;
  /**
   * Ends every sign-in of the user of `sub` without a token of theirs (an account deactivated for
   * deletion): every refresh token is refused from then on, in every process.
   */
  signOutUser(sub: string): Promise<void>;
  /**
   * Deletes the provider's user of `sub` (an erased account): they can no longer sign in, and
   * their refresh tokens end. A user the provider does not know is deleted already: no error.
   */
  deleteUser(sub: string): Promise<void>;
  /** Looks a user up by username (for `fishlog users set-role`). */
  findUser(username: string): Promise<{ sub: string; username: string; email: string | undefined } | undefined>;
  close(): Promise<void>;
}

export const TOKEN_LIFETIME_SECONDS = 3600;
export const REFRESH_LIFETIME_SECONDS = 30 * 24 * 3600;
