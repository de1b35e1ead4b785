import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { CASING } from './casing.js';
import { seedRuns } from './core.tables.js';
import type { Db, Tx } from './client.js';
import { withSchemaLock } from './migrate.js';

/**
 * Reference-data seeds. Each module exports its seeds (in `<module>.seeds.ts`) and lists them
 * in `src/seeds.ts`. A seed must be idempotent (upserts keyed on natural keys), runs in one
 * transaction, and is applied on start when its `version` is newer than the applied one, or
 * always by `fishlog seed`.
 */
export interface SeedContext {
  tx: Tx;
  /** Reports progress of a long seed; printed at most once a second. */
  progress(done: number, total: number): void;
}

export interface Seed {
  /** Unique, `<module>.<what>`, e.g. `species.fish`. */
  name: string;
  /** Bump when the data changes, so existing installations re-apply it on start. */
  version: number;
  description: string;
  run(context: SeedContext): Promise<void>;
}

export interface SeedReport {
  applied: string[];
  skipped: string[];
}

export async function applySeeds(
  pool: pg.Pool,
  seeds: readonly Seed[],
  options: { force?: boolean; log?: (message: string) => void } = {},
): Promise<SeedReport> {
  const log = options.log ?? (() => undefined);
  const names = new Set<string>();
  for (const seed of seeds) {
    if (names.has(seed.name)) throw new Error(`two seeds are named ${seed.name}`);
    names.add(seed.name);
  }
  return withSchemaLock(pool, async (client) => {
    const db = drizzle({ client, casing: CASING });
    const applied = new Map((await db.select().from(seedRuns)).map((row) => [row.name, row.version]));
    const report: SeedReport = { applied: [], skipped: [] };
    for (const seed of seeds) {
      const current = applied.get(seed.name);
      if (!options.force && current !== undefined && current >= seed.version) {
        report.skipped.push(seed.name);
        continue;
      }
      let lastPrint = 0;
      const started = Date.now();
      await db.transaction(async (tx) => {
        await seed.run({
          tx,
          progress(done, total) {
            const now = Date.now();
            if (now - lastPrint < 1000 && done < total) return;
            lastPrint = now;
            log(`seed ${seed.name}: ${done}/${total}`);
          },
        });
        await tx
          .insert(seedRuns)
          .values({ name: seed.name, version: seed.version })
          .onConflictDoUpdate({ target: seedRuns.name, set: { version: seed.version, appliedAt: new Date() } });
      });
      log(`seed ${seed.name} v${seed.version} applied in ${Date.now() - started} ms`);
      report.applied.push(seed.name);
    }
    return report;
  });
}

export async function appliedSeedVersion(db: Db | Tx, name: string): Promise<number | undefined> {
  const rows = await db.select().from(seedRuns).where(eq(seedRuns.name, name));
  return rows[0]?.version;
}
