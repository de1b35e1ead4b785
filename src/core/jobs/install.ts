import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import { APPLICATION_ROLE } from '../db/client.js';
import { JOB_SCHEMA, type JobSpec } from './jobs.js';

/** pg-boss's own queue of scheduled sends (its cron), created here as the owner like ours. */
const CRON_QUEUE = '__pgboss__send-it';

/**
 * Installs the job queue with the migrations, as the database owner and under the schema lock
 * (core/db/migrate.ts): pg-boss's schema (or its migration to this version), one queue per
 * JobSpec with its retry and expiry options, and the application role's rights on them. The
 * running processes never create tables, so they can run as the application role, and a test
 * database cloned from the migrated template has every queue.
 */
export async function installJobQueue(client: pg.ClientBase, specs: readonly JobSpec[]): Promise<void> {
  const queues: PgBoss.Queue[] = [
    { name: CRON_QUEUE },
    ...specs.map((spec) => ({
      name: spec.name,
      policy: spec.policy,
      retryLimit: spec.retryLimit,
      retryDelay: spec.retryDelaySeconds,
      retryBackoff: spec.retryBackoff,
      expireInSeconds: spec.expireInSeconds,
    })),
  ];
  // What was installed last is noted as the schema's comment: at a start that finds it unchanged
  // (every restart) one statement replaces some 30, and pg-boss is not loaded.
  const installation = installationOf(queues);
  const { rows } = await client.query<{ note: string | null }>("SELECT obj_description(oid, 'pg_namespace') AS note FROM pg_namespace WHERE nspname = $1", [JOB_SCHEMA]);
  if (rows[0]?.note === installation) return;
  const { default: PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ db: { executeSql: (text: string, values?: unknown[]) => client.query(text, values) }, schema: JOB_SCHEMA, migrate: false });
  if (!(await boss.isInstalled())) await client.query(PgBoss.getConstructionPlans(JOB_SCHEMA));
  else {
    // An older schema (pg-boss was upgraded): its migrations to this version. pg-boss refuses to
    // plan a migration from the newest version, which is how "nothing to do" shows.
    let plans: string | undefined;
    try {
      plans = PgBoss.getMigrationPlans(JOB_SCHEMA, String(await boss.schemaVersion()));
    } catch {
      plans = undefined;
    }
    if (plans) await client.query(plans);
  }
  for (const queue of queues) {
    if (await boss.getQueue(queue.name)) await boss.updateQueue(queue.name, queue);
    else await boss.createQueue(queue.name, queue);
  }
  await client.query(`GRANT USAGE ON SCHEMA ${JOB_SCHEMA} TO ${APPLICATION_ROLE}`);
  await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${JOB_SCHEMA} TO ${APPLICATION_ROLE}`);
  await client.query(`COMMENT ON SCHEMA ${JOB_SCHEMA} IS '${installation}'`);
}

/** An installation: pg-boss's version and the queues with their options (a digest, written as the schema's comment). */
function installationOf(queues: readonly PgBoss.Queue[]): string {
  const { version } = createRequire(import.meta.url)('pg-boss/package.json') as { version: string };
  return `fishlog job queue: pg-boss ${version}, queues ${createHash('sha256').update(JSON.stringify(queues)).digest('hex').slice(0, 32)}`;
}
