import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, PROBLEM_CONTENT_TYPE, problemType, statusTitle, type FieldError, type ProblemBody } from './problem.js';

/**
 * The one place where errors become RFC 9457 problem+json responses.
 * - AppError (and module errors built on it): as declared.
 * - Schema validation: 400 `request.validation_failed` with one `errors[]` item per field.
 * - Body parsing: malformed JSON 400, wrong content type 415, oversized body 413.
 * - PostgreSQL data errors caused by client input: 400/409 rather than 500.
 * - Everything else: 500 with a body that hides internals; the log keeps them.
 */

type ValidationContext = 'body' | 'querystring' | 'params' | 'headers';
const CONTEXT_TO_IN: Record<ValidationContext, FieldError['in']> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * A nullable field (`anyOf: [X, null]`) that fails reports three errors (X's, "must be null",
 * "must match a schema in anyOf"): keep only what was wrong with X.
 */
function withoutUnionNoise(validation: AjvError[]): AjvError[] {
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
  for (const error of withoutUnionNoise(validation)) {
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
    }
    const key = `${pointer}|${detail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ pointer: pointer || '/', in: where, detail });
  }
  return out;
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
      return new AppError(415, 'request.unsupported_media_type', 'The request body must be sent with Content-Type: application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'request.body_too_large', `The request body is larger than the limit of ${bodyLimit} bytes; send a smaller body.`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, 'request.empty_body', 'The Content-Type is application/json but the body is empty; send a JSON body or drop the header.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError(400, 'request.malformed_json', `The request body is not valid JSON (${error.message}); check the syntax.`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(400, 'request.bad_content_length', 'The Content-Length header does not match the body that was sent.');
    default:
      break;
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return new AppError(400, 'request.malformed_json', `The request body is not valid JSON (${error.message}); check the syntax.`);
  }
  if (error.statusCode === 429) {
    return new AppError(429, 'request.rate_limited', error.message || 'Too many requests; wait and try again.');
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError(error.statusCode, 'request.invalid', error.message);
  }
  return undefined;
}

function fromPgError(error: PgError): AppError | undefined {
  if (!error.code) return undefined;
  // Class 22: data exceptions (value out of range, invalid text representation, bad date ...)
  if (error.code.startsWith('22')) {
    return new AppError(400, 'request.invalid_value', 'A value in the request is out of range or not valid for its field; check numbers, dates and ids.');
  }
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
  if (error.errors && error.errors.length > 0) body.errors = error.errors;
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
      const errors = fieldErrors(error.validation as unknown as AjvError[], error.validationContext);
      appError = new AppError(400, 'request.validation_failed', describe(errors), { errors });
    } else if (pgErrorOf(error)) {
      appError = fromPgError(pgErrorOf(error)!);
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
