import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { useMemoryTempDir } from './test/memory-tmpdir.js';

// The run's temporary files in memory (test/memory-tmpdir.ts): cloning the template database per test file is then 15× faster.
useMemoryTempDir();

/**
 * The files that take longest (real server processes, PostgreSQL killed and restarted, the
 * Spectral lint of the whole document) start first, so that the other worker is never left
 * waiting on one of them at the end of a fresh clone's run (Vitest orders the files of a run it
 * has no timings for by size). After them, Vitest's own order.
 */
const LONGEST_FIRST = ['test/e2e/', 'test/chaos.test.ts', 'src/core/db/backup.test.ts', 'src/core/db/backup-s3.test.ts', 'src/core/http/openapi.contract.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((prefix) => file.moduleId.includes(`/${prefix}`));
      return index < 0 ? LONGEST_FIRST.length : index;
    };
    return sorted.map((file, order) => ({ file, order })).sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order).map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/no-network.ts'],
    // One worker process more than the machine has cores, each running its files one after another
    // in one module graph (isolate: false): src/ is imported and compiled once per worker, not once
    // per file. A worker spends about a third of its time waiting (on PostgreSQL, Chromium, the
    // server processes of test/e2e); the extra worker runs meanwhile. On 2 cores (2026-11-29, one
    // run each, the same hour): 2 workers 428–460 s, 3 workers 360 s, 4 workers 419 s (each
    // worker imports src/ again: import time 25 → 39 → 77 s). At most 4 workers: each holds a
    // test file's connections (its app's pools, its listener), and a run on TEST_DATABASE_URL has to
    // fit PostgreSQL's default of 100 connections.
    // Every file still gets its own database, app and registries (test/harness.ts); nothing in
    // src/ keeps state at module level (the registries are per app), and mocks are restored
    // after every test.
    pool: 'forks',
    maxWorkers: Math.min(availableParallelism() + 1, 4),
    isolate: false,
    sequence: { sequencer: LongestFirst },
    testTimeout: 30_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
    restoreMocks: true,
    // The audit chain's HMAC key (else a key file in ./data would be created).
    env: { FISHLOG_AUDIT_KEY: 'test-audit-key-0123456789abcdef0123456789', FISHLOG_SETTINGS_KEY: 'test-settings-key-0123456789abcdef01234567' },
  },
});
