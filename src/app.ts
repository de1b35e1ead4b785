import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Database } from './core/db/client.js';
import cors from '@fastify/cors';
import { Type } from 'typebox';
import { enforceAccess, routeAccess } from './core/access/access.js';
import { Authenticator, bearerToken } from './core/auth/authenticate.js';
import { createIdentityProvider } from './core/auth/idp/index.js';
import type { IdentityProvider } from './core/auth/idp/types.js';
import { registerErrorHandling } from './core/http/error-handler.js';
import { registerValidatorCompiler, serializerFactory, validatorFactory } from './core/http/compilers.js';
import { addRouteHook } from './core/http/route-hooks.js';
import { registerMergePatch } from './core/http/merge-patch.js';
import { registerBodyGuard } from './core/http/body-guard.js';
import { registerRateLimits } from './core/http/rate-limit.js';
import { decorateRoutesForOpenApi, registerOpenApi } from './core/http/openapi.js';
import { sharedSchemas } from './core/http/schemas.js';
import { registerSystemSettings } from './modules/settings/settings.admin.routes.js';
import { Photo } from './modules/photos/index.js';
import { registerModules } from './core/module.js';
import { MODULES } from './modules.js';
import { projectRoot, version } from './paths.js';
import { consoleDistDir, registerConsole } from './core/http/console.js';
import type { AppDeps } from './core/app-deps.js';
import { Registries } from './core/registries.js';
import { listenWhileServing } from './core/db/listen.js';
import { hiddenOwnersOf } from './core/access/visibility.js';
import { createUserDirectory } from './modules/users/users.service.js';
import { banIdentityKey } from './modules/users/bans-identity.js';

export type { AppDeps } from './core/app-deps.js';
import { createMetrics, instrument } from './core/observability/metrics.js';
import { registerReplicaRouting } from './core/db/replica-routing.js';
import { REPLICA_READ_ROUTES } from './replica-reads.js';
import { traceOf } from './core/observability/tracing.js';
import { bufferedStdout, loggerOptions, RequestLogger } from './core/observability/request-logger.js';
import { loadAuditKey, setAuditKey } from './core/audit/audit.js';
import { Jobs } from './core/jobs/jobs.js';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Fastify logger options; defaults to JSON logs at config.logLevel. */
  logger?: FastifyServerOptions['logger'];
  /** The identity provider; defaults to the configured one. */
  idp?: IdentityProvider;
  /** Clock of the authentication caches (tests move time instead of waiting). */
  now?: () => number;
  /** The app's registries (core/registries.ts); a new set by default (tests keep theirs to reach the app's services). */
  registries?: Registries;
  /** Called on the new instance before anything is registered, so that its hooks see every route (the tests' OpenAPI conformance check). */
  onCreate?: (app: FastifyInstance) => void;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const validation = validatorFactory();
  let output: ReturnType<typeof bufferedStdout> | undefined;
  const app = Fastify({
    logger: options.logger ?? { ...loggerOptions(config.logLevel), stream: (output ??= bufferedStdout()).stream },
    bodyLimit: config.bodyLimitBytes,
    // Slow clients cannot hold connections: whole headers within headersTimeout, the whole
    // request within requestTimeout, idle keep-alive connections closed after keepAliveTimeout.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(config.headersTimeoutMs, config.requestTimeoutMs),
      requestTimeout: config.requestTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // How often Node checks those timeouts (its default, 30 s, would let a slow client stay that long).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(config.headersTimeoutMs / 4))),
    } as never,
    // Honour a well-formed X-Request-Id from a proxy, else make one.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    // One line per request (the onResponse hook below), not Fastify's two objects with serialized req/res.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    // Every log line of a request carries its W3C trace id beside the request id; the child
    // logger is made only when the request logs something beyond its closing line.
    childLoggerFactory: (logger, bindings, childOptions, rawRequest) => new RequestLogger(logger, bindings, childOptions, rawRequest as never) as unknown as FastifyBaseLogger,
    return503OnClosing: true,
    trustProxy: config.trustProxy,
    // Query strings and paths are text and need type coercion; JSON bodies must not be coerced
    // (coercion would turn `null` into "" in a string-or-null field). Unknown properties are a
    // 400, never silently dropped. A compilers factory (not setValidatorCompiler) so that it also
    // holds in plugins that add schemas of their own.
    schemaController: {
      compilersFactory: {
        buildValidator: validation.build as never,
        buildSerializer: serializerFactory() as never,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  options.onCreate?.(app);
  registerValidatorCompiler(app, validation.compileAll);
  app.server.maxConnections = config.maxConnections;
  app.server.headersTimeout = Math.min(config.headersTimeoutMs, config.requestTimeoutMs);

  const idp = options.idp ?? (await createIdentityProvider(config, database.db));
  const authenticator = new Authenticator(idp, database.db, createUserDirectory(banIdentityKey(config)), app.log, options.now);
  await authenticator.listen(database.pool);
  const registries = options.registries ?? new Registries();
  // Whose content nobody else sees (deactivated accounts): kept while the server listens for changes of users.
  listenWhileServing(app, database.pool, hiddenOwnersOf({ registries }).listen);
  setAuditKey(registries, loadAuditKey(config));
  const metrics = createMetrics(database.pool);
  app.decorate('metrics', metrics);
  // Request log: at info one short line per request (a string: no per-request objects to
  // serialize); at debug the full request and response as Fastify logs them.
  app.addHook('onResponse', (request, reply, done) => {
    // (A disabled logger, `logger: false`, has no isLevelEnabled: a throw here would skip the hooks after it.)
    if ((request.log as unknown as { isLevelEnabled?(level: string): boolean }).isLevelEnabled?.('debug')) request.log.debug({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    else {
      const line = `${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`;
      const log = request.log as unknown as Partial<RequestLogger>;
      if (log.completed) log.completed(line);
      else request.log.info(line);
    }
    done();
  });
  if (output) app.addHook('onClose', async () => output!.close());
  // The job queue's own connections (pg-boss); workers start once every module registered its handlers.
  // Ready does not wait for them (pg-boss's start, then a schedule and a worker per queue: some 30
  // statements, 60-100 ms of a restart here): a job sent meanwhile waits for the start (`send`), and
  // the server process awaits it once it listens (server.ts), a failure stopping it as before.
  const jobs = new Jobs(database.extraPool(config.jobs.work ? 3 : 1, 'fishlog-jobs'), { ...config.jobs, log: app.log });
  app.addHook('onReady', (done) => {
    if (config.jobs.work) jobs.start().catch((error: unknown) => app.log.error({ err: error }, 'the job queue did not start'));
    done();
  });
  app.addHook('onClose', async () => jobs.stop(config.shutdownTimeoutMs));
  app.decorate('jobs', jobs);
  const base: Omit<AppDeps, 'settings'> = { config, database, idp, authenticator, version, startedAt: Date.now(), metrics, now: options.now ?? Date.now, jobs, registries };
  app.addHook('onClose', async () => {
    await authenticator.close();
    if (!options.idp) await idp.close();
  });
  app.decorateRequest('principal', null);
  app.decorateRequest('grantRestrictions', null);

  // The API speaks JSON only: any other request body is a 415.
  app.removeContentTypeParser('text/plain');
  registerMergePatch(app);
  for (const schema of sharedSchemas) app.addSchema(schema);
  // Record views of several modules list their photos (`$ref: Photo`).
  app.addSchema(Photo);
  registerErrorHandling(app, { bodyLimit: config.bodyLimitBytes });
  registerBodyGuard(app);
  decorateRoutesForOpenApi(app);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', String(request.id));
    reply.header('traceparent', traceOf(request.raw).traceparent);
    done();
  });
  instrument(app, metrics);

  // Browsers may call the API only from the configured origins (none by default: then the CORS
  // plugin is not registered at all — with `origin: false` it only copied its options on every
  // request; a preflight is a 404 either way, and no answer carries Access-Control-* headers).
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['authorization', 'content-type', 'x-request-id', 'traceparent'],
      exposedHeaders: ['x-request-id', 'x-total-count', 'x-total-count-exact', 'x-next-cursor', 'link', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'traceparent'],
      maxAge: 600,
    });
  }

  // Rate limits per client IP and per user (shared through Redis when REDIS_URL is set).
  // (ioredis, ~100 files, is loaded only then: it was a twentieth of the start-up time.)
  const redis = config.redisUrl ? new (await import('ioredis')).Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
  if (redis) {
    // A lost Redis is a warning, not ioredis' "unhandled error" stack trace; requests go on uncounted meanwhile.
    redis.on('error', (error: Error) => app.log.warn({ err: error }, 'rate-limit Redis unavailable; requests are not counted until it answers'));
    app.addHook('onClose', async () => void (await redis.quit().catch(() => undefined)));
  }
  // Read replicas (DATABASE_REPLICA_URLS): the declared routes' reads, read-your-writes, their metrics.
  registerReplicaRouting(app, database, { routes: REPLICA_READ_ROUTES, redis, registry: metrics.registry });
  const limits = await registerRateLimits(app, {
    perIpPerMinute: config.rateLimitPerMinute,
    perUserPerMinute: config.rateLimitUserPerMinute,
    redis,
    userOf: (request) => request.principal?.userId,
  });

  // Authentication and route-level access, in one place, for every route but the public ones. A
  // route-level hook added after the rate limiter's (also route-level): requests with a bad or no token
  // are counted and limited too, and their 401/403 answers carry the rate-limit headers.
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'OPTIONS') return;
    const level = routeAccess(request);
    if (level === 'public') return;
    const token = bearerToken(request.headers.authorization);
    const principal = authenticator.cachedPrincipal(token) ?? (await authenticator.authenticate(request.headers.authorization));
    request.principal = principal;
    await limits.limitByUser(request, reply);
    authenticator.refuseBanned(principal, request.routeOptions.config.allowBanned);
    authenticator.refusePendingDeletion(principal, request.routeOptions.config.allowPendingDeletion);
    if (level !== 'authenticated') request.grantRestrictions = await enforceAccess(database.db, principal, level);
  };
  addRouteHook(app, 'onRequest', authenticate);

  await registerOpenApi(app, { version, publicDocs: config.publicDocs });
  if (config.console) await registerConsole(app, consoleDistDir(projectRoot));
  // Maintenance mode (every route); the settings are then read live by the modules.
  const deps: AppDeps = { ...base, settings: await registerSystemSettings(app, base) };
  app.get(
    '/metrics',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['system'],
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        description:
          'Prometheus text format: requests and their duration by route template and status, database pool, event-loop lag, memory, ' +
          'login failures, rate-limit refusals. Needs an Admin (or Owner) token; set METRICS_PORT to scrape it without a token on loopback.',
        // The exposition format's type (prom-client's `text/plain; version=0.0.4; charset=utf-8`), not JSON.
        produces: ['text/plain'],
        response: { 200: Type.String({ description: 'Prometheus text exposition format 0.0.4 (`Content-Type: text/plain; version=0.0.4`)' }) },
      },
    },
    async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  await registerModules(app, MODULES, deps);

  return app;
}
