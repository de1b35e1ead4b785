import { STATUS_CODES } from 'node:http';
import { Type, type Static } from 'typebox';

/**
 * RFC 9457 problem details. Every 4xx/5xx body of the API has this shape; `code` is a stable,
 * dotted identifier clients can switch on, `detail` says what to do next.
 */
export const ProblemFieldError = Type.Object(
  {
    pointer: Type.String({ description: 'JSON pointer to the offending field, relative to `in`', examples: ['/title'] }),
    in: Type.Union([Type.Literal('body'), Type.Literal('query'), Type.Literal('path'), Type.Literal('header')], {
      description: 'Which part of the request the pointer addresses',
    }),
    detail: Type.String({ description: 'What was wrong with the field', examples: ['must be a string'] }),
  },
  { additionalProperties: false },
);

export const Problem = Type.Object(
  {
    type: Type.String({ description: 'URI identifying the problem type', examples: ['urn:fishlog:problem:http.route_not_found'] }),
    title: Type.String({ description: 'Short summary of the problem type', examples: ['Not Found'] }),
    status: Type.Integer({ description: 'HTTP status code', examples: [404] }),
    detail: Type.String({ description: 'What happened and what to do next' }),
    code: Type.String({ description: 'Stable dotted error code', examples: ['http.route_not_found'] }),
    instance: Type.String({ description: 'The request path this occurrence belongs to', examples: ['/nope'] }),
    requestId: Type.Optional(Type.String({ description: 'Request id, also sent as the X-Request-Id header; quote it when reporting a problem' })),
    errors: Type.Optional(Type.Array(ProblemFieldError, { description: 'One item per invalid field (validation failures), at most 20', maxItems: 20 })),
    errorsOmitted: Type.Optional(Type.Integer({ minimum: 1, description: 'How many further invalid fields were not listed in `errors`' })),
  },
  { $id: 'Problem', additionalProperties: false, description: 'RFC 9457 problem details' },
);
export type ProblemBody = Static<typeof Problem>;
export type FieldError = Static<typeof ProblemFieldError>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problemType(code: string): string {
  return `urn:fishlog:problem:${code}`;
}

export function statusTitle(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/**
 * Base class of every error the API answers on purpose. Modules declare theirs in
 * `*.errors.ts` as factories over this class; the one error handler turns it into a problem.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, code: string, detail: string, options: { errors?: FieldError[]; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

/** Generic errors shared by every module. */
export const HttpErrors = {
  badRequest: (code: string, detail: string, errors?: FieldError[]) => new AppError(400, code, detail, errors ? { errors } : {}),
  unauthorized: (code: string, detail: string) => new AppError(401, code, detail, { headers: { 'www-authenticate': 'Bearer' } }),
  forbidden: (code: string, detail: string) => new AppError(403, code, detail),
  notFound: (code: string, detail: string) => new AppError(404, code, detail),
  conflict: (code: string, detail: string) => new AppError(409, code, detail),
  unavailable: (code: string, detail: string) => new AppError(503, code, detail),
};

/** A property name as a segment of a JSON Pointer (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A schema validation error as Ajv reports it (what `validationFailed` turns into `errors[]`). */
export interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}
