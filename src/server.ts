import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, type Database } from './core/db/client.js';
import { prepareDatabase } from './core/db/prepare.js';

/**
 * Process entry shared by `npm start` and `fishlog serve`:
 * config → database (embedded or DATABASE_URL) → migrations and seeds → app → listen,
 * and a graceful shutdown on SIGINT/SIGTERM.
 */
export async function runServer(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`fishlog: ${error.message}\n`);
      return 2;
    }
    throw error;
  }

  const say = (message: string) => process.stderr.write(`fishlog: ${message}\n`);
  let database: Database | undefined;
  let app: FastifyInstance | undefined;
  try {
    database = await openDatabase(config, { log: say, processName: 'fishlog-server' });
    await prepareDatabase(database.pool, say);
    app = await buildApp({ config, database });
    await app.listen({ port: config.port, host: config.host });
    app.log.info({ database: database.description, docs: config.publicDocs ? '/docs' : 'token required' }, 'fishlog ready');
  } catch (error) {
    say(`could not start: ${error instanceof Error ? error.message : String(error)}`);
    await app?.close().catch(() => undefined);
    await database?.close().catch(() => undefined);
    return 1;
  }

  const running = { app, database };
  return new Promise<number>((resolve) => {
    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) {
        say(`${signal} again: exiting now`);
        process.exit(1);
      }
      stopping = true;
      running.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
      const cap = setTimeout(() => {
        running.app.log.warn('in-flight requests did not finish in time; closing connections');
        running.app.server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      cap.unref();
      let code = 0;
      try {
        await running.app.close();
      } catch (error) {
        running.app.log.error({ err: error }, 'error while closing the HTTP server');
        code = 1;
      }
      clearTimeout(cap);
      try {
        await running.database.close();
      } catch (error) {
        say(`error while closing the database: ${error instanceof Error ? error.message : String(error)}`);
        code = 1;
      }
      say('stopped');
      resolve(code);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
  });
}
