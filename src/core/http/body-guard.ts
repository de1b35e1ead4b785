import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { validationFailed } from './error-handler.js';
import { MAX_BODY_DEPTH, MAX_OBJECT_PROPERTIES, truncateEcho } from './limits.js';
import { AppError } from './problem.js';
import { addRouteHook, takesBody } from './route-hooks.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its request body itself, without a body schema (a provider's signed webhook): a body is not refused. */
    rawBody?: boolean;
  }
}

/**
 * A cheap walk over JSON request bodies before schema validation: an object with more
 * properties than its schema allows (a closed object: `additionalProperties: false`), an array
 * longer than its `maxItems`, any object
 * with more than MAX_OBJECT_PROPERTIES, or nesting deeper than MAX_BODY_DEPTH is refused at once
 * with one 400, instead of letting the validator report each of 110 000 unknown keys.
 */

interface SchemaNode {
  type?: unknown;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: unknown;
  maxProperties?: number;
  items?: SchemaNode;
  maxItems?: number;
}

function allowedProperties(schema: SchemaNode | undefined): number {
  if (schema && typeof schema.maxProperties === 'number') return schema.maxProperties;
  if (schema?.properties && schema.additionalProperties === false) return Object.keys(schema.properties).length;
  return MAX_OBJECT_PROPERTIES;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function tooLarge(pointer: string, detail: string): AppError {
  return new AppError(400, 'request.body_too_complex', `The request body is invalid: ${truncateEcho(`body ${pointer || '/'} ${detail}`)}. Send only the documented fields.`, {
    errors: [{ pointer: truncateEcho(pointer || '/'), in: 'body', detail }],
  });
}

/** Throws a 400 when the body is deeper or wider than its schema allows. */
export function checkBodyShape(body: unknown, schema: SchemaNode | undefined): void {
  const walk = (value: unknown, node: SchemaNode | undefined, pointer: string, depth: number): void => {
    if (value === null || typeof value !== 'object') return;
    if (depth > MAX_BODY_DEPTH) throw tooLarge(pointer, `is nested deeper than ${MAX_BODY_DEPTH} levels`);
    if (Array.isArray(value)) {
      if (typeof node?.maxItems === 'number' && value.length > node.maxItems) throw tooLarge(pointer, `has ${value.length} items; at most ${node.maxItems} are allowed`);
      for (let i = 0; i < value.length; i++) walk(value[i], node?.items, `${pointer}/${i}`, depth + 1);
      return;
    }
    const keys = Object.keys(value);
    const allowed = Math.min(allowedProperties(node), MAX_OBJECT_PROPERTIES);
    if (keys.length > allowed) throw tooLarge(pointer, `has ${keys.length} properties; at most ${allowed} are allowed`);
    for (const key of keys) walk((value as Record<string, unknown>)[key], node?.properties?.[key], `${pointer}/${escapePointer(key)}`, depth + 1);
  };
  walk(body, schema, '', 0);
}

/**
 * Whether a route refuses any request body: its method could carry one (POST, PUT, PATCH, DELETE)
 * but it declares no body schema (joining a club, liking a post, deleting a record …), and it does
 * not read the raw body itself (`config.rawBody`).
 */
export function refusesBody(route: Pick<RouteOptions, 'method' | 'schema' | 'config'>): boolean {
  return takesBody(route as RouteOptions) && !route.schema?.body && route.config?.rawBody !== true;
}

/**
 * The 400 of a body sent to an operation that takes none, as a validation failure naming the body:
 * `{}` too (the generated client sends no body there), so a field a client believes it sets is
 * never silently ignored.
 */
export function bodyNotAllowed(): AppError {
  return validationFailed([{ instancePath: '', keyword: 'not', message: 'must be absent: this operation takes no request body', params: {} }], 'body');
}

/** On the routes that take a body (registered after this call); a body sent to a route that takes none is a 400. */
export function registerBodyGuard(app: FastifyInstance): void {
  const refuse = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => done(request.body === undefined ? undefined : bodyNotAllowed());
  addRouteHook(app, 'preValidation', refuse, refusesBody);
  const guard = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    try {
      if (request.body !== undefined && request.body !== null && typeof request.body === 'object') checkBodyShape(request.body, request.routeOptions.schema?.body as SchemaNode | undefined);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
  addRouteHook(app, 'preValidation', guard, takesBody);
}
