import { createHash, type Hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { expect, inject } from 'vitest';
import { AppError } from '../src/core/http/problem.js';

/**
 * The OpenAPI document tells the whole truth: every response of every test app (`createTestApp`)
 * is checked, as it is sent, against the app's own /openapi.json —
 * - its status is declared for the operation (the route's method and URL template → the
 *   document's path: `/api/clubs/:id/join` → `/api/clubs/{id}/join`);
 * - its Content-Type (without parameters) is a media type declared for that status;
 * - a problem+json body is valid against the declared schema (Ajv, JSON Schema 2020-12 as
 *   OpenAPI 3.1 says). Success bodies are serialized by fast-json-stringify from the very schemas
 *   the document shows, and an Ajv validator per operation costs 50–400 ms to compile here, so
 *   they are validated only with FISHLOG_TEST_VALIDATE_BODIES=all.
 *
 * A mismatch fails the test that caused it: `expect.soft` records it on the running test, which
 * goes on and is reported failed with the operation, status, content type and request id. Outside
 * a test (a `beforeAll`), the response becomes a 500 problem `test.openapi_mismatch` saying it.
 *
 * Not checked (the whole list):
 * - routes hidden from the document (`schema.hide`: /openapi.json, /docs and its assets, the CORS
 *   preflight route): the document does not describe them;
 * - requests no route matched (Fastify's not-found handler, 404 `http.route_not_found`): no
 *   operation to hold them against;
 * - the body of a HEAD request (there is none); its status and type are held against the GET.
 *
 * Cheap enough for every response of the suite: generating the document takes 1–2 s, so it is
 * made once per test run and document (the first app that needs it writes it to the temp folder
 * under the run's prefix and a hash of its routes' schemas and configs; the other files of the
 * run read it), and the lookup and the compiled validators are kept per document in the process.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is arbitrary JSON
type Json = Record<string, any>;

/** JSON bodies larger than this are not validated (the status and type still are). */
const MAX_VALIDATED_BODY = 512 * 1024;
const JSON_MEDIA = /^application\/(.+\+)?json$/;
const DOCUMENT_KEY = 'openapi.json';
const VALIDATE_ALL_BODIES = process.env.FISHLOG_TEST_VALIDATE_BODIES === 'all';

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** A Fastify route URL as the document's path: `:id` → `{id}`. */
export function documentPath(routeUrl: string): string {
  return routeUrl.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, '{$1}');
}

export interface SentResponse {
  method: string;
  /** The route's URL template (`/api/clubs/:id/join`). */
  routeUrl: string;
  status: number;
  /** The Content-Type header, if any. */
  contentType: string | undefined;
  /** The payload as sent (a string when serialized). */
  payload: unknown;
}

/** What the document says, built once per document. */
export class DocumentTable {
  private ajv: Ajv2020 | undefined;
  private componentsAdded = false;
  private readonly validators = new Map<string, ValidateFunction | string>();

  /** `bodies`: which JSON bodies to validate, problems only (the default) or all (FISHLOG_TEST_VALIDATE_BODIES=all). */
  constructor(
    readonly document: Json,
    private readonly bodies: 'problems' | 'all' = VALIDATE_ALL_BODIES ? 'all' : 'problems',
  ) {}

  /** The schema at a JSON pointer of the document. */
  private at(pointer: string): unknown {
    let node: unknown = this.document;
    for (const segment of pointer.split('/').slice(1)) node = (node as Json | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    return node;
  }

  /**
   * The validator of the schema at `pointer`, compiled once: its references into the document's
   * components are resolved against them (added to Ajv once, when a schema first refers to them).
   */
  private validator(pointer: string): ValidateFunction | string {
    let validate = this.validators.get(pointer);
    if (validate === undefined) {
      this.ajv ??= addFormats.default(new Ajv2020({ strict: false, validateSchema: false, allErrors: true, logger: false }));
      const text = JSON.stringify(this.at(pointer) ?? null);
      if (text.includes('"#/components/') && !this.componentsAdded) {
        this.ajv.addSchema({ $id: DOCUMENT_KEY, components: this.document.components });
        this.componentsAdded = true;
      }
      try {
        validate = this.ajv.compile(JSON.parse(text.replaceAll('"#/components/', `"${DOCUMENT_KEY}#/components/`)) as Json);
      } catch (error) {
        validate = `the schema at ${pointer} does not compile: ${(error as Error).message}`;
      }
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  /** Why `response` is not what the document declares, or undefined when it is. */
  mismatch(response: SentResponse): string | undefined {
    const path = documentPath(response.routeUrl);
    const method = response.method === 'HEAD' ? 'get' : response.method.toLowerCase();
    const operation = this.document.paths?.[path]?.[method] as Json | undefined;
    if (!operation) return `the document has no operation ${method.toUpperCase()} ${path}`;
    const status = String(response.status);
    let declared = operation.responses?.[status] as Json | undefined;
    let pointer = `/paths/${escapePointer(path)}/${method}/responses/${status}`;
    if (!declared) return `the document declares no ${status} for this operation (it declares ${Object.keys(operation.responses ?? {}).join(', ')})`;
    if (typeof declared.$ref === 'string') {
      pointer = declared.$ref.slice(1);
      declared = this.document.components?.responses?.[declared.$ref.split('/').pop()!] as Json | undefined;
      if (!declared) return `the ${status} of this operation refers to ${pointer}, which the document does not have`;
    }
    // No content goes with a 204 or 304 (HTTP; Fastify sends none), whatever Content-Type is set.
    if (response.status === 204 || response.status === 304) return undefined;
    const media = response.contentType?.split(';')[0]!.trim().toLowerCase();
    const empty = response.payload === undefined || response.payload === null || response.payload === '' || (Buffer.isBuffer(response.payload) && response.payload.length === 0);
    if (!media) return undefined;
    const types = Object.keys((declared.content ?? {}) as Json);
    if (types.length === 0) return empty ? undefined : `the document declares no body for ${status}, and ${media} was sent`;
    const type = types.find((t) => t === media || t === '*/*' || (t.endsWith('/*') && media.startsWith(t.slice(0, -1))));
    if (!type) return `the document declares ${types.join(', ')} for ${status}, not ${media}`;
    if (response.method === 'HEAD' || typeof response.payload !== 'string' || response.payload.length > MAX_VALIDATED_BODY || !JSON_MEDIA.test(type)) return undefined;
    if (this.bodies === 'problems' && type !== 'application/problem+json') return undefined;
    if (!declared.content[type].schema) return undefined;
    const validate = this.validator(`${pointer}/content/${escapePointer(type)}/schema`);
    if (typeof validate === 'string') return validate;
    let body: unknown;
    try {
      body = JSON.parse(response.payload);
    } catch {
      return `the body is not JSON though sent as ${media}`;
    }
    if (validate(body)) return undefined;
    const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
    return `the body does not match the declared schema: ${errors.join('; ')}`;
  }
}

/** Tables by the fingerprint of an app's routes (a few at a time: a run has one or two documents). */
const tables = new Map<string, DocumentTable>();
const MAX_TABLES = 4;
const CACHE_DIR = path.join(os.tmpdir(), 'fishlog-test-openapi');
/** Documents of earlier runs are removed once this old. */
const STALE_MS = 6 * 3600_000;

/** The app's document: from this run's cache, else generated and cached for the run's other files. */
function documentOf(fingerprint: string, app: FastifyInstance): Json {
  const { prefix } = inject('testDb');
  const file = path.join(CACHE_DIR, `${prefix}-${fingerprint.slice(0, 24)}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Json;
  } catch {
    // not made yet in this run
  }
  const document = JSON.parse(JSON.stringify((app as unknown as { swagger(): Json }).swagger())) as Json;
  mkdirSync(CACHE_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(document));
  renameSync(partial, file);
  // Earlier runs' documents (a run going on beside this one, with its own prefix, keeps its own).
  for (const name of readdirSync(CACHE_DIR)) {
    const other = path.join(CACHE_DIR, name);
    try {
      if (!name.startsWith(prefix) && statSync(other).mtimeMs < Date.now() - STALE_MS) rmSync(other, { force: true });
    } catch {
      // removed by another worker meanwhile
    }
  }
  return document;
}

function tableFor(fingerprint: string, app: FastifyInstance): DocumentTable {
  let table = tables.get(fingerprint);
  if (!table) {
    table = new DocumentTable(documentOf(fingerprint, app));
    tables.set(fingerprint, table);
    if (tables.size > MAX_TABLES) tables.delete(tables.keys().next().value!);
  }
  return table;
}

function describe(request: FastifyRequest, reply: FastifyReply, payload: unknown, reason: string): string {
  const path = documentPath(request.routeOptions.url ?? request.url);
  const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
  const type = String(reply.getHeader('content-type') ?? 'no Content-Type');
  let code = '';
  if (typeof payload === 'string' && /problem\+json/.test(type)) {
    try {
      code = ` \`${String((JSON.parse(payload) as { code?: unknown }).code)}\``;
    } catch {
      // not JSON: the reason says so
    }
  }
  return `OpenAPI conformance: ${request.method} ${path}${operationId ? ` (${operationId})` : ''} answered ${reply.statusCode} ${type}${code}, request id ${String(request.id)}: ${reason}`;
}

/** Reports a mismatch on the running test; outside a test, throws it as the response. */
function report(message: string): Error | undefined {
  try {
    expect.soft(false, message).toBe(true);
    return undefined;
  } catch {
    // "expect.soft() can only be used inside a test": a beforeAll or afterAll sent it.
    return new AppError(500, 'test.openapi_mismatch', message);
  }
}

/**
 * Checks every response of `app` against its OpenAPI document. Call it on the new instance,
 * before anything is registered (`buildApp`'s `onCreate`), so that its hooks see every route.
 */
export function checkResponsesAgainstOpenApi(app: FastifyInstance): void {
  const hash: Hash = createHash('sha256');
  let fingerprint: string | undefined;
  let table: DocumentTable | undefined;
  const reported = new WeakSet<object>();
  app.addHook('onRoute', (route) => {
    hash.update(`${String(route.method)} ${route.url} ${JSON.stringify(route.config ?? {})} ${JSON.stringify(route.schema ?? {})}\n`);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const schema = request.routeOptions.schema as { hide?: boolean } | undefined;
    if (request.is404 || !request.routeOptions.url || schema?.hide || reported.has(request)) return done(null, payload);
    fingerprint ??= hash.digest('hex');
    table ??= tableFor(fingerprint, app);
    let reason: string | undefined;
    try {
      reason = table.mismatch({ method: request.method, routeUrl: request.routeOptions.url, status: reply.statusCode, contentType: reply.getHeader('content-type') as string | undefined, payload });
    } catch (error) {
      reason = `the check failed: ${(error as Error).stack ?? String(error)}`;
    }
    if (reason === undefined) return done(null, payload);
    reported.add(request);
    const error = report(describe(request, reply, payload, reason));
    if (error && payload && typeof (payload as { destroy?: unknown }).destroy === 'function') (payload as { destroy(): void }).destroy();
    if (error) done(error);
    else done(null, payload);
  });
}
