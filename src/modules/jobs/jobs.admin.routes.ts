import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses } from '../../core/http/schemas.js';
import { Job, JOB_EXAMPLE, JobsQuery } from './jobs.schemas.js';
import * as service from './jobs.service.js';

/** /api/admin/jobs: the job queue's jobs (Settings.View). */
export const jobsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(Job);

  app.get(
    '/api/admin/jobs',
    {
      config: { access: { permission: 'Settings.View' } },
      schema: {
        tags: ['admin: jobs'],
        operationId: 'adminListJobs',
        summary: 'List background jobs',
        description:
          'The jobs of the queue (scheduled sweeps, deliveries), newest first: queue, state, attempts, the last error and when a retry is due. ' +
          'Completed jobs stay listed for a week. Filters: `queue`, `state`.',
        querystring: JobsQuery,
        response: { 200: { ...Type.Array(Type.Ref('Job'), { maxItems: 100 }), headers: paginationHeaders, examples: [[JOB_EXAMPLE]] }, ...errorResponses(400) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listJobs(services, request.query, page)),
  );
};
