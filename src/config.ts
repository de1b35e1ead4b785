import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

/** FISHLOG_SCRYPT_COST's default: scrypt N=2^13, r=8, p=10 (8 MiB; see core/auth/idp/local/passwords.ts). */
export const DEFAULT_SCRYPT_COST = 13;

/**
 * Configuration from environment variables, validated once at start-up.
 * Every variable is declared here with its default and what it accepts; `.env.example`
 * and docs/configuration.md list the same variables (a test holds them to it).
 */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface BackupSettings {
  /** WAL archiving and the scheduled base backup (FISHLOG_BACKUPS, default true). */
  enabled: boolean;
  /** FISHLOG_BACKUP_DIR, default `<data folder>/backups`: put it on another disk. */
  dir: string;
  /** A WAL segment is archived at the latest this many seconds after a write (FISHLOG_WAL_ARCHIVE_TIMEOUT_S, default 60). */
  archiveTimeoutSeconds: number;
  /** Hours between scheduled base backups (FISHLOG_BACKUP_EVERY_HOURS, default 24). */
  everyHours: number;
  /** Retention: the newest base backup of each of this many days (FISHLOG_BACKUP_KEEP_DAILY, default 7)… */
  keepDaily: number;
  /** …and of this many ISO weeks before them (FISHLOG_BACKUP_KEEP_WEEKLY, default 4). */
  keepWeekly: number;
  /** FISHLOG_BACKUP_TARGET=s3: a copy in the media storage's bucket under FISHLOG_BACKUP_S3_PREFIX (default `backups/`). */
  s3: { bucket: string; region: string; endpoint: string | undefined; forcePathStyle: boolean; prefix: string } | undefined;
}

/** Read replicas (DATABASE_REPLICA_URLS …): the request path's stale-tolerant reads go to them (src/core/db/replicas.ts). */
export interface ReplicaSettings {
  /** postgres:// URLs of streaming standbys of the primary; empty: every read goes to the primary. */
  urls: string[];
  /** Connections of each replica's pool (DATABASE_REPLICA_POOL_SIZE, default 10). */
  poolSize: number;
  /** A replica further behind than this leaves the pool until it catches up (DATABASE_REPLICA_MAX_LAG_MS, default 5000). */
  maxLagMs: number;
  /** How often each replica's replay position and lag are checked (DATABASE_REPLICA_CHECK_MS, default 1000). */
  checkIntervalMs: number;
}

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * Optional: how the request path connects (a LOGIN role that is a member of fishlog_app).
   * Unset: the owner's connection with the fishlog_app role set at connection start.
   */
  databaseAppUrl: string | undefined;
  /** Backups of the embedded PostgreSQL (src/core/db/backup.ts); unused with DATABASE_URL. */
  backups: BackupSettings;
  /** Streaming replicas for the reads that may be a little stale (src/core/db/replicas.ts); none by default. */
  replicas: ReplicaSettings;
  logLevel: LogLevel;
  publicDocs: boolean;
  bodyLimitBytes: number;
  /** How far the heap may grow past its live size before a full collection, in percent (0: V8's own heuristics). */
  heapGrowingPercent: number;
  shutdownTimeoutMs: number;
  trustProxy: boolean;
  redisUrl: string | undefined;
  rateLimitPerMinute: number;
  rateLimitUserPerMinute: number;
  /** Slow-client protection of the HTTP server (milliseconds; connections). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  /** Origins allowed by CORS; empty: no cross-origin access. */
  corsOrigins: string[];
  /** Serve /metrics on this loopback port (0: off); the API's /metrics then stays admin-only. */
  metricsPort: number;
  /** Key of the audit chain's HMAC (else a key file in the data folder). */
  auditKey: string | undefined;
  /** Key that encrypts sensitive system settings at rest (else `settings.key` in the data folder). */
  settingsKey: string | undefined;
  /** Lets moderation settings use an http (not https) base URL: the API key would travel in clear text. */
  moderationAllowHttp: boolean;
  /** Lets webhooks target http:// URLs and private or loopback addresses (local testing only). */
  webhooksAllowLocal: boolean;
  /** Serve the staff console (packages/console, built into its dist/) at /console. */
  console: boolean;
  idp: LocalIdpConfig | CognitoIdpConfig;
  payments: PaymentsConfig;
  media: MediaConfig;
  jobs: JobsConfig;
}

/** Where photos are stored: FISHLOG_DATA_DIR/media (default), or an S3 bucket when `s3` is set. */
export interface MediaConfig {
  s3:
    | {
        bucket: string;
        region: string;
        /** An S3-compatible service's address (MinIO, R2, a test server); unset: AWS. */
        endpoint: string | undefined;
        forcePathStyle: boolean;
        /** Reads redirect to a presigned URL valid this long (seconds) after the access check; 0: served through the API. */
        redirectSeconds: number;
      }
    | undefined;
  /** Photo uploads a minute per client IP (re-encoding costs CPU), beside the global limits. */
  uploadsPerMinute: number;
}

/** The job queue (core/jobs): whether this process works jobs, and how often it looks. */
export interface JobsConfig {
  /** Run the job workers and schedules here (false: this process only queues jobs). */
  work: boolean;
  pollSeconds: number;
  /** How often lost jobs (their process died) are put back for a retry. */
  maintenanceSeconds: number;
}

/** Which payment provider moves the money (see src/modules/payments). */
export interface PaymentsConfig {
  provider: 'local' | 'stripe';
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  /** Overrides Stripe's API address (a loopback stand-in in tests). */
  stripeApiBase: string | undefined;
}

export interface LocalIdpConfig {
  kind: 'local';
  /** Shown in the tokens' `iss` as urn:fishlog:idp:<poolId>. */
  poolId: string;
  /** The tokens' `aud` (id token) and `client_id` (access token). */
  clientId: string;
  /** Lifetime of the id and access tokens it issues, in seconds (as a Cognito app client's token validity). */
  tokenLifetimeSeconds: number;
  /** log2 of scrypt's N for new password hashes; p follows OWASP's table (13: p=10, 8 MiB; 17: p=1, 128 MiB). */
  scryptCost: number;
  /** Password hashes computed at once (each holds 8 MiB at the default cost), and callers allowed to wait. */
  hashConcurrency: number;
  hashQueue: number;
  /** Encrypts signing keys at rest when set. */
  keySecret: string | undefined;
}

export interface CognitoIdpConfig {
  kind: 'cognito';
  userPoolId: string;
  clientId: string;
  clientSecret: string | undefined;
  region: string;
  /** Overrides the Cognito endpoint (a VPC endpoint, or a loopback stand-in in tests). */
  endpoint: string | undefined;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly value: string,
    readonly accepts: string,
  ) {
    super(`invalid configuration: ${variable}=${JSON.stringify(value)} is not valid; ${variable} accepts ${accepts}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  return trimmed === '' ? undefined : trimmed;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, raw, `an integer from ${min} to ${max}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, raw, `an integer from ${min} to ${max}`);
  return value;
}

const TRUE = ['1', 'true', 'on', 'yes'];
const FALSE = ['0', 'false', 'off', 'no'];

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (TRUE.includes(lower)) return true;
  if (FALSE.includes(lower)) return false;
  throw new ConfigError(name, raw, `one of ${[...TRUE, ...FALSE].join(', ')}`);
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase() as T;
  if (!allowed.includes(lower)) throw new ConfigError(name, raw, `one of ${allowed.join(', ')}`);
  return lower;
}

function databaseUrl(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, redactUrl(raw), 'a PostgreSQL URL such as postgres://user:password@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(name, redactUrl(raw), 'a PostgreSQL URL starting with postgres:// or postgresql://');
  }
  return raw;
}

function host(env: Env, name: string, fallback: string): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(raw)) throw new ConfigError(name, raw, 'a host name or IP address such as 127.0.0.1 or 0.0.0.0');
  return raw;
}

/** Hides the password of a connection URL before it reaches a message or a log. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return raw.replace(/:\/\/([^:@/]+):[^@/]*@/, '://$1:***@');
  }
}

function required(env: Env, name: string, why: string): string {
  const raw = read(env, name);
  if (raw === undefined) throw new ConfigError(name, '', `a value (required ${why})`);
  return raw;
}

function pattern(env: Env, name: string, fallback: string | undefined, regex: RegExp, accepts: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!regex.test(raw)) throw new ConfigError(name, raw, accepts);
  return raw;
}

function idpConfig(env: Env): LocalIdpConfig | CognitoIdpConfig {
  const kind = oneOf(env, 'IDP', 'local', ['local', 'cognito'] as const);
  if (kind === 'local') {
    const keySecret = read(env, 'FISHLOG_IDP_KEY_SECRET');
    if (keySecret !== undefined && keySecret.length < 16) throw new ConfigError('FISHLOG_IDP_KEY_SECRET', '***', 'a secret of at least 16 characters');
    return {
      kind,
      poolId: pattern(env, 'IDP_LOCAL_POOL_ID', 'local_fishlog', /^[\w-]{1,55}$/, 'letters, digits, _ and - (1-55 characters)')!,
      clientId: pattern(env, 'IDP_LOCAL_CLIENT_ID', 'fishlog-local-client', /^[\w-]{1,128}$/, 'letters, digits, _ and - (1-128 characters)')!,
      tokenLifetimeSeconds: integer(env, 'IDP_LOCAL_TOKEN_LIFETIME_SECONDS', 3600, 1, 86_400),
      scryptCost: integer(env, 'FISHLOG_SCRYPT_COST', DEFAULT_SCRYPT_COST, 10, 20),
      hashConcurrency: integer(env, 'FISHLOG_HASH_CONCURRENCY', 2, 1, 16),
      hashQueue: integer(env, 'FISHLOG_HASH_QUEUE', 16, 0, 1000),
      keySecret,
    };
  }
  const why = 'when IDP=cognito';
  return {
    kind,
    userPoolId: pattern(env, 'COGNITO_USER_POOL_ID', required(env, 'COGNITO_USER_POOL_ID', why), /^[\w-]+_[0-9a-zA-Z]+$/, 'a user pool id such as eu-west-1_AbCdEf123')!,
    clientId: required(env, 'COGNITO_CLIENT_ID', why),
    clientSecret: read(env, 'COGNITO_CLIENT_SECRET'),
    region: pattern(env, 'AWS_REGION', required(env, 'AWS_REGION', why), /^[a-z]{2}(-[a-z]+)+-\d$/, 'an AWS region such as eu-west-1')!,
    endpoint: read(env, 'COGNITO_ENDPOINT') === undefined ? undefined : urlValue(env, 'COGNITO_ENDPOINT'),
  };
}

function urlValue(env: Env, name: string): string {
  const raw = read(env, name)!;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
    return raw;
  } catch {
    throw new ConfigError(name, raw, 'an http(s) URL');
  }
}

function replicaUrls(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((url) => databaseUrl({ [name]: url }, name)!);
}

function redisUrl(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  if (!/^rediss?:\/\//.test(raw)) throw new ConfigError(name, redactUrl(raw), 'a Redis URL such as redis://127.0.0.1:6379');
  return raw;
}

/**
 * The environment with a `.env` file of `cwd` underneath it: variables set in the environment win
 * (also when set to an empty value), the file fills in the others. No file, no change. Uses Node's
 * own dotenv parser (`util.parseEnv`, Node ≥ 20.12).
 */
export function withEnvFile(env: Env, cwd: string = process.cwd()): Env {
  let text: string;
  try {
    text = readFileSync(path.join(cwd, '.env'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return env;
    throw error;
  }
  return { ...parseEnv(text), ...env };
}

function origins(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  const list = raw.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of list) {
    let ok = false;
    try {
      const url = new URL(origin);
      ok = (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin;
    } catch {
      ok = false;
    }
    if (!ok) throw new ConfigError(name, raw, 'a comma-separated list of origins such as https://app.example.com,http://localhost:5173 (scheme, host and port; no path)');
  }
  return list;
}

function secret(env: Env, name: string, minLength: number): string | undefined {
  const raw = read(env, name);
  if (raw !== undefined && raw.length < minLength) throw new ConfigError(name, '***', `a secret of at least ${minLength} characters`);
  return raw;
}

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const nodeEnv = read(env, 'NODE_ENV') ?? 'development';
  return {
    nodeEnv,
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: host(env, 'HOST', '127.0.0.1'),
    dataDir: path.resolve(cwd, read(env, 'FISHLOG_DATA_DIR') ?? './data'),
    databaseUrl: databaseUrl(env, 'DATABASE_URL'),
    databaseAppUrl: databaseUrl(env, 'DATABASE_APP_URL'),
    replicas: {
      urls: replicaUrls(env, 'DATABASE_REPLICA_URLS'),
      poolSize: integer(env, 'DATABASE_REPLICA_POOL_SIZE', 10, 1, 1000),
      maxLagMs: integer(env, 'DATABASE_REPLICA_MAX_LAG_MS', 5000, 1, 3_600_000),
      checkIntervalMs: integer(env, 'DATABASE_REPLICA_CHECK_MS', 1000, 10, 60_000),
    },
    backups: {
      enabled: boolean(env, 'FISHLOG_BACKUPS', true),
      dir: path.resolve(cwd, read(env, 'FISHLOG_BACKUP_DIR') ?? path.join(read(env, 'FISHLOG_DATA_DIR') ?? './data', 'backups')),
      archiveTimeoutSeconds: integer(env, 'FISHLOG_WAL_ARCHIVE_TIMEOUT_S', 60, 1, 86_400),
      everyHours: integer(env, 'FISHLOG_BACKUP_EVERY_HOURS', 24, 1, 24 * 31),
      keepDaily: integer(env, 'FISHLOG_BACKUP_KEEP_DAILY', 7, 1, 366),
      keepWeekly: integer(env, 'FISHLOG_BACKUP_KEEP_WEEKLY', 4, 0, 520),
      s3: backupBucket(env),
    },
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', LOG_LEVELS),
    publicDocs: boolean(env, 'FISHLOG_PUBLIC_DOCS', nodeEnv !== 'production'),
    bodyLimitBytes: integer(env, 'FISHLOG_BODY_LIMIT', 1_048_576, 1024, 104_857_600),
    heapGrowingPercent: integer(env, 'FISHLOG_HEAP_GROWING_PERCENT', 50, 0, 300),
    shutdownTimeoutMs: integer(env, 'FISHLOG_SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    trustProxy: boolean(env, 'FISHLOG_TRUST_PROXY', false),
    redisUrl: redisUrl(env, 'REDIS_URL'),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000_000),
    rateLimitUserPerMinute: integer(env, 'RATE_LIMIT_USER_PER_MINUTE', 600, 1, 1_000_000_000),
    headersTimeoutMs: integer(env, 'FISHLOG_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    requestTimeoutMs: integer(env, 'FISHLOG_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
    keepAliveTimeoutMs: integer(env, 'FISHLOG_KEEPALIVE_TIMEOUT_MS', 65_000, 100, 600_000),
    maxConnections: integer(env, 'FISHLOG_MAX_CONNECTIONS', 1024, 1, 1_000_000),
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    metricsPort: integer(env, 'METRICS_PORT', 0, 0, 65535),
    auditKey: secret(env, 'FISHLOG_AUDIT_KEY', 32),
    settingsKey: secret(env, 'FISHLOG_SETTINGS_KEY', 32),
    moderationAllowHttp: boolean(env, 'FISHLOG_MODERATION_ALLOW_HTTP', false),
    webhooksAllowLocal: boolean(env, 'FISHLOG_WEBHOOKS_ALLOW_LOCAL', false),
    console: boolean(env, 'FISHLOG_CONSOLE', true),
    idp: idpConfig(env),
    payments: paymentsConfig(env),
    media: mediaConfig(env),
    jobs: {
      work: boolean(env, 'FISHLOG_JOBS', true),
      pollSeconds: integer(env, 'FISHLOG_JOBS_POLL_SECONDS', 2, 1, 60),
      maintenanceSeconds: integer(env, 'FISHLOG_JOBS_MAINTENANCE_SECONDS', 60, 1, 3600),
    },
  };
}

/** FISHLOG_BACKUP_TARGET=s3: the media storage's bucket (FISHLOG_MEDIA_STORAGE=s3 and its S3_* variables), under a prefix. */
function backupBucket(env: Env): BackupSettings['s3'] {
  const target = oneOf(env, 'FISHLOG_BACKUP_TARGET', 'local', ['local', 's3'] as const);
  if (target === 'local') return undefined;
  const { s3 } = mediaConfig(env);
  if (!s3) throw new ConfigError('FISHLOG_BACKUP_TARGET', target, 'local, or s3 together with FISHLOG_MEDIA_STORAGE=s3 and its S3_* variables (the backups go to that bucket)');
  const prefix = pattern(env, 'FISHLOG_BACKUP_S3_PREFIX', 'backups/', /^[A-Za-z0-9!_.*'()/-]{1,200}\/$/, 'an S3 key prefix ending in / (letters, digits and !_.*\'()/-)')!;
  return { bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, forcePathStyle: s3.forcePathStyle, prefix };
}

function mediaConfig(env: Env): MediaConfig {
  const storage = oneOf(env, 'FISHLOG_MEDIA_STORAGE', 'local', ['local', 's3'] as const);
  const uploadsPerMinute = integer(env, 'FISHLOG_PHOTO_UPLOADS_PER_MINUTE', 30, 1, 1_000_000);
  if (storage === 'local') return { s3: undefined, uploadsPerMinute };
  const why = 'when FISHLOG_MEDIA_STORAGE=s3';
  return {
    s3: {
      bucket: pattern(env, 'S3_BUCKET', required(env, 'S3_BUCKET', why), /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name (3-63 lower-case letters, digits, dots and hyphens)')!,
      region: read(env, 'S3_REGION') ?? read(env, 'AWS_REGION') ?? 'us-east-1',
      endpoint: read(env, 'S3_ENDPOINT') === undefined ? undefined : urlValue(env, 'S3_ENDPOINT'),
      forcePathStyle: boolean(env, 'S3_FORCE_PATH_STYLE', false),
      redirectSeconds: integer(env, 'S3_PRESIGNED_READ_SECONDS', 0, 0, 3600),
    },
    uploadsPerMinute,
  };
}

function paymentsConfig(env: Env): PaymentsConfig {
  const provider = oneOf(env, 'PAYMENT_PROVIDER', 'local', ['local', 'stripe'] as const);
  const why = 'when PAYMENT_PROVIDER=stripe';
  const stripeSecretKey = provider === 'stripe' ? required(env, 'STRIPE_SECRET_KEY', why) : read(env, 'STRIPE_SECRET_KEY');
  if (stripeSecretKey !== undefined && !/^(sk|rk)_(test|live)_\w+$/.test(stripeSecretKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY', '***', 'a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_… key)');
  }
  return {
    provider,
    stripeSecretKey,
    stripeWebhookSecret: pattern(env, 'STRIPE_WEBHOOK_SECRET', undefined, /^whsec_\w+$/, 'a Stripe webhook signing secret (whsec_…)'),
    stripeApiBase: read(env, 'STRIPE_API_BASE') === undefined ? undefined : urlValue(env, 'STRIPE_API_BASE'),
  };
}
