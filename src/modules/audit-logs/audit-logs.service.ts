import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import pg from 'pg';
import { roleName } from '../../core/access/roles.js';
import { auditKeyOf, recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { AuditRow } from '../../core/audit/audit.tables.js';
import { periodOf } from '../../core/http/period.js';
import { exportFormatter } from './audit-export.js';
import { AuditLogErrors } from './audit-logs.errors.js';
import * as repo from './audit-logs.repository.js';
import type { AuditExportQueryType, AuditLogQueryType } from './audit-logs.schemas.js';

/**
 * Reading the audit log: a filtered list with keyset pagination, statistics, and a streamed
 * export that carries the chain hashes. Every read is itself audit-logged.
 */

const DAY_MS = 86_400_000;
export const MAX_STATISTICS_DAYS = 366;
const CURSOR_PREFIX = 'a1:';

export function encodeCursor(id: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = text.startsWith(CURSOR_PREFIX) ? Number(text.slice(CURSOR_PREFIX.length)) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw AuditLogErrors.badCursor();
  return id;
}

const pascal = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);
const lower = (value: string | undefined) => value?.toLowerCase();

function checkRange(from: Date | undefined, to: Date | undefined): void {
  if (from && to && from >= to) throw AuditLogErrors.badRange(from.toISOString(), to.toISOString());
}

function view(entry: AuditRow, actorUsername: string | null) {
  return {
    ...entry,
    id: Number(entry.id),
    actorType: pascal(entry.actorType) as 'User' | 'System',
    outcome: pascal(entry.outcome) as 'Success' | 'Failure',
    actorUsername,
  };
}

export async function listAuditLogs(deps: ServiceDeps, context: AuditContext, query: AuditLogQueryType) {
  const { db } = deps;
  const beforeId = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const filters: repo.AuditFilters = {
    action: query.action,
    actionPrefix: query.actionPrefix,
    actorId: query.actorId,
    actorType: lower(query.actorType) as 'user' | 'system' | undefined,
    targetType: query.targetType,
    targetId: query.targetId,
    from: query.from === undefined ? undefined : new Date(query.from),
    to: query.to === undefined ? undefined : new Date(query.to),
    outcome: lower(query.outcome) as 'success' | 'failure' | undefined,
    q: query.q,
  };
  checkRange(filters.from, filters.to);
  const rows = await repo.listEntries(db, filters, beforeId, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const nextCursor = rows.length > query.limit ? encodeCursor(Number(page[page.length - 1]!.entry.id)) : null;
  await db.transaction((tx) =>
    recordAudit(inTx(deps, tx), context, { action: 'audit_logs.listed', targetType: 'audit_log', after: { filters: query, returned: page.length } }),
  );
  return { items: page.map((row) => view(row.entry, row.actorUsername)), nextCursor };
}

export async function auditStatistics(deps: ServiceDeps, context: AuditContext, query: { from?: string | undefined; to?: string | undefined; top: number }) {
  const { db } = deps;
  const { from, to } = periodOf(query, Date.now());
  checkRange(from, to);
  const days = Math.ceil((to.getTime() - from.getTime()) / DAY_MS);
  if (days > MAX_STATISTICS_DAYS) throw AuditLogErrors.rangeTooLong(days, MAX_STATISTICS_DAYS);
  const stats = await repo.statistics(db, from, to, query.top);
  await db.transaction((tx) =>
    recordAudit(inTx(deps, tx), context, { action: 'audit_logs.statistics_viewed', targetType: 'audit_log', after: { from: from.toISOString(), to: to.toISOString() } }),
  );
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    total: stats.total,
    mostActiveActors: stats.actors.map((a) => ({ userId: a.userId!, username: a.username, role: a.role === null ? null : roleName(a.role), count: a.count })),
    mostCommonActions: stats.actions,
    perDay: stats.perDay.map((d) => ({ day: d.day, count: Number(d.count) })),
  };
}

export interface AuditExport {
  stream: Readable;
  firstId: number | null;
  lastId: number | null;
}

/**
 * Streams the entries of [from, to) from a server-side cursor (pg-query-stream, 500 rows a
 * fetch) through the formatter: memory stays flat whatever the range. The export is recorded
 * in the audit log before the first byte (it is not part of its own export).
 */
export async function exportAuditLog(deps: ServiceDeps, pool: pg.Pool, context: AuditContext, query: AuditExportQueryType): Promise<AuditExport> {
  const { db } = deps;
  const to = query.to === undefined ? new Date() : new Date(query.to);
  const from = query.from === undefined ? undefined : new Date(query.from);
  checkRange(from, to);
  const bounds = await repo.exportBounds(db, from, to);
  await db.transaction((tx) =>
    recordAudit(inTx(deps, tx), context, {
      action: 'audit_logs.exported',
      targetType: 'audit_log',
      after: { format: query.format, from: from?.toISOString() ?? null, to: to.toISOString(), firstId: bounds?.firstId ?? null, lastId: bounds?.lastId ?? null },
    }),
  );
  const formatter = await exportFormatter(query.format, bounds ?? null, auditKeyOf(deps.registries));
  if (!bounds) {
    formatter.end();
    return { stream: formatter, firstId: null, lastId: null };
  }
  // A connection of its own, with the pool's settings: a server-side cursor keeps its portal open
  // between fetches, which the pool's pipelining connections refuse; the export is rare and long.
  const client = new pg.Client({ ...pool.options, pipeline: false });
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    void client.end().catch(() => undefined);
  };
  client.on('error', release); // the connection failed: the stream fails with the query's error
  await client.connect();
  // pg-query-stream loads with the first export, not at every start of the service.
  const { default: QueryStream } = await import('pg-query-stream');
  const rows = client.query(new QueryStream(repo.EXPORT_SQL, [bounds.firstId, bounds.lastId], { batchSize: 500 }));
  const out = new PassThrough();
  pipeline(rows, formatter, out, () => release());
  return { stream: out, firstId: bounds.firstId, lastId: bounds.lastId };
}
