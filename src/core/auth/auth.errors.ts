import { AppError } from '../http/problem.js';

/** Authentication errors: each failure has its own stable code. */
const unauthorized = (code: string, detail: string) => new AppError(401, code, detail, { headers: { 'www-authenticate': 'Bearer' } });
const LOGIN_AGAIN = 'log in again with POST /api/auth/login';

export const AuthErrors = {
  tokenMissing: () => unauthorized('auth.token_missing', 'Send the id_token from POST /api/auth/login as Authorization: Bearer <id_token>.'),
  tokenMalformed: () => unauthorized('auth.token_malformed', `The Authorization header must be "Bearer <id_token>" with a signed JWT; ${LOGIN_AGAIN}.`),
  tokenExpired: () => unauthorized('auth.token_expired', 'The id_token has expired; renew it with POST /api/auth/refresh.'),
  tokenExpMissing: () => unauthorized('auth.token_exp_missing', `The token has no expiry (exp) and is refused; ${LOGIN_AGAIN}.`),
  tokenAlgorithm: () => unauthorized('auth.token_algorithm_not_allowed', `The token's signing algorithm is not allowed (RS256 only); ${LOGIN_AGAIN}.`),
  tokenSignature: () => unauthorized('auth.token_signature_invalid', `The token's signature does not verify; ${LOGIN_AGAIN}.`),
  tokenUnknownKey: () => unauthorized('auth.token_key_unknown', `The token was signed with a key this service does not know; ${LOGIN_AGAIN}.`),
  tokenAudience: () => unauthorized('auth.token_audience_invalid', `The token was issued for another client (aud); ${LOGIN_AGAIN}.`),
  tokenIssuer: () => unauthorized('auth.token_issuer_invalid', `The token was issued by another identity provider (iss); ${LOGIN_AGAIN}.`),
  tokenClaims: (claim: string) => unauthorized('auth.token_claims_invalid', `The token's ${claim} claim is missing or invalid; ${LOGIN_AGAIN}.`),
  accessTokenUsed: () =>
    unauthorized('auth.access_token_not_accepted', 'This is an access token; the API accepts only the id_token. Send the id_token from the login response as the bearer token.'),
  tokenIssuedInFuture: () => unauthorized('auth.token_issued_in_future', `The token's issue time (iat) is more than 5 minutes in the future; check the clocks, then ${LOGIN_AGAIN}.`),
  tokenBeforePasswordChange: () => unauthorized('auth.token_revoked', `The password of this account was changed or reset after this token was issued; ${LOGIN_AGAIN}.`),
  userNotFound: () => unauthorized('auth.user_not_found', 'The user of this token no longer exists in the identity provider.'),
  userDisabled: () => unauthorized('auth.user_disabled', 'This account is disabled; contact the administrators.'),
  userNotConfirmed: () => unauthorized('auth.user_not_confirmed', 'This account is not confirmed yet; ask an administrator to confirm it.'),
  invalidCredentials: () => unauthorized('auth.invalid_credentials', 'The username or password is wrong.'),
  refreshInvalid: () => unauthorized('auth.refresh_token_invalid', `The refresh token is unknown, expired or revoked; ${LOGIN_AGAIN}.`),
  refreshReused: () =>
    unauthorized('auth.refresh_token_reused', `This refresh token was already used; for safety every session of its login was ended. ${LOGIN_AGAIN.replace(/^l/, 'L')}.`),
  banned: (ban: { id: string; reason: string; endsAt: Date | null }) =>
    new AppError(
      403,
      'auth.banned',
      `Your account is banned ${ban.endsAt === null ? 'permanently' : `until ${ban.endsAt.toISOString()}`}. Reason: ${ban.reason}. ` +
        `Read your ban with GET /api/bans/me; you may appeal it once with POST /api/bans/${ban.id}/appeal.`,
    ),
  accountDeactivated: () => new AppError(403, 'auth.account_deactivated', 'This account has been deactivated by the administrators.'),
  deletionPending: () =>
    new AppError(
      403,
      'auth.deletion_pending',
      'This account is scheduled for deletion and deactivated until then. Read when it will be erased with GET /api/account/deletion; ' +
        'cancel the deletion with DELETE /api/account/deletion to use the account again.',
    ),
  loginThrottled: (retryAfterSeconds: number) =>
    new AppError(429, 'auth.login_throttled', `Too many failed logins; wait ${retryAfterSeconds} s before trying again.`, {
      headers: { 'retry-after': String(retryAfterSeconds) },
    }),
  providerUnavailable: () => new AppError(503, 'auth.provider_unavailable', 'The identity provider cannot be reached; try again in a moment.'),
};
