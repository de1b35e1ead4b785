import { PROBLEM_CONTENT_TYPE } from './problem.js';

/**
 * What makes the OpenAPI document usable by client generators and linters, in one place rather than
 * in every route file:
 * - `limitInputSchema`: request schemas (body, query, path, headers) get a `maxLength` on every string
 *   and a `format` on every integer. The limits are enforced: the route validates with the limited copy.
 * - `finishDocument`: error responses are `application/problem+json` with the one `Problem` schema,
 *   success responses get a real description, every response declares the rate-limit and request-id
 *   headers it carries, every operation its 429, and integers in responses their `format`.
 * - `SHARED_RESPONSES`: the answers that do not depend on the operation (401, the 403 of a banned or
 *   deactivated caller, 429, 503, 500), once in `components.responses`; `decorateRoutesForOpenApi`
 *   (openapi.ts) tells each operation which of them it can give, and `finishDocument` puts them in
 *   as `$ref`s.
 */

type Json = Record<string, unknown>;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** maxLength of a string input by its format; a pattern-only string gets DEFAULT_MAX_LENGTH. */
const FORMAT_MAX_LENGTH: Record<string, number> = {
  uuid: 36,
  'date-time': 35, // 2026-06-01T05:30:00.123456789+05:30
  date: 10,
  time: 24,
  email: 254,
  uri: 2048,
  url: 2048,
};
const DEFAULT_MAX_LENGTH = 255;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasType(schema: Json, type: string): boolean {
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
}

function integerFormat(schema: Json): 'int32' | 'int64' {
  const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : -Infinity;
  const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : Infinity;
  return min >= INT32_MIN && max <= INT32_MAX ? 'int32' : 'int64';
}

/** Adds `format` to an integer schema without one (in place). */
function formatInteger(schema: Json): void {
  if (hasType(schema, 'integer') && schema.format === undefined) schema.format = integerFormat(schema);
}

/** Every sub-schema of a JSON schema (properties, items, unions …), depth first, `visit` on each. */
function walkSchema(schema: unknown, visit: (schema: Json) => void, seen = new Set<unknown>()): void {
  if (!isObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  visit(schema);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const item of list) walkSchema(item, visit, seen);
  }
  for (const key of ['items', 'not', 'additionalProperties', 'contains', 'if', 'then', 'else']) walkSchema(schema[key], visit, seen);
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions']) {
    const map = schema[key];
    if (isObject(map)) for (const value of Object.values(map)) walkSchema(value, visit, seen);
  }
}

/** A copy of the JSON structure (TypeBox's symbol keys are left behind: validators do not read them). */
function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * A request schema with the limits a client generator and the OWASP rules expect: `maxLength` on
 * every string without one (by its format, else DEFAULT_MAX_LENGTH) and `format` on every integer.
 * The route validates with this copy, so the document promises only what is enforced.
 */
export function limitInputSchema<T>(schema: T): T {
  if (!isObject(schema)) return schema;
  const limited = clone(schema) as Json;
  walkSchema(limited, (node) => {
    if (hasType(node, 'string') && node.maxLength === undefined && node.enum === undefined && node.const === undefined) {
      node.maxLength = (typeof node.format === 'string' ? FORMAT_MAX_LENGTH[node.format] : undefined) ?? DEFAULT_MAX_LENGTH;
    }
    formatInteger(node);
  });
  return limited as T;
}

const HEADER_COMPONENTS: Record<string, Json> = {
  'RateLimit-Limit': {
    description: 'Requests allowed per client IP in the current window (a minute); RATE_LIMIT_PER_MINUTE, less on routes with their own limit',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the current window ends',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX },
  },
  'X-Request-Id': {
    description: 'Id of this request (the one sent, when well-formed, else a new UUID); also `requestId` in problem bodies',
    schema: { type: 'string', maxLength: 128 },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX },
  },
  'WWW-Authenticate': {
    description: 'The authentication scheme to use: `Bearer`',
    schema: { type: 'string', maxLength: 64 },
  },
};

const RATE_LIMITED_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id'];

const TOO_MANY_REQUESTS = 'Too many requests from this client: wait for Retry-After seconds (per-IP limit, see RateLimit-Limit)';

/** A `$ref` to a shared response, with the operation's own description where it adds something. */
export interface SharedResponseRef {
  $ref: string;
  description?: string;
}

const problemContent = () => ({ [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } });

/**
 * The responses that do not depend on the operation, by component name (`components.responses`):
 * what the authentication, the ban check, the rate limits, maintenance mode, an unreachable
 * database and the error handler answer on every operation they apply to (src/app.ts,
 * core/auth/authenticate.ts, modules/settings: maintenance, core/http/error-handler.ts).
 */
export const SHARED_RESPONSES = {
  Unauthorized: {
    status: 401,
    description:
      'Not signed in: the bearer token is missing, malformed, expired, revoked or not an id token (`auth.token_*`, `auth.access_token_not_accepted`), ' +
      'or its user is unknown to or disabled in the identity provider (`auth.user_not_found`, `auth.user_disabled`)',
  },
  CallerRefused: {
    status: 403,
    description:
      "The caller's account is banned (`auth.banned`: until when and why; read the ban with GET /api/bans/me and appeal it with POST /api/bans/{id}/appeal) " +
      'or deactivated by the administrators (`auth.account_deactivated`), or its deletion is pending (`auth.deletion_pending`: read it with ' +
      'GET /api/account/deletion, cancel it with DELETE /api/account/deletion)',
  },
  AccountDeactivated: {
    status: 403,
    description: "The caller's account is deactivated by the administrators (`auth.account_deactivated`); a ban does not refuse this operation",
  },
  TooManyRequests: { status: 429, description: TOO_MANY_REQUESTS },
  ServiceUnavailable: {
    status: 503,
    description:
      'Unavailable for now; try again after Retry-After seconds: maintenance mode is on (`system.maintenance`, Retry-After 300; employees are let through), ' +
      'the database cannot be reached (`service.database_unavailable`, Retry-After 5) or, for a signed-in caller, the identity provider cannot (`auth.provider_unavailable`)',
  },
  InternalServerError: { status: 500, description: 'Unexpected server error (details are in the server log under the request id)' },
} as const;

export type SharedResponse = keyof typeof SHARED_RESPONSES;

/** The headers a response of `status` declares beside the rate-limit ones. */
function extraHeaders(status: number): string[] {
  if (status === 429 || status === 503) return ['Retry-After'];
  if (status === 401) return ['WWW-Authenticate'];
  return [];
}

function responseComponents(): Json {
  return Object.fromEntries(
    Object.entries(SHARED_RESPONSES).map(([name, { status, description }]) => [
      name,
      { description, headers: Object.fromEntries([...RATE_LIMITED_HEADERS, ...extraHeaders(status)].map((header) => [header, headerRef(header)])), content: problemContent() },
    ]),
  );
}

/**
 * The reference of an operation to a shared response; `own` is the description of the operation's
 * own response of that status, told first when it says more than the shared one (a 403 for a
 * missing permission: the caller may also be refused for a ban).
 */
export function sharedResponseRef(name: SharedResponse, own?: string): SharedResponseRef {
  const ref = `#/components/responses/${name}`;
  const shared = SHARED_RESPONSES[name].description;
  return own ? { $ref: ref, description: `${own.replace(/\.$/, '')}. Also: ${shared.charAt(0).toLowerCase()}${shared.slice(1)}` } : { $ref: ref };
}

/** The extension by which decorateRoutesForOpenApi tells finishDocument an operation's shared responses (removed from the document). */
export const SHARED_RESPONSES_KEY = 'x-fishlog-shared-responses';

function refName(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop();
  return undefined;
}

/** A description of a success response from what it holds, instead of "Default Response". */
function successDescription(status: string, response: Json, operation: Json): string {
  if (status === '204') return 'Done; the response has no body';
  const schema = (Object.values((response.content ?? {}) as Record<string, Json>)[0] ?? {}).schema as Json | undefined;
  const own = isObject(schema) && typeof schema.description === 'string' ? schema.description : undefined;
  const headers = (response.headers ?? {}) as Json;
  const paginated = Object.keys(headers).some((name) => name.toLowerCase() === 'x-total-count');
  if (isObject(schema) && schema.type === 'array') {
    const item = refName(schema.items);
    const what = item ? `${item} items` : 'items';
    return paginated ? `One page of ${what}; X-Total-Count and Link tell the total and the other pages` : `The ${what}`;
  }
  if (own) return own;
  const name = refName(schema);
  if (status === '201') return name ? `Created: the new ${name}` : 'Created';
  if (name) return `The ${name}`;
  return typeof operation.summary === 'string' ? `OK: ${operation.summary.charAt(0).toLowerCase()}${operation.summary.slice(1)}` : 'OK';
}

function headerRef(name: string): Json {
  return { $ref: `#/components/headers/${name}` };
}

/**
 * Finishes the generated document (see the file comment). Every operation is rate limited (a
 * limit per client IP, counted before authentication), so every response declares the headers.
 */
export function finishDocument<T>(document: T): T {
  const doc = document as Json;
  // Audience of the server (OWASP API9:2023): the document describes the public API.
  for (const server of (doc.servers ?? []) as Json[]) server['x-internal'] ??= false;
  const components = (doc.components ??= {}) as Json;
  components.headers = { ...((components.headers as Json | undefined) ?? {}), ...HEADER_COMPONENTS };
  components.responses = { ...((components.responses as Json | undefined) ?? {}), ...responseComponents() };

  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue;
      // A query parameter with a default may be left out (the validation fills the default in).
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (parameter.in === 'query' && parameter.required === true && isObject(parameter.schema) && parameter.schema.default !== undefined) parameter.required = false;
      }
      const responses = operation.responses as Record<string, Json>;
      const shared = (operation[SHARED_RESPONSES_KEY] ?? {}) as Record<string, SharedResponseRef>;
      delete operation[SHARED_RESPONSES_KEY];
      for (const [status, response] of Object.entries(responses)) {
        if (shared[status]) continue;
        const code = Number(status);
        const content = (response.content ?? {}) as Record<string, Json>;
        const media = Object.values(content)[0];
        if (code >= 400 && media && refName(media.schema) === 'Problem') {
          // The route's example of its problem (e.g. the 412 of core/http/conditional.ts) stays.
          const example = media.example === undefined ? {} : { example: media.example };
          response.content = { [PROBLEM_CONTENT_TYPE]: { ...problemContent()[PROBLEM_CONTENT_TYPE], ...example } };
        }
        if (code === 429) response.description = TOO_MANY_REQUESTS;
        if (response.description === 'Default Response') response.description = code < 400 ? successDescription(status, response, operation) : 'Error';
        const headers = (response.headers ?? {}) as Json;
        for (const name of RATE_LIMITED_HEADERS) headers[name] ??= headerRef(name);
        for (const name of extraHeaders(code)) headers[name] ??= headerRef(name);
        response.headers = headers;
      }
      Object.assign(responses, shared);
      responses['429'] ??= { $ref: '#/components/responses/TooManyRequests' };
    }
  }
  // Integers everywhere (responses, components) say how wide they are.
  walkDocument(doc, formatInteger);
  return document;
}

/** Every schema object in the document: a JSON walk that visits each object with a `type`. */
function walkDocument(node: unknown, visit: (schema: Json) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walkDocument(item, visit);
    return;
  }
  if (!isObject(node)) return;
  if (typeof node.type === 'string' || Array.isArray(node.type)) visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'examples' || key === 'example' || key === 'default' || key === 'enum' || key === 'const') continue;
    walkDocument(value, visit);
  }
}
