import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifySchemaCompiler, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Database } from './core/db/client.js';
import rateLimit from '@fastify/rate-limit';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { Redis } from 'ioredis';
import { enforceAccess, routeAccess } from './core/access/access.js';
import { Authenticator, bearerToken } from './core/auth/authenticate.js';
import { createIdentityProvider } from './core/auth/idp/index.js';
import type { IdentityProvider } from './core/auth/idp/types.js';
import { AppError } from './core/http/problem.js';
import { registerErrorHandling } from './core/http/error-handler.js';
import { decorateRoutesForOpenApi, registerOpenApi } from './core/http/openapi.js';
import { sharedSchemas } from './core/http/schemas.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { employeesRoutes } from './modules/admin/employees/employees.routes.js';
import { friendsRoutes } from './modules/social/friends.routes.js';
import { fishingLogRoutes } from './modules/fishing-log/fishing-log.routes.js';
import { dnrRoutes } from './modules/fishing-log/dnr.routes.js';
import { profilesRoutes } from './modules/profiles/profiles.routes.js';
import { personalBestsRoutes } from './modules/personal-bests/personal-bests.routes.js';
import { speciesRoutes } from './modules/species/species.routes.js';
import { speciesAdminRoutes } from './modules/species/species.admin.routes.js';
import { brandsRoutes } from './modules/brands/brands.routes.js';
import { brandsAdminRoutes } from './modules/brands/brands.admin.routes.js';
import { gearRoutes } from './modules/gear/gear.routes.js';
import { gearAdminRoutes } from './modules/gear/gear.admin.routes.js';
import { boatsRoutes } from './modules/gear/boats.routes.js';
import { setupsRoutes } from './modules/gear/setups.routes.js';
import { postsRoutes } from './modules/social/posts.routes.js';
import { commentsRoutes } from './modules/social/comments.routes.js';
import { reportsRoutes } from './modules/social/reports.routes.js';
import { adminModerationRoutes } from './modules/admin/moderation/moderation.routes.js';
import { moderationSettingsRoutes } from './modules/admin/moderation/moderation-settings.routes.js';
import { moderationRulesRoutes } from './modules/admin/moderation/moderation-rules.routes.js';
import { adminReportsRoutes } from './modules/admin/reports/reports.routes.js';
import { version } from './paths.js';

export interface AppDeps {
  config: Config;
  database: Database;
  idp: IdentityProvider;
  authenticator: Authenticator;
  version: string;
  startedAt: number;
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Fastify logger options; defaults to JSON logs at config.logLevel. */
  logger?: FastifyServerOptions['logger'];
  /** The identity provider; defaults to the configured one. */
  idp?: IdentityProvider;
  /** Clock of the authentication caches (tests move time instead of waiting). */
  now?: () => number;
}

function createAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, coerceTypes: coerce ? 'array' : false, allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv;
}

/** Adds the shared schemas not known yet (without compiling them: Ajv compiles on first use). */
function addSchemas(ajv: Ajv, externalSchemas: unknown): void {
  for (const schema of Object.values((externalSchemas ?? {}) as Record<string, { $id?: string }>)) {
    if (schema.$id && !ajv.schemas[schema.$id] && !ajv.refs[schema.$id]) ajv.addSchema(schema);
  }
}

/**
 * Fastify asks for a validator compiler per plugin context; one pair of Ajv instances serves
 * them all (a new Ajv per context recompiled every shared schema: seconds of start-up).
 */
function validatorFactory(): (externalSchemas: unknown) => FastifySchemaCompiler<object> {
  const validators = { coercing: createAjv(true), strict: createAjv(false) };
  return (externalSchemas) => {
    for (const ajv of [validators.coercing, validators.strict]) addSchemas(ajv, externalSchemas);
    return ({ schema, httpPart }) => (httpPart === 'body' ? validators.strict : validators.coercing).compile(schema);
  };
}

/**
 * Response serializers are compiled on first use, and each distinct schema once per plugin
 * context (every problem response is the same `$ref`): compiling all of them up front took most
 * of the start-up time.
 */
function serializerFactory() {
  const build = SerializerSelector();
  return (externalSchemas: unknown, options: unknown) => {
    const compile = build(externalSchemas as never, options as never);
    type Serialize = ReturnType<typeof compile>;
    const cache = new Map<string, Serialize>();
    return (route: Parameters<typeof compile>[0]): Serialize => {
      const key = JSON.stringify(route.schema);
      let compiled = cache.get(key);
      return (data: unknown) => {
        if (!compiled) {
          compiled = cache.get(key) ?? compile(route);
          cache.set(key, compiled);
        }
        return compiled(data);
      };
    };
  };
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    },
    bodyLimit: config.bodyLimitBytes,
    // Honour a well-formed X-Request-Id from a proxy, else make one.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    return503OnClosing: true,
    trustProxy: config.trustProxy,
    // Query strings and paths are text and need type coercion; JSON bodies must not be coerced
    // (coercion would turn `null` into "" in a string-or-null field). Unknown properties are a
    // 400, never silently dropped. A compilers factory (not setValidatorCompiler) so that it also
    // holds in plugins that add schemas of their own.
    schemaController: {
      compilersFactory: {
        buildValidator: validatorFactory() as never,
        buildSerializer: serializerFactory() as never,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const idp = options.idp ?? (await createIdentityProvider(config, database.db));
  const authenticator = new Authenticator(idp, database.db, app.log, options.now);
  await authenticator.listen(database.pool);
  const deps: AppDeps = { config, database, idp, authenticator, version, startedAt: Date.now() };
  app.addHook('onClose', async () => {
    await authenticator.close();
    if (!options.idp) await idp.close();
  });
  app.decorateRequest('principal', null);
  app.decorateRequest('grantRestrictions', null);

  // The API speaks JSON only: any other request body is a 415.
  app.removeContentTypeParser('text/plain');
  for (const schema of sharedSchemas) app.addSchema(schema);
  registerErrorHandling(app, { bodyLimit: config.bodyLimitBytes });
  decorateRoutesForOpenApi(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', String(request.id));
  });

  // General rate limit per client IP (shared through Redis when REDIS_URL is set).
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => undefined)));
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    ...(redis ? { redis, nameSpace: 'fishlog-rl:', skipOnError: true } : {}),
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'request.rate_limited', `Too many requests: at most ${context.max} a minute. Wait ${Math.ceil(context.ttl / 1000)} s and try again.`),
  });

  // Authentication and route-level access, in one place, for every route but the public ones.
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const level = routeAccess(request);
    if (level === 'public') return;
    const token = bearerToken(request.headers.authorization);
    const principal = authenticator.cachedPrincipal(token) ?? (await authenticator.authenticate(request.headers.authorization));
    request.principal = principal;
    if (level !== 'authenticated') request.grantRestrictions = await enforceAccess(database.db, principal, level);
  });

  await registerOpenApi(app, { version, publicDocs: config.publicDocs });
  await app.register(healthRoutes, { deps });
  await app.register(authRoutes, { deps });
  await app.register(employeesRoutes, { deps });
  await app.register(friendsRoutes, { deps });
  await app.register(fishingLogRoutes, { deps });
  await app.register(dnrRoutes, { deps });
  await app.register(profilesRoutes, { deps });
  await app.register(personalBestsRoutes, { deps });
  await app.register(speciesRoutes, { deps });
  await app.register(speciesAdminRoutes, { deps });
  await app.register(brandsRoutes, { deps });
  await app.register(brandsAdminRoutes, { deps });
  await app.register(gearRoutes, { deps });
  await app.register(gearAdminRoutes, { deps });
  await app.register(boatsRoutes, { deps });
  await app.register(setupsRoutes, { deps });
  await app.register(postsRoutes, { deps });
  await app.register(commentsRoutes, { deps });
  await app.register(reportsRoutes, { deps });
  await app.register(adminModerationRoutes, { deps });
  await app.register(moderationSettingsRoutes, { deps });
  await app.register(moderationRulesRoutes, { deps });
  await app.register(adminReportsRoutes, { deps });

  return app;
}
