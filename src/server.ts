import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, withEnvFile, type Config } from './config.js';
import type { Database } from './core/db/client.js';
import { acquireEmbeddedCluster } from './core/db/embedded.js';
import { walArchiving } from './core/db/backup.js';
import { limitHeapGrowth } from './core/observability/heap.js';
import type { AppDeps } from './app.js';

/**
 * Process entry shared by `npm start` and `fishlog serve`:
 * config → database (embedded or DATABASE_URL) → migrations and seeds → app → listen,
 * and a graceful shutdown on SIGINT/SIGTERM.
 */
/** A second signal this soon after the first is the same request delivered twice. */
const DUPLICATE_SIGNAL_MS = 2000;
const PROCESS_NAME = 'fishlog-server';

export async function runServer(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(withEnvFile(env));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`fishlog: ${error.message}\n`);
      return 2;
    }
    throw error;
  }

  limitHeapGrowth(config.heapGrowingPercent);
  const say = (message: string) => process.stderr.write(`fishlog: ${message}\n`);

  // The signal handlers come first: a SIGTERM or Ctrl-C during the start-up (initdb, migrations,
  // the job queue's start after `listen`) stops the server cleanly once the step in progress ends,
  // instead of killing it with its cluster half-shared.
  let stoppingSince: number | undefined;
  let requestStop!: (signal: string) => void;
  const stopRequested = new Promise<string>((resolve) => (requestStop = resolve));
  let started = false;
  const onSignal = (signal: string) => {
    if (stoppingSince !== undefined) {
      // Under `npm start` one Ctrl-C or `kill` of the process group arrives twice: from the
      // terminal (or the process manager) and forwarded by npm. Only a later one means "now".
      if (Date.now() - stoppingSince < DUPLICATE_SIGNAL_MS) return;
      say(`${signal} again: exiting now`);
      process.exit(1);
    }
    stoppingSince = Date.now();
    if (!started) say(`${signal} while starting: stopping once the current start-up step ends`);
    requestStop(signal);
  };
  // They stay until the process ends (runServer's caller exits): npm's forwarded copy of a signal
  // may arrive after the shutdown finished.
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  let database: Database | undefined;
  let app: FastifyInstance | undefined;
  let metricsServer: Server | undefined;
  try {
    // The embedded server starts while the service's modules load (each takes a moment).
    // Its WAL is archived into the backup folder (src/core/db/backup.ts) unless FISHLOG_BACKUPS=false.
    const cluster = config.databaseUrl
      ? undefined
      : walArchiving(config).then((archiving) => acquireEmbeddedCluster({ dataDir: config.dataDir, log: say, processName: PROCESS_NAME, archiving }));
    const modules = Promise.all([import('./core/db/client.js'), import('./core/db/prepare.js'), import('./app.js'), import('./core/observability/metrics.js')]);
    // (Both are awaited below; a failure of either is reported there.)
    cluster?.catch(() => undefined);
    modules.catch(() => undefined);
    const [{ openDatabase }, { prepareDatabase }, { buildApp }, { startMetricsServer }] = await modules.catch(async (error: unknown) => {
      await cluster?.then((c) => c.release()).catch(() => undefined);
      throw error;
    });
    database = await openDatabase(config, { log: say, processName: PROCESS_NAME, ...(cluster ? { cluster } : {}) });
    await prepareDatabase(database.owner.pool, say);
    // Requests run with least privilege (migration 0030); the owner's role was for the migrations.
    await database.useApplicationRole();
    app = await buildApp({ config, database });
    await app.listen({ port: config.port, host: config.host });
    // The job workers start while the first requests are served (app.ts); a queue that cannot start stops the server.
    if (config.jobs.work) await (app as unknown as { jobs: AppDeps['jobs'] }).jobs.start();
    if (config.metricsPort > 0) {
      metricsServer = await startMetricsServer((app as unknown as { metrics: AppDeps['metrics'] }).metrics.registry, config.metricsPort);
      app.log.info({ port: config.metricsPort }, 'metrics served on 127.0.0.1 without a token');
    }
    app.log.info({ database: database.description, docs: config.publicDocs ? '/docs' : 'token required' }, 'fishlog ready');
  } catch (error) {
    say(`could not start: ${error instanceof Error ? error.message : String(error)}`);
    metricsServer?.close();
    await app?.close().catch(() => undefined);
    await database?.close().catch(() => undefined);
    return 1;
  }
  started = true;

  const running = { app, database };
  const signal = await stopRequested;
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
  metricsServer?.close();
  try {
    await running.database.close();
  } catch (error) {
    say(`error while closing the database: ${error instanceof Error ? error.message : String(error)}`);
    code = 1;
  }
  say('stopped');
  return code;
}
