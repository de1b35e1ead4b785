import type { TokenSet, IdentityProvider } from '../../core/auth/idp/types.js';
import { recordLoginSuccess, releaseLoginAttempt, reserveLoginAttempt } from '../../core/auth/login-throttle.js';
import { AppError } from '../../core/http/problem.js';
import type { Db } from '../../core/db/client.js';

/**
 * Password login with brute-force protection around the identity provider: the attempt is
 * counted (atomically) before the password is checked, so a burst cannot get past the limit.
 */
export async function login(db: Db, idp: IdentityProvider, input: { username: string; password: string; ip: string }): Promise<TokenSet> {
  await reserveLoginAttempt(db, input.username, input.ip);
  try {
    const tokens = await idp.login(input.username, input.password);
    await recordLoginSuccess(db, input.username, input.ip);
    return tokens;
  } catch (error) {
    // Wrong passwords stay counted; an unavailable provider gives the attempt back.
    if (!(error instanceof AppError && error.status === 401)) await releaseLoginAttempt(db, input.username, input.ip).catch(() => undefined);
    throw error;
  }
}

export async function refresh(idp: IdentityProvider, refreshToken: string): Promise<TokenSet> {
  return idp.refresh(refreshToken);
}
