import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/no-network.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
    restoreMocks: true,
    // The audit chain's HMAC key (else a key file in ./data would be created).
    env: { FISHLOG_AUDIT_KEY: 'test-audit-key-0123456789abcdef0123456789', FISHLOG_SETTINGS_KEY: 'test-settings-key-0123456789abcdef01234567' },
  },
});
