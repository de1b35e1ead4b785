import type { ServiceDeps } from '../../core/service-deps.js';
import type { TokenSet, IdentityProvider } from '../../core/auth/idp/types.js';
import { recordLoginSuccess, releaseLoginAttempt, reserveLoginAttempt } from '../../core/auth/login-throttle.js';
import { AppError } from '../../core/http/problem.js';
import { recordSignIn } from '../users/users.service.js';

/**
 * Password login with brute-force protection around the identity provider: the attempt is
 * counted (atomically) before the password is checked, so a burst cannot get past the limit.
 */
export async function login(deps: ServiceDeps, idp: IdentityProvider, input: { username: string; password: string; ip: string; userAgent?: string | undefined }): Promise<TokenSet> {
  const { db } = deps;
  await reserveLoginAttempt(db, input.username, input.ip);
  let tokens: TokenSet;
  try {
    tokens = await idp.login(input.username, input.password);
    await recordLoginSuccess(db, input.username, input.ip);
  } catch (error) {
    // Wrong passwords stay counted; an unavailable provider gives the attempt back.
    if (!(error instanceof AppError && error.status === 401)) await releaseLoginAttempt(db, input.username, input.ip).catch(() => undefined);
    throw error;
  }
  // The sign-in, for the last sign-in and the activity timeline of the user administration.
  await recordSignIn(deps, await idp.verifyIdToken(tokens.id_token), { ip: input.ip, userAgent: input.userAgent ?? null });
  return tokens;
}

export async function refresh(idp: IdentityProvider, refreshToken: string): Promise<TokenSet> {
  return idp.refresh(refreshToken);
}

/** Ends the refresh token's sign-in, or with `everywhere` every sign-in of its user (see IdentityProvider.signOut). */
export async function logout(idp: IdentityProvider, refreshToken: string, options: { everywhere: boolean }): Promise<void> {
  await idp.signOut(refreshToken, options);
}
