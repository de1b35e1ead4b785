import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../core/access/access.js';
import type { AppDeps } from '../../core/app-deps.js';
import { errorResponses } from '../../core/http/schemas.js';
import { serviceDeps } from '../../core/service-deps.js';
import { ACCOUNTS_EXPORT, ACCOUNTS_EXPORT_EXPIRY } from './accounts.jobs.js';
import { AccountExport, ExportBytes } from './export.schemas.js';
import * as service from './export.service.js';

/** Taking one's data: /api/account/export (ask, follow, download). */
export const exportRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const exportDeps: service.ExportDeps = { ...serviceDeps(deps), jobs: deps.jobs, dataDir: deps.config.dataDir };
  const now = () => new Date(deps.now());
  app.addSchema(AccountExport);
  deps.jobs.work<{ exportId: string }>(ACCOUNTS_EXPORT, (data, job) => service.exportJob(exportDeps, data, job.retryCount, now));
  deps.jobs.work(ACCOUNTS_EXPORT_EXPIRY, () => service.sweepExports(exportDeps, now()));

  // A person may take their data while their deletion is pending (before it is erased) and while banned.
  const own = { allowBanned: true, allowPendingDeletion: true };
  const tags = ['account'];

  app.post(
    '/api/account/export',
    {
      config: own,
      schema: {
        tags,
        operationId: 'requestAccountExport',
        summary: 'Ask for a copy of your data',
        description:
          'Starts a job that writes an archive (tar.gz) of everything fishlog keeps that names you: your account, and one NDJSON file per table ' +
          '(entries, catches, sessions, posts, comments, likes, friends, clubs, events, spots, reports, bookings, payments, notifications…), the ' +
          'display size of each of your photos (`photos/<id>.jpg`, as GET /api/photos/{id}/display serves it), and a README that says what each file holds. When it is ready you get a notification (`accounts.export_ready`) and, unless you turned its mails off, a mail ' +
          'whose link is GET /api/account/export/download: it works only with your own token (no signed URL: a forwarded mail gives nothing). Download it for 7 days, then it is deleted. One at a time (409 `accounts.export_in_progress` while one is being ' +
          'written) and one a day, counted from your last request that did not fail (429 `accounts.export_too_soon`, Retry-After in seconds). ' +
          'Allowed while your account’s deletion is pending.',
        response: {
          202: Type.Ref('AccountExport', { description: 'Asked for: Pending until the job has written it' }),
          409: Type.Ref('Problem', { description: 'A copy is being written already (`accounts.export_in_progress`): follow it with GET /api/account/export' }),
          429: Type.Ref('Problem', { description: 'One copy a day (`accounts.export_too_soon`): ask again after Retry-After seconds (the detail says when)' }),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await service.requestExport(exportDeps, principalOf(request).userId, now())),
  );

  app.get(
    '/api/account/export',
    {
      config: own,
      schema: {
        tags,
        operationId: 'getAccountExport',
        summary: 'Your latest copy of your data',
        description: 'Its status (Pending, Ready, Expired, Failed), when you asked, when it was ready, when it expires and its size. 404 `accounts.no_export` when you never asked.',
        response: { 200: Type.Ref('AccountExport'), ...errorResponses(404) },
      },
    },
    async (request) => service.getExport(exportDeps, principalOf(request).userId, now()),
  );

  app.get(
    '/api/account/export/download',
    {
      config: own,
      schema: {
        tags,
        operationId: 'downloadAccountExport',
        summary: 'Download your copy of your data',
        description:
          'The archive of your latest Ready export (tar.gz), streamed; only with your own token (the link of the `accounts.export_ready` mail is this path: another person\'s token reaches only their own). 404 `accounts.export_not_available` when none is ready ' +
          '(never asked, still being written, failed, or expired after 7 days).',
        response: { 200: ExportBytes, ...errorResponses(404) },
      } as never,
    },
    async (request, reply) => {
      const file = await service.openExport(exportDeps, principalOf(request).userId, now());
      return reply
        .type('application/gzip')
        .header('content-length', String(file.size))
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  );
};
