import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { Type } from 'typebox';
import { makeRoutesPublic } from '../access/access.js';
import { describeLevel, type AccessLevel } from '../access/resolve.js';
import { openDuringMaintenance } from './maintenance.js';
import { finishDocument, limitInputSchema, SHARED_RESPONSES, SHARED_RESPONSES_KEY, sharedResponseRef, type SharedResponse, type SharedResponseRef } from './openapi-document.js';
import { refusesBody } from './body-guard.js';
import { ERROR_DESCRIPTIONS, errorResponses } from './schemas.js';
import { takesBody } from './route-hooks.js';

/**
 * OpenAPI 3.1 from the route schemas (`/openapi.json`) and the interactive reference (`/docs`),
 * served from npm packages. Every operation gets its security requirement, an `x-access`
 * extension with the route's access level, and the error responses every route can give.
 */

const NO_BODY_400 = 'Bad request: this operation takes no request body (any body, `{}` too, is refused: `request.validation_failed` naming the body), or a bad id or query parameter';

export const API_TAGS = [
  { name: 'system', description: 'Health and service information' },
  { name: 'auth', description: 'Login, token refresh and logout (public)' },
  { name: 'fishing log', description: 'Entries, sessions and catches, shared as far as their owner chooses; DNR research access with consent' },
  { name: 'fishing log: research', description: 'Research consent, DNR analysis (consent-filtered, logged) and the log of reads of your data' },
  { name: 'social: friends', description: 'Friends (mutual adds) and the circle' },
  { name: 'profiles', description: 'User profiles and the personal bests shown with them, privacy respected' },
  { name: 'personal bests', description: 'Criteria, automatically detected personal bests and the ultimate personal best' },
  { name: 'fish species', description: 'Fish species with their taxonomy; typo-tolerant name search' },
  { name: 'brands', description: 'Fishing-gear brands with usage statistics' },
  { name: 'gear catalog', description: 'Rods, reels, lines, lures and apparel: the read-only catalog' },
  { name: 'gear: boats', description: 'Your boats' },
  { name: 'gear: setups', description: 'Your gear setups: rod, reel, line and lures from the catalog' },
  { name: 'admin: employees', description: 'Owner-only: admins, moderators and their permissions' },
  { name: 'admin: species', description: 'Managing the species catalogue (Species.Manage)' },
  { name: 'admin: brands', description: 'Managing brands (Brands.Manage)' },
  { name: 'admin: gear catalog', description: 'Managing catalog items of every kind (Brands.Manage)' },
  { name: 'social: posts', description: 'Posts, likes and comments, shared as far as their author chooses and moderated before publishing' },
  { name: 'social: reports', description: 'Reporting posts, comments and users to the moderators' },
  {
    name: 'photos',
    description:
      'Photo files: uploading one to a catch, an entry, a post, a fishing report, a spot or your avatar (multipart, re-encoded without metadata), downloading either size as its record is seen, ordering, the cover, deleting',
  },
  { name: 'admin: moderation', description: 'Review queue and decisions, moderation rules, provider settings and cost dashboard' },
  { name: 'admin: reports', description: 'User reports (complaints) and their resolution' },
  { name: 'payments', description: 'Payment provider webhooks' },
  { name: 'charters', description: 'Charter captains, listings, availability and bookings' },
  { name: 'admin: charters', description: 'Verifying charter captains' },
  { name: 'admin: payments', description: 'Payments of every kind, failed payments, revenue and refunds (payments.refund)' },
  { name: 'tournaments', description: 'Organizers, tournaments, registrations, catch judging, leaderboards, results and sponsors' },
  { name: 'admin: tournaments', description: 'Reviewing tournaments (Tournaments.*) and organizers (Organizers.*)' },
  { name: 'regulations', description: 'Fishing rules in force at a place and date, and whether a logged catch may be kept' },
  { name: 'regulations: master angler', description: 'State Master Angler programs, submissions of your catches and award progress' },
  { name: 'admin: regulations', description: 'Jurisdictions, zones, versioned rule sets, emergency orders, Master Angler programs and submission review (Regulations.View / Regulations.Edit)' },
];

interface RouteSchema extends FastifySchema {
  hide?: boolean;
  security?: Array<Record<string, string[]>>;
  description?: string;
  'x-access'?: unknown;
  'x-fishlog-shared-responses'?: Record<string, SharedResponseRef>;
  response?: Record<string | number, unknown>;
}

/**
 * The shared responses (SHARED_RESPONSES) an operation can give, by status. Every operation: 429
 * (rate limits count every request) and 500. A signed-in one: 401, 403 (a banned caller, unless
 * the route lets them in, and a deactivated one) and 503 (maintenance, database, identity
 * provider). A public one: the 503 of maintenance and the database, unless maintenance leaves it
 * open (the health probes, sign-in: those declare their own 503 where they have one).
 */
function sharedResponsesOf(url: string, isPublic: boolean, allowBanned: boolean): Partial<Record<number, SharedResponse>> {
  const shared: Partial<Record<number, SharedResponse>> = { 429: 'TooManyRequests', 500: 'InternalServerError' };
  if (!isPublic) Object.assign(shared, { 401: 'Unauthorized', 403: allowBanned ? 'AccountDeactivated' : 'CallerRefused', 503: 'ServiceUnavailable' });
  else if (!openDuringMaintenance(url)) shared[503] = 'ServiceUnavailable';
  return shared;
}

/** The `$ref`s of the shared responses, keeping a route's own description of that status where it says more (a 403 of a permission). */
function sharedReferences(shared: Partial<Record<number, SharedResponse>>, own: Record<string | number, unknown>): Record<string, SharedResponseRef> {
  const out: Record<string, SharedResponseRef> = {};
  for (const [status, name] of Object.entries(shared) as [string, SharedResponse][]) {
    const description = (own[status] as { description?: unknown } | undefined)?.description;
    const says = typeof description === 'string' && description !== ERROR_DESCRIPTIONS[Number(status)] && description !== SHARED_RESPONSES[name].description;
    out[status] = sharedResponseRef(name, says || (status === '403' && typeof description === 'string') ? description : undefined);
  }
  return out;
}

/** Adds security, access and common error responses to every route as it is registered. */
export function decorateRoutesForOpenApi(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as RouteSchema;
    if (schema.hide) return;
    const access: AccessLevel = route.config?.access ?? 'authenticated';
    const isPublic = access === 'public';
    schema.security = isPublic ? [] : [{ bearerAuth: [] }];
    schema['x-access'] = access;
    const accessLine = `Access: ${describeLevel(access)}`;
    if (!schema.description?.includes('Access:')) {
      schema.description = schema.description ? `${schema.description}\n\n${accessLine}` : accessLine;
    }
    const shared = sharedResponsesOf(route.url, isPublic, route.config?.allowBanned === true);
    // A route open to some roles or permissions only refuses the others (403), as its own answer.
    const restricted = access !== 'public' && access !== 'authenticated';
    const own = { ...(restricted ? errorResponses(403) : {}), ...(schema.response ?? {}) };
    schema[SHARED_RESPONSES_KEY] = sharedReferences(shared, own);
    const common: number[] = Object.keys(shared).map(Number);
    if (schema.body || schema.querystring || schema.params || takesBody(route)) common.push(400);
    // A body is read (and can be too large or of another type) wherever the method has one.
    if (takesBody(route)) common.push(413, 415);
    const own400 = (own[400] as { description?: unknown } | undefined)?.description;
    const bodyless = refusesBody(route) && (own400 === undefined || own400 === ERROR_DESCRIPTIONS[400]) ? { 400: Type.Ref('Problem', { description: NO_BODY_400 }) } : {};
    schema.response = { ...errorResponses(...common), ...own, ...bodyless };
    // Request schemas with a maxLength on every string and a format on every integer (enforced).
    for (const part of ['body', 'querystring', 'params', 'headers'] as const) {
      if (schema[part]) schema[part] = limitInputSchema(schema[part]);
    }
    route.schema = schema;
  });
}

export async function registerOpenApi(app: FastifyInstance, options: { version: string; publicDocs: boolean }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'fishlog API',
        version: options.version,
        description:
          'HTTP JSON API behind the fishlog fishing-log application. Every endpoint needs `Authorization: Bearer <id_token>` ' +
          'except `GET /health` (and `/health/live`, `/health/ready`), `POST /api/auth/login`, `POST /api/auth/refresh` and `POST /api/auth/logout`. Errors are RFC 9457 problem+json with a stable `code`. ' +
          'Lists take `page` (from 1) and `pageSize` (default 20, max 100) and answer a JSON array with `X-Total-Count` and `Link` headers. ' +
          'An operation without a request body refuses one, `{}` too (400 `request.validation_failed`, the error `in: body`). ' +
          'The answers that do not depend on the operation are shared `components.responses`: 401, the 403 of a banned or deactivated caller, 429, 503 (maintenance mode, an unreachable database) and 500.',
      },
      servers: [
        {
          url: '/',
          description: 'The server that serves this document, whatever its environment (local, staging or production)',
        },
      ],
      tags: API_TAGS,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'The id_token returned by POST /api/auth/login (not the access_token). A JWS following RFC8725 (JSON Web Token Best Current ' +
              'Practices): the algorithm is fixed (RS256; `none` and HMAC are refused), issuer, audience, token use and expiry are checked.',
          },
        },
      },
    },
    transformObject: (document) => ('openapiObject' in document ? finishDocument(document.openapiObject) : document.swaggerObject),
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });

  await app.register(async (docs) => {
    if (options.publicDocs) makeRoutesPublic(docs);
    docs.get(
      '/openapi.json',
      {
        schema: {
          hide: true,
          response: { 200: Type.Object({}, { additionalProperties: true }) },
        },
      },
      async () => docs.swagger(),
    );
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { docExpansion: 'list', deepLinking: true, persistAuthorization: true },
      staticCSP: true,
    });
  });
}
