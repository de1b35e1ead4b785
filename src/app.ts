import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Database } from './core/db/client.js';
import { routeAccess } from './core/access/access.js';
import { registerErrorHandling } from './core/http/error-handler.js';
import { decorateRoutesForOpenApi, registerOpenApi } from './core/http/openapi.js';
import { HttpErrors } from './core/http/problem.js';
import { sharedSchemas } from './core/http/schemas.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { version } from './paths.js';

export interface AppDeps {
  config: Config;
  database: Database;
  version: string;
  startedAt: number;
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Fastify logger options; defaults to JSON logs at config.logLevel. */
  logger?: FastifyServerOptions['logger'];
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
    ajv: {
      customOptions: {
        removeAdditional: false, // unknown body properties are a 400, not silently dropped
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: true,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const deps: AppDeps = { config, database, version, startedAt: Date.now() };

  // The API speaks JSON only: any other request body is a 415.
  app.removeContentTypeParser('text/plain');
  for (const schema of sharedSchemas) app.addSchema(schema);
  registerErrorHandling(app, { bodyLimit: config.bodyLimitBytes });
  decorateRoutesForOpenApi(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', String(request.id));
    if (request.is404 || routeAccess(request) === 'public') return;
    if (!request.headers.authorization) {
      throw HttpErrors.unauthorized('auth.token_missing', 'Send the id_token from POST /api/auth/login as Authorization: Bearer <id_token>.');
    }
    throw HttpErrors.unauthorized('auth.token_invalid', 'The bearer token could not be verified; log in again with POST /api/auth/login.');
  });

  await registerOpenApi(app, { version, publicDocs: config.publicDocs });
  await app.register(healthRoutes, { deps });

  return app;
}
