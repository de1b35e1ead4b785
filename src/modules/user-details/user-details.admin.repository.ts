import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';

/** The activity timeline's SQL: one page of the union of the rows the owning modules give. */

export interface TimelineRow {
  at: Date;
  kind: string;
  id: string;
  title: string | null;
  detail: string | null;
}

/** One page of the union of the timeline sources, newest first (the order is total: time, kind, id). */
export async function timelinePage(db: DbOrTx, sources: SQL[], page: Page): Promise<{ items: TimelineRow[]; total: number }> {
  const union = sql.join(
    sources.map((s) => sql`(${s})`),
    sql` UNION ALL `,
  );
  const [rows, count] = await Promise.all([
    db.execute<Omit<TimelineRow, 'at'> & { at: string | Date }>(sql`SELECT * FROM (${union}) t ORDER BY at DESC, kind DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`),
    db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM (${union}) t`),
  ]);
  return { items: rows.rows.map((r) => ({ ...r, at: new Date(r.at) })), total: count.rows[0]?.n ?? 0 };
}
