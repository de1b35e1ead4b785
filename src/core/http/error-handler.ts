import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pascalCase } from './enums.js';
import { DATE_RULE, DATE_TIME_RULE } from './formats.js';
import { MAX_FIELD_ERRORS, truncateEcho } from './limits.js';
import { unstorableText } from './validation.js';
import { AppError, escapePointer, PROBLEM_CONTENT_TYPE, problemType, statusTitle, type AjvError, type FieldError, type ProblemBody } from './problem.js';

/**
 * The one place where errors become RFC 9457 problem+json responses.
 * - AppError (and module errors built on it): as declared.
 * - Schema validation: 400 `request.validation_failed` with one `errors[]` item per field.
 * - Body parsing: malformed JSON 400, wrong content type 415, oversized body 413.
 * - PostgreSQL data errors caused by client input: 400/409 rather than 500, naming the field
 *   whose value PostgreSQL (or Date) rejected when it can be found in the request.
 * - A database that cannot be reached: 503 `service.database_unavailable` with Retry-After.
 * - `errors[]` holds at most MAX_FIELD_ERRORS items (`errorsOmitted` counts the rest) and echoed
 *   pointers are truncated, so a large invalid request never gets a larger answer.
 * - Everything else: 500 with a body that hides internals; the log keeps them.
 */

type ValidationContext = 'body' | 'querystring' | 'params' | 'headers';
const CONTEXT_TO_IN: Record<ValidationContext, FieldError['in']> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

export type { AjvError } from './problem.js';


/**
 * An enum written as a union of literals (`anyOf: [{const: 'Public'}, …]`, as TypeBox writes it) that
 * fails reports one "must be equal to constant" per value: make it one `enum` error with the allowed
 * values, so every enum of every module says what it accepts ("must be one of Public, Private, …").
 * A nullable enum's `null` branch is listed too.
 */
function withEnumsCollapsed(validation: AjvError[]): AjvError[] {
  const byPath = new Map<string, AjvError[]>();
  for (const error of validation) {
    const list = byPath.get(error.instancePath) ?? [];
    list.push(error);
    byPath.set(error.instancePath, list);
  }
  const out: AjvError[] = [];
  const done = new Set<string>();
  for (const error of validation) {
    const path = error.instancePath;
    if (done.has(path)) continue;
    const atPath = byPath.get(path)!;
    const consts = atPath.filter((e) => e.keyword === 'const');
    const union = atPath.some((e) => e.keyword === 'anyOf');
    const onlyEnumNoise = atPath.every((e) => ['const', 'anyOf', 'type', 'enum'].includes(e.keyword));
    if (union && consts.length > 0 && onlyEnumNoise) {
      done.add(path);
      const allowed = [...consts.map((e) => e.params.allowedValue), ...atPath.filter((e) => e.keyword === 'enum').flatMap((e) => (e.params.allowedValues as unknown[]) ?? [])];
      if (atPath.some((e) => e.keyword === 'type' && e.params.type === 'null')) allowed.push(null);
      out.push({ instancePath: path, keyword: 'enum', params: { allowedValues: withoutOlderSpellings([...new Set(allowed)]) }, message: 'is not an allowed value' });
      continue;
    }
    out.push(error);
  }
  return out;
}

/**
 * An enum that still accepts an older spelling of its values (`pending-incoming` besides
 * `PendingIncoming`, see enums.ts) names only the current ones in its error.
 */
function withoutOlderSpellings(allowed: unknown[]): unknown[] {
  const current = new Set(allowed);
  return allowed.filter((v) => typeof v !== 'string' || pascalCase(v) === v || !current.has(pascalCase(v)));
}

/**
 * A nullable field (`anyOf: [X, null]`) that fails reports three errors (X's, "must be null",
 * "must match a schema in anyOf"): keep only what was wrong with X.
 */
function withoutUnionNoise(validation: AjvError[]): AjvError[] {
  validation = withEnumsCollapsed(validation);
  const unionPaths = new Set(validation.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const kept = validation.filter(
    (e) => !(unionPaths.has(e.instancePath) && (e.keyword === 'anyOf' || (e.keyword === 'type' && e.params.type === 'null'))),
  );
  for (const path of unionPaths) {
    if (!kept.some((e) => e.instancePath === path || e.instancePath.startsWith(`${path}/`))) {
      kept.push({ instancePath: path, keyword: 'anyOf', message: 'has a value of the wrong type or format', params: {} });
    }
  }
  return kept;
}

function fieldErrors(validation: AjvError[], context: ValidationContext | undefined): FieldError[] {
  const where = CONTEXT_TO_IN[context ?? 'body'] ?? 'body';
  const seen = new Set<string>();
  const out: FieldError[] = [];
  // A value outside its `x-fishlog-range` is told the whole rule; its format error would repeat half of it.
  const ranged = new Set(validation.filter((e) => e.keyword === 'x-fishlog-range').map((e) => e.instancePath));
  for (const error of withoutUnionNoise(validation)) {
    if (error.keyword === 'format' && ranged.has(error.instancePath)) continue;
    let pointer = error.instancePath || '';
    let detail = error.message ?? 'is invalid';
    if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
      pointer += `/${escapePointer(error.params.missingProperty)}`;
      detail = 'is required';
    } else if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
      pointer += `/${escapePointer(error.params.additionalProperty)}`;
      detail = 'is not a known property; remove it';
    } else if (error.keyword === 'enum' && Array.isArray(error.params.allowedValues)) {
      detail = `must be one of ${(error.params.allowedValues as unknown[]).map(String).join(', ')}`;
    } else if (error.keyword === 'format' && error.params.format === 'uuid') {
      detail = 'must be a UUID';
    } else if (error.keyword === 'format' && error.params.format === 'date-time') {
      detail = DATE_TIME_RULE;
    } else if (error.keyword === 'format' && error.params.format === 'date') {
      detail = DATE_RULE;
    }
    const key = `${pointer}|${detail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ pointer: truncateEcho(pointer || '/'), in: where, detail: truncateEcho(detail) });
  }
  return out;
}

/** The 400 of a failed schema validation (Ajv's errors), one `errors[]` item per field. */
export function validationFailed(validation: AjvError[], context: ValidationContext | undefined): AppError {
  const errors = fieldErrors(validation, context);
  return new AppError(400, 'request.validation_failed', describe(errors), { errors });
}

/** The first MAX_FIELD_ERRORS items and how many were left out. */
function capped(errors: FieldError[]): { errors: FieldError[]; omitted: number } {
  return { errors: errors.slice(0, MAX_FIELD_ERRORS), omitted: Math.max(0, errors.length - MAX_FIELD_ERRORS) };
}

function describe(errors: FieldError[]): string {
  const parts = errors.slice(0, 3).map((e) => `${e.in} ${e.pointer === '/' ? '' : `${e.pointer} `}${e.detail}`.replace(/\s+/g, ' '));
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  return `The request is invalid: ${parts.join('; ')}${more}. Fix the listed fields and send it again.`;
}

interface PgError {
  code?: string;
  constraint?: string;
  severity?: string;
  message?: string;
}

function isPgError(error: unknown): error is PgError {
  return typeof error === 'object' && error !== null && 'severity' in error && typeof (error as PgError).code === 'string';
}

/** The PostgreSQL error behind an error, also when Drizzle wrapped it (DrizzleQueryError.cause). */
function pgErrorOf(error: unknown): PgError | undefined {
  if (isPgError(error)) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return isPgError(cause) ? cause : undefined;
}

function fromFastifyError(error: FastifyError, bodyLimit: number): AppError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'request.unsupported_media_type', 'The request body must be sent with Content-Type: application/json (PATCH also takes application/merge-patch+json).');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'request.body_too_large', `The request body is larger than the limit of ${bodyLimit} bytes; send a smaller body.`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, 'request.empty_body', 'The Content-Type is application/json but the body is empty; send a JSON body or drop the header.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError(400, 'request.malformed_json', `The request body is not valid JSON (${truncateEcho(error.message)}); check the syntax.`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(400, 'request.bad_content_length', 'The Content-Length header does not match the body that was sent.');
    default:
      break;
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return new AppError(400, 'request.malformed_json', `The request body is not valid JSON (${truncateEcho(error.message)}); check the syntax.`);
  }
  if (error.statusCode === 429) {
    return new AppError(429, 'request.rate_limited', truncateEcho(error.message || 'Too many requests; wait and try again.'));
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError(error.statusCode, 'request.invalid', truncateEcho(error.message));
  }
  return undefined;
}

/**
 * Where in the request a rejected value sits: the first string or number leaf of body, query or
 * path that `matches`, told `detail`.
 */
function locateValue(request: FastifyRequest, matches: (leaf: string | number) => boolean, detail = 'has a value out of range or not valid for this field'): FieldError | undefined {
  const parts: [FieldError['in'], unknown][] = [
    ['body', request.body],
    ['query', request.query],
    ['path', request.params],
  ];
  let budget = 10_000; // bodies are bounded, but keep the walk cheap anyway
  const walk = (value: unknown, pointer: string): string | undefined => {
    if (--budget < 0) return undefined;
    if (typeof value === 'string' || typeof value === 'number') return matches(value) ? pointer || '/' : undefined;
    if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
        const found = walk(child, `${pointer}/${escapePointer(key)}`);
        if (found) return found;
      }
    }
    return undefined;
  };
  for (const [where, value] of parts) {
    const pointer = walk(value, '');
    if (pointer) return { pointer: truncateEcho(pointer), in: where, detail };
  }
  return undefined;
}

const INVALID_VALUE_DETAIL = 'A value in the request is out of range or not valid for its field; check numbers, dates and ids.';

function invalidValue(field: FieldError | undefined, detail = INVALID_VALUE_DETAIL): AppError {
  if (!field) return new AppError(400, 'request.invalid_value', detail);
  return new AppError(400, 'request.invalid_value', `The request is invalid: ${field.in} ${field.pointer} ${field.detail}. Fix the field and send it again.`, { errors: [field] });
}

/** A JavaScript Date built from client input that is not a real instant ("Invalid time value"). */
function isInvalidDateError(error: unknown): boolean {
  return error instanceof RangeError && /invalid time value|invalid date/i.test(error.message);
}

/** The value PostgreSQL quotes in a data exception ('... out of range: "2026-13-01"', 'value "1e10" is out of range for type integer'). */
function quotedValue(message: string | undefined): string | undefined {
  return message ? (/: "(.*)"$/s.exec(message) ?? /^value "(.*)" is out of range/s.exec(message))?.[1] : undefined;
}

const INT_RANGES: Record<string, number> = { smallint: 2 ** 15, integer: 2 ** 31, bigint: 2 ** 63 };

/**
 * A data exception (SQLSTATE class 22) that a client's value caused, as a 400 naming the field
 * where the request shows which it was:
 * - 22021 invalid byte sequence / 22P05 untranslatable character: a NUL or a lone surrogate (the
 *   schema layer refuses both first; this is what a path around it would get);
 * - 22001 string too long for its column: the first string longer than the column's length;
 * - 22003 numeric out of range: the value PostgreSQL quotes, else a number outside the integer type;
 * - 22007 / 22008 invalid or out-of-range date-time: the value PostgreSQL quotes, else a date-time
 *   JavaScript cannot read;
 * - any other 22xxx: the value PostgreSQL quotes, if any.
 */
export function dataException(error: { code: string; message?: string | undefined }, request: FastifyRequest): AppError {
  const quoted = quotedValue(error.message);
  const isQuoted = (leaf: string | number) => quoted !== undefined && String(leaf) === quoted;
  switch (error.code) {
    case '22021':
    case '22P05': {
      const detail = 'contains a character the database cannot store (U+0000 or an unpaired UTF-16 surrogate)';
      return invalidValue(locateValue(request, (leaf) => typeof leaf === 'string' && unstorableText(leaf) !== undefined, detail), `A text in the request ${detail}; remove it.`);
    }
    case '22001': {
      const length = Number(/\((\d+)\)/.exec(error.message ?? '')?.[1]);
      const detail = Number.isFinite(length) ? `is longer than the ${length} characters this field holds` : 'is longer than this field holds';
      return invalidValue(locateValue(request, (leaf) => typeof leaf === 'string' && Number.isFinite(length) && leaf.length > length, detail), `A text in the request ${detail}; shorten it.`);
    }
    case '22003': {
      const type = /(smallint|integer|bigint)/.exec(error.message ?? '')?.[1];
      const limit = type ? INT_RANGES[type]! : undefined;
      const outside = (leaf: string | number) => limit !== undefined && typeof leaf === 'number' && (leaf >= limit || leaf < -limit);
      const detail = 'is out of the range this field holds';
      return invalidValue(locateValue(request, (leaf) => isQuoted(leaf) || (quoted === undefined && outside(leaf)), detail), `A number in the request ${detail}; check numbers and their units.`);
    }
    case '22007':
    case '22008': {
      const detail = 'is not a date-time this field can hold';
      const unreadable = (leaf: string | number) => typeof leaf === 'string' && /^\d{4,}-\d{2}-\d{2}/.test(leaf) && Number.isNaN(new Date(leaf).getTime());
      return invalidValue(locateValue(request, (leaf) => isQuoted(leaf) || (quoted === undefined && unreadable(leaf)), detail), `A date or time in the request ${detail}; send an ISO 8601 date-time with a time zone.`);
    }
    default:
      return invalidValue(quoted === undefined ? undefined : locateValue(request, isQuoted));
  }
}

/** Connection-level failures: the database is down, restarting or out of connections. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_MESSAGE = /connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|terminating connection|the database system is (starting up|shutting down|in recovery mode)|Connection refused|cannot use a pool after calling end/i;

export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** True when an error (or its cause) means the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    if (current instanceof AggregateError && current.errors.some((e) => isDatabaseUnavailable(e))) return true;
  }
  return false;
}

export function databaseUnavailable(): AppError {
  return new AppError(503, 'service.database_unavailable', `The database cannot be reached right now. Retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`, {
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}

function fromPgError(error: PgError, request: FastifyRequest): AppError | undefined {
  if (!error.code) return undefined;
  // Class 22: data exceptions (value out of range, invalid text representation, bad date ...)
  if (error.code.startsWith('22')) return dataException({ code: error.code, message: error.message }, request);
  if (error.code === '23505') {
    return new AppError(409, 'request.duplicate', 'A record with the same unique value already exists.');
  }
  if (error.code === '23503') {
    return new AppError(409, 'request.reference_conflict', 'The request refers to a record that does not exist or is still referenced by others.');
  }
  return undefined;
}

export function toProblem(error: AppError, request: FastifyRequest): ProblemBody {
  const body: ProblemBody = {
    type: problemType(error.code),
    title: statusTitle(error.status),
    status: error.status,
    detail: error.detail,
    code: error.code,
    instance: request.url.split('?')[0] ?? request.url,
    requestId: String(request.id),
  };
  if (error.errors && error.errors.length > 0) {
    const { errors, omitted } = capped(error.errors);
    body.errors = errors;
    if (omitted > 0) body.errorsOmitted = omitted;
  }
  return body;
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply.code(error.status).type(PROBLEM_CONTENT_TYPE).send(toProblem(error, request));
}

export function registerErrorHandling(app: FastifyInstance, options: { bodyLimit: number }): void {
  app.setErrorHandler((error: FastifyError & { validationContext?: ValidationContext }, request, reply) => {
    let appError: AppError | undefined;
    if (error instanceof AppError) {
      appError = error;
    } else if (error.validation) {
      appError = validationFailed(error.validation as unknown as AjvError[], error.validationContext);
    } else if (isDatabaseUnavailable(error)) {
      appError = databaseUnavailable();
    } else if (pgErrorOf(error)) {
      appError = fromPgError(pgErrorOf(error)!, request);
    } else if (isInvalidDateError(error) || isInvalidDateError((error as { cause?: unknown }).cause)) {
      appError = dataException({ code: '22007' }, request);
    } else {
      appError = fromFastifyError(error, options.bodyLimit);
    }
    if (!appError) {
      request.log.error({ err: error }, 'unhandled error');
      appError = new AppError(
        500,
        'internal.unexpected',
        `An unexpected error occurred. Try again later; if it persists, report request id ${String(request.id)}.`,
      );
    } else if (appError.status >= 500) {
      request.log.error({ err: error }, appError.code);
    } else {
      request.log.info({ code: appError.code, status: appError.status }, 'request refused');
    }
    return sendProblem(reply, request, appError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    return sendProblem(
      reply,
      request,
      new AppError(404, 'http.route_not_found', `No route matches ${request.method} ${path}. The API reference lists every operation at /docs (OpenAPI at /openapi.json).`),
    );
  });
}
