import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';

export type Interval = 'day' | 'week' | 'month';

/** The UTC periods (day, ISO week, month) from the one holding `from` to the one holding `to` (exclusive): generate_series. */
export async function periodStarts(db: DbOrTx, from: Date, to: Date, interval: Interval): Promise<string[]> {
  const step = sql`${`1 ${interval}`}::interval`;
  const result = await db.execute<{ start: string | Date }>(sql`
    SELECT p AT TIME ZONE 'UTC' AS start
    FROM generate_series(date_trunc(${interval}, ${from}::timestamptz AT TIME ZONE 'UTC'), ${to}::timestamptz AT TIME ZONE 'UTC' - interval '1 microsecond', ${step}) AS p`);
  return result.rows.map((r) => new Date(r.start).toISOString());
}
