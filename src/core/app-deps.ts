import type { Config } from '../config.js';
import type { Authenticator } from './auth/authenticate.js';
import type { IdentityProvider } from './auth/idp/types.js';
import type { Database } from './db/client.js';
import type { Jobs } from './jobs/jobs.js';
import type { Metrics } from './observability/metrics.js';
import type { Registries } from './registries.js';

/** The system settings as this process applies them, read live (undefined: not set; the caller's built-in default applies). */
export interface SettingsReader {
  get<T>(name: string): T | undefined;
}

/** What every module's routes receive from the composition root (src/app.ts). */
export interface AppDeps {
  config: Config;
  database: Database;
  idp: IdentityProvider;
  authenticator: Authenticator;
  version: string;
  startedAt: number;
  /** Prometheus metrics of this app (modules may add their own to `metrics.registry`). */
  metrics: Metrics;
  /** The clock (ms since the epoch) of time-dependent rules such as ban expiry; tests inject theirs (BuildAppOptions.now). */
  now: () => number;
  /** The system settings (src/modules/settings), kept current while the server runs. */
  settings: SettingsReader;
  /** The job queue: modules register their handlers (`jobs.work`) and queue jobs (`jobs.send`). */
  jobs: Jobs;
  /** What modules register with the modules below them (core/registries.ts): this app's own, never shared with another app. */
  registries: Registries;
}
