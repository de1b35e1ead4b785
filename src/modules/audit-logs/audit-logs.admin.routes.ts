import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { auditContextOf } from '../../core/audit/context.js';
import { errorResponses } from '../../core/http/schemas.js';
import { AuditExportQuery, AuditLogEntry, AuditLogQuery, AuditStatistics, AuditStatisticsQuery } from './audit-logs.schemas.js';
import * as service from './audit-logs.service.js';

/** /api/admin/audit-logs: reading (AuditLogs.View) and exporting (AuditLogs.Export) the audit log. */
export const auditLogsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(AuditLogEntry);
  app.addSchema(AuditStatistics);
  const tags = ['admin: audit logs'];
  const view = { access: { permission: 'AuditLogs.View' as const } };

  app.get(
    '/api/admin/audit-logs',
    {
      config: view,
      schema: {
        tags,
        operationId: 'adminListAuditLogs',
        summary: 'Search the audit log',
        description:
          'Newest first. Filters: action (exact or `actionPrefix`), actor, target, period (`from` inclusive, `to` exclusive), outcome, and `q`, a full-text search of the reason. ' +
          'Keyset pagination: the `X-Next-Cursor` header (also in `Link: rel="next"`) fetches the next page and is absent on the last one; pages do not shift when new entries arrive. ' +
          'Each entry carries its chain hashes. This read is itself audit-logged (`audit_logs.listed`).',
        querystring: AuditLogQuery,
        response: {
          200: {
            ...Type.Array(Type.Ref('AuditLogEntry'), { maxItems: 100 }),
            headers: {
              'x-next-cursor': { type: 'string', description: 'Cursor of the next page; absent on the last page' },
              link: { type: 'string', description: 'RFC 8288 link to the next page (rel="next")' },
            },
          },
          ...errorResponses(400),
        },
      },
    },
    async (request, reply) => {
      const { items, nextCursor } = await service.listAuditLogs(services, auditContextOf(request), request.query);
      if (nextCursor) {
        const url = new URL(request.url, 'http://localhost');
        url.searchParams.set('cursor', nextCursor);
        reply.header('x-next-cursor', nextCursor).header('link', `<${url.pathname}${url.search}>; rel="next"`);
      }
      return items;
    },
  );

  app.get(
    '/api/admin/audit-logs/statistics',
    {
      config: view,
      schema: {
        tags,
        operationId: 'adminAuditLogStatistics',
        summary: 'Audit-log statistics',
        description: `Most active users (admins in practice), most common actions and entries per UTC day (zero-filled) in [from, to) — by default the last 30 days; at most ${service.MAX_STATISTICS_DAYS} days. Audit-logged.`,
        querystring: AuditStatisticsQuery,
        response: { 200: Type.Ref('AuditStatistics'), ...errorResponses(400) },
      },
    },
    async (request) => service.auditStatistics(services, auditContextOf(request), request.query),
  );

  app.get(
    '/api/admin/audit-logs/export',
    {
      config: { access: { permission: 'AuditLogs.Export' as const } },
      schema: {
        tags,
        operationId: 'adminExportAuditLogs',
        summary: 'Export the audit log (CSV or NDJSON, streamed)',
        description:
          'Every entry from the first at or after `from` to the last before `to`, as one contiguous id range of the hash chains, in id order, streamed from a server-side cursor (any size). ' +
          'Columns: id, occurredAt, actorType, actorUserId, action, targetType, targetId, reason, before, after, ipAddress, userAgent, requestId, outcome, chain, prevHash, hash (stored values; ' +
          '`prevHash` is the hash of the previous entry of the same `chain`). ' +
          'The last line is the server\'s seal: no `id`, `action` `export.seal`, in `after` the id range, the number of entries and where each chain\'s piece starts and ends, ' +
          'in `hash` its HMAC under the audit key: with it, entries removed from or added to the file show (even the last of a chain), while ids the log never kept in the range ' +
          '(writes rolled back) do not count as missing. The range is taken once no audit write is in flight, so no entry committing late with a lower id is left out. ' +
          'Verify a file offline with `fishlog audit verify --file <export>`, which needs the same FISHLOG_AUDIT_KEY as the server. The export is audit-logged (`audit_logs.exported`) before it starts.',
        querystring: AuditExportQuery,
        produces: ['text/csv', 'application/x-ndjson'],
        response: {
          200: Type.String({
            description: 'The entries, then the seal (CSV with a header line, or NDJSON); X-Audit-First-Id / X-Audit-Last-Id give the id range',
            examples: [
              '{"id":1,"occurredAt":"2026-06-01T05:30:00.000Z","actorType":"user","action":"species.created","chain":0,"prevHash":"000…","hash":"9f2c…"}\n' +
                '{"id":null,"action":"export.seal","after":{"firstId":1,"lastId":1,"entries":1,"chains":{"0":{"first":{"id":1,"prevHash":"000…"},"last":{"id":1,"hash":"9f2c…"}}}},"hash":"4be0…"}\n',
            ],
          }),
          ...errorResponses(400),
        },
      },
    },
    async (request, reply) => {
      const result = await service.exportAuditLog(services, deps.database.pool, auditContextOf(request), request.query);
      const csv = request.query.format === 'csv';
      reply
        .type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-log.${csv ? 'csv' : 'ndjson'}"`)
        .header('cache-control', 'no-store');
      if (result.firstId !== null) reply.header('x-audit-first-id', String(result.firstId)).header('x-audit-last-id', String(result.lastId));
      return reply.send(result.stream as never);
    },
  );
};
