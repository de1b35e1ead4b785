import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { Health, Liveness, Readiness } from './health.schemas.js';
import { checkHealth, checkReadiness } from './health.service.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        operationId: 'getHealth',
        summary: 'Service health',
        description: 'Answers 200 when the service and its database work, 503 with `"database": "unavailable"` when the database cannot be reached.',
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      const health = await checkHealth(deps.database.pool, deps.version, deps.startedAt);
      return reply.code(health.status === 'ok' ? 200 : 503).send(health);
    },
  );

  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });

  app.get(
    '/health/live',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        operationId: 'getLiveness',
        summary: 'Liveness probe',
        description: 'Answers 200 while the process runs and serves HTTP; it never calls the database (a database outage must not restart the process).',
        response: { 200: Liveness },
      },
    },
    async () => ({ status: 'ok' as const, uptimeSeconds: Math.floor((Date.now() - deps.startedAt) / 1000) }),
  );

  app.get(
    '/health/ready',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        operationId: 'getReadiness',
        summary: 'Readiness probe',
        description: 'Answers 200 when the database answers, every migration of this build is applied and no shutdown has begun; 503 with the same body otherwise. ' +
          '`details.regulationData` lists jurisdictions whose regulation data ends within 30 days or has ended: a data warning, never a reason to be not ready.',
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (_request, reply) => {
      const readiness = await checkReadiness(deps.database.pool, serviceDeps(deps), shuttingDown, new Date(deps.now()));
      if (readiness.status !== 'ready') reply.header('retry-after', '5');
      return reply.code(readiness.status === 'ready' ? 200 : 503).send(readiness);
    },
  );
};
