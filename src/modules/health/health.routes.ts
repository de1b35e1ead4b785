import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../app.js';
import { Health } from './health.schemas.js';
import { checkHealth } from './health.service.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
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
};
