import { sql, type SQL } from 'drizzle-orm';
import { JOB_SCHEMA } from '../../core/jobs/jobs.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import type { JobsQueryType } from './jobs.schemas.js';

/** The job queue's rows (pg-boss: live jobs in `job`, completed ones moved to `archive` after a while). */

export interface JobRow {
  id: string;
  queue: string;
  state: string;
  attempts: number;
  retryLimit: number;
  createdAt: Date;
  startAfter: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  lastError: string | null;
}

const schema = sql.identifier(JOB_SCHEMA);

function filtered(table: string, filter: JobsQueryType): SQL {
  const where: SQL[] = [sql`name NOT LIKE '\\_\\_pgboss\\_\\_%'`];
  if (filter.queue) where.push(sql`name = ${filter.queue}`);
  if (filter.state) where.push(sql`state = ${filter.state}::${schema}.job_state`);
  // A failure's output is the error (`message`), a lost job's `{ value: { message } }`; a completed job's output is its result.
  return sql`
    SELECT id, name AS queue, state::text AS state,
      retry_count + (CASE WHEN started_on IS NULL THEN 0 ELSE 1 END) AS attempts,
      retry_limit AS "retryLimit", created_on AS "createdAt", start_after AS "startAfter",
      started_on AS "startedAt", completed_on AS "completedAt",
      CASE WHEN state = 'completed' THEN NULL ELSE coalesce(output->>'message', output->'value'->>'message') END AS "lastError"
    FROM ${schema}.${sql.identifier(table)} WHERE ${sql.join(where, sql` AND `)}`;
}

export async function listJobs(db: DbOrTx, filter: JobsQueryType, page: Page): Promise<{ items: JobRow[]; total: number }> {
  const all = sql`${filtered('job', filter)} UNION ALL ${filtered('archive', filter)}`;
  const [items, count] = await Promise.all([
    db.execute<Record<string, unknown>>(sql`SELECT * FROM (${all}) AS jobs ORDER BY "createdAt" DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`),
    db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM (${all}) AS jobs`),
  ]);
  const at = (value: unknown) => (value === null ? null : new Date(value as string | Date));
  return {
    items: items.rows.map((row) => ({
      id: row.id as string,
      queue: row.queue as string,
      state: row.state as string,
      attempts: Number(row.attempts),
      retryLimit: Number(row.retryLimit),
      createdAt: at(row.createdAt)!,
      startAfter: at(row.startAfter)!,
      startedAt: at(row.startedAt),
      completedAt: at(row.completedAt),
      lastError: (row.lastError as string | null) ?? null,
    })),
    total: count.rows[0]?.total ?? 0,
  };
}
