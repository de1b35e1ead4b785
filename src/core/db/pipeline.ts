import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { CASING } from './casing.js';
import type { Db, DbOrTx, Tx } from './client.js';
import { clientOf } from './prepared.js';
import { isConnectionFailure, RoutingPool, runsAgainOnPrimary } from './replicas.js';

/**
 * Pipelining. The application pool's connections pipeline (node-postgres `pipeline`, see
 * `openDatabase`): a statement goes to PostgreSQL when it is issued, without waiting for the
 * answer to the one before, and PostgreSQL runs them in the order sent, each seeing what the ones
 * before it did (each has its own Sync: outside a transaction, one failing does not touch the
 * others; inside one, the statements after a failure fail too and the transaction rolls back).
 * So statements that need nothing from each other's answers cost one round trip together.
 */

/**
 * Runs `issue`, which starts statements on the transaction `tx` without awaiting them (e.g.
 * `Promise.all([a(tx), b(tx)])`), and sends all it started in one write (the socket is corked
 * meanwhile). On a connection that does not pipeline they run one after another as usual.
 */
export function issuedTogether<T>(tx: DbOrTx, issue: () => T): T {
  const stream = (clientOf(tx) as Partial<pg.Client>).connection?.stream;
  stream?.cork();
  try {
    return issue();
  } finally {
    stream?.uncork();
  }
}

const dialect = new PgDialect({ casing: CASING });

/** SQLSTATE of a statement sent after another one of its transaction failed. */
const TRANSACTION_ABORTED = '25P02';

const sqlState = (error: unknown): unknown => (error as { code?: unknown } | null)?.code ?? (error as { cause?: { code?: unknown } } | null)?.cause?.code;

/**
 * The checked-out connection as the transaction's session sees it: its `query` also notes the
 * failure of the earliest statement (in the order sent) that failed. In a pipelined transaction
 * the statements after a failure fail too ("current transaction is aborted"), and which rejection
 * reaches `fn` first depends on how many promise layers each call has (a Drizzle query has more
 * than a named statement), not on the order they ran in.
 */
function noteFirstFailure(client: pg.PoolClient): { connection: pg.PoolClient; firstFailure: () => unknown } {
  let sent = 0;
  let first: { at: number; error: unknown } | undefined;
  const query = (...args: unknown[]) => {
    const at = sent++;
    const answer = (client.query as (...a: unknown[]) => unknown)(...args);
    if (answer instanceof Promise) {
      answer.catch((error: unknown) => {
        if (!first || at < first.at) first = { at, error };
      });
    }
    return answer;
  };
  // Everything else (the socket that `issuedTogether` corks, `release`) is the client's own.
  const connection = new Proxy(client, { get: (target, key, receiver) => (key === 'query' ? query : Reflect.get(target, key, receiver)) });
  return { connection, firstFailure: () => first?.error };
}

/**
 * `db.transaction(fn)` without the round trip of its BEGIN: BEGIN goes out in one write with the
 * statements `fn` issues before its first await (Drizzle's transaction waits for BEGIN's answer
 * before it calls `fn`); then COMMIT, or ROLLBACK when `fn` throws. `tx` is a Drizzle transaction
 * on the checked-out connection, as Drizzle's. On a pool that does not pipeline it is
 * `db.transaction(fn)`. (BEGIN fails only with its connection, and then so does all that follows.)
 * When `fn` fails with "current transaction is aborted", what it throws is the error of the first
 * statement that failed: the cause, not its echo.
 */
export async function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const pool = clientOf(db);
  if (!(pool instanceof pg.Pool) || !(pool.options as pg.PoolConfig).pipeline) return db.transaction(fn);
  const client = await pool.connect();
  const { connection, firstFailure } = noteFirstFailure(client);
  const tx = new NodePgTransaction(dialect, new NodePgSession(connection, dialect, undefined), undefined) as unknown as Tx;
  try {
    const [, result] = await issuedTogether(tx, () => Promise.all([client.query('BEGIN'), fn(tx)]));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw sqlState(error) === TRANSACTION_ABORTED ? (firstFailure() ?? error) : error;
  } finally {
    client.release();
  }
}

/**
 * Runs `issue` on one connection of the pool, outside a transaction, its statements sent in one
 * write (`issuedTogether`): statements of a read that need nothing from each other's answers
 * (e.g. a record and its children, fetched before the record's policy is checked) cost one round
 * trip and one connection. Each statement sees the data as of its own start, as separate
 * statements on the pool do. On a pool that does not pipeline it runs `issue(db)`.
 */
export async function onOneConnection<T>(db: Db, issue: (connection: DbOrTx) => Promise<T>): Promise<T> {
  const pool = clientOf(db);
  if (!(pool instanceof pg.Pool) || !(pool.options as pg.PoolConfig).pipeline) return issue(db);
  const run = async (client: pg.PoolClient) => {
    const connection = new NodePgTransaction(dialect, new NodePgSession(client, dialect, undefined), undefined) as unknown as DbOrTx;
    let failure: unknown;
    try {
      return await issuedTogether(connection, () => issue(connection));
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      // A connection that failed is not given back to the pool's idle ones.
      client.release(failure !== undefined && isConnectionFailure(failure) ? (failure as Error) : undefined);
    }
  };
  if (!(pool instanceof RoutingPool)) return run(await pool.connect());
  // Replicas configured (core/db/replicas.ts): the request's replica when its route reads from one.
  const { client, replica } = await pool.connectForRead();
  if (!replica) {
    if (pool.replicaSet.target()) pool.replicaSet.counts.primary++;
    return run(client);
  }
  try {
    const result = await run(client);
    pool.replicaSet.counts.replica++;
    return result;
  } catch (error) {
    if (!runsAgainOnPrimary(error)) throw error;
    pool.replicaSet.giveUp(replica, error);
    pool.replicaSet.counts.primary++;
    pool.replicaSet.counts.retried++;
    return run(await pool.primary().connect());
  }
}
