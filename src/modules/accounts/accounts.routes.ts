import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { Type } from 'typebox';
import { errorResponses } from '../../core/http/schemas.js';
import { LoginBody, LogoutBody, RefreshBody, TokenResponse } from './accounts.schemas.js';
import { login, logout, refresh } from './accounts.service.js';

/** Maintenance mode leaves sign-in open; what it can still be refused for now, with Retry-After where the server knows when. */
const unavailable = (what: string) =>
  Type.Ref('Problem', {
    description: `Unavailable for now: ${what}the database cannot be reached (\`service.database_unavailable\`, Retry-After 5) or the identity provider cannot (\`auth.provider_unavailable\`)`,
  });

/** The public endpoints under /api/auth: login, refresh and logout. */
export const authRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  app.post(
    '/api/auth/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'login',
        summary: 'Log in with username and password',
        description:
          'Returns Cognito-shaped tokens. Send the `id_token` as the bearer token. A wrong password and an unknown user give the same 401 ' +
          '(`auth.invalid_credentials`); a disabled or unconfirmed account is only revealed after the right password. Repeated failures ' +
          'are throttled per username and client IP (429 with Retry-After, at most 15 minutes).',
        body: LoginBody,
        response: { 200: TokenResponse, ...errorResponses(401, 429), 503: unavailable('too many sign-ins are being checked at once (`auth.busy`, Retry-After), ') },
      },
    },
    async (request) => login(serviceDeps(deps), deps.idp, { ...request.body, ip: request.ip, userAgent: request.headers['user-agent'] }),
  );

  app.post(
    '/api/auth/refresh',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'refreshTokens',
        summary: 'Renew the tokens with a refresh token',
        description:
          'Returns new tokens and a new refresh token (the presented one is used up). Presenting a used refresh token again ends every ' +
          'session of that login (`auth.refresh_token_reused`), except within 10 seconds of its first use, so two tabs refreshing at once ' +
          'are not logged out.',
        body: RefreshBody,
        response: { 200: TokenResponse, ...errorResponses(401), 503: unavailable('') },
      },
    },
    async (request) => refresh(deps.idp, request.body.refreshToken),
  );

  app.post(
    '/api/auth/logout',
    {
      // Public like refresh: the refresh token is the credential (it can mint id tokens, so an id
      // token would prove nothing more), and signing out must work in every state of the caller:
      // an expired id token, a banned, deactivated or disabled account.
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'logout',
        summary: 'Sign out: end this sign-in, or every sign-in',
        description:
          'Ends the sign-in of the refresh token: it, and every refresh token rotated from the same login, get 401 ' +
          '`auth.refresh_token_invalid` on POST /api/auth/refresh from the moment this answers, on every server. With ' +
          '`"everywhere": true` every sign-in of its user ends (every device). A refresh token that is unknown, expired or ' +
          'revoked already is answered 204 too (RFC 7009): it no longer works, which is what signing out asks for. Id tokens ' +
          'already issued stay valid until they expire (at most an hour): forget them with the refresh token.',
        body: LogoutBody,
        response: {
          204: Type.Null({ description: 'Signed out: the refresh token (with `everywhere`, every refresh token of its user) is refused from now on' }),
          401: Type.Ref('Problem', {
            description:
              'Only with `everywhere`: the refresh token is unknown, expired or revoked, so it names no user whose sign-ins to end ' +
              '(`auth.refresh_token_invalid`: log in again, then sign out everywhere); with Cognito, a disabled user (`auth.user_disabled`)',
          }),
          503: unavailable(''),
        },
      },
    },
    async (request, reply) => {
      await logout(deps.idp, request.body.refreshToken, { everywhere: request.body.everywhere ?? false });
      return reply.code(204).send(null);
    },
  );
};
