import pg from 'pg';

const REPLICA_MACHINERY = /replica_write_positions|pg_current_wal_(insert|flush)_lsn\(\)|pg_is_in_recovery\(\)/;

/** A statement a connection sent, with the round trip it went out in. */
export interface SentStatement {
  text: string;
  /**
   * Statements issued before any answer arrived since the one before them share a round trip
   * (1, 2, …): with the application pool's pipelining they go to PostgreSQL together.
   */
  trip: number;
}

/**
 * Every statement any connection sends while `work` runs (pool.query and checked-out clients
 * alike), in the order issued. Run one request at a time: the trips are counted across connections.
 */
export async function recordStatements(work: () => Promise<unknown>): Promise<SentStatement[]> {
  const sent: SentStatement[] = [];
  const original = pg.Client.prototype.query;
  let trip = 0;
  let answered = true;
  const settle = () => {
    answered = true;
  };
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string };
    // The read replicas' own statements (TEST_DATABASE_REPLICA=1: health checks, users' write positions) are not the request's.
    if (REPLICA_MACHINERY.test(typeof config === 'string' ? config : String(config?.text))) return (original as (...a: unknown[]) => unknown).apply(this, args);
    if (answered) trip++;
    answered = false;
    sent.push({ text: typeof config === 'string' ? config : String(config?.text), trip });
    const result = (original as (...a: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) result.then(settle, settle);
    return result;
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent;
}
