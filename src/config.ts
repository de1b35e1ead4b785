import path from 'node:path';

/**
 * Configuration from environment variables, validated once at start-up.
 * Every variable is declared here with its default and what it accepts; `.env.example`
 * and the README's configuration table list the same variables.
 */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: LogLevel;
  publicDocs: boolean;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
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

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const nodeEnv = read(env, 'NODE_ENV') ?? 'development';
  return {
    nodeEnv,
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: host(env, 'HOST', '127.0.0.1'),
    dataDir: path.resolve(cwd, read(env, 'FISHLOG_DATA_DIR') ?? './data'),
    databaseUrl: databaseUrl(env, 'DATABASE_URL'),
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', LOG_LEVELS),
    publicDocs: boolean(env, 'FISHLOG_PUBLIC_DOCS', nodeEnv !== 'production'),
    bodyLimitBytes: integer(env, 'FISHLOG_BODY_LIMIT', 1_048_576, 1024, 104_857_600),
    shutdownTimeoutMs: integer(env, 'FISHLOG_SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
  };
}
