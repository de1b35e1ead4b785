import { errors as jose } from 'jose';
import { AppError } from '../../http/problem.js';
import { AuthErrors } from '../auth.errors.js';

/** Maps a jose verification failure to its own 401. */
export function mapJoseError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof jose.JWTExpired) return AuthErrors.tokenExpired();
  if (error instanceof jose.JOSEAlgNotAllowed) return AuthErrors.tokenAlgorithm();
  if (error instanceof jose.JWSSignatureVerificationFailed) return AuthErrors.tokenSignature();
  if (error instanceof jose.JWKSNoMatchingKey) return AuthErrors.tokenUnknownKey();
  if (error instanceof jose.JWTClaimValidationFailed) {
    if (error.claim === 'exp') return AuthErrors.tokenExpMissing();
    if (error.claim === 'iss') return AuthErrors.tokenIssuer();
    if (error.claim === 'aud') return AuthErrors.tokenAudience();
    return AuthErrors.tokenClaims(error.claim);
  }
  return AuthErrors.tokenMalformed();
}
