import type { TokenSet, IdentityProvider } from '../../core/auth/idp/types.js';
import { assertLoginAllowed, recordLoginFailure, recordLoginSuccess } from '../../core/auth/login-throttle.js';
import { AppError } from '../../core/http/problem.js';
import type { Db } from '../../core/db/client.js';

/** Password login with brute-force protection around the identity provider. */
export async function login(db: Db, idp: IdentityProvider, input: { username: string; password: string; ip: string }): Promise<TokenSet> {
  await assertLoginAllowed(db, input.username, input.ip);
  try {
    const tokens = await idp.login(input.username, input.password);
    await recordLoginSuccess(db, input.username, input.ip);
    return tokens;
  } catch (error) {
    // Wrong passwords count; an unavailable provider does not.
    if (error instanceof AppError && error.status === 401) await recordLoginFailure(db, input.username, input.ip);
    throw error;
  }
}

export async function refresh(idp: IdentityProvider, refreshToken: string): Promise<TokenSet> {
  return idp.refresh(refreshToken);
}
