import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from './problem.js';

/**
 * Conditional requests (RFC 9110 §13) on records with a row version (`rowVersion()` of
 * core/db/columns.ts), once for every module:
 * - the record's `ETag` is its version as a strong entity tag, `"<version>"`; `answerVersioned`
 *   sends it with a read or a write, and answers a GET whose `If-None-Match` names it with a 304;
 * - `preconditionOf` reads `If-Match` (`*`, or a list of entity tags) into a `Precondition` that a
 *   service hands to its repository, which puts it in the UPDATE's or DELETE's WHERE
 *   (`versionMatches` of core/db/versions.ts): the comparison and the write are one statement,
 *   so two writers with the same `If-Match` cannot both succeed; none matched is a 412
 *   (`preconditionFailed`, naming the current version);
 * - `ifMatchHeaders`, `ifNoneMatchHeaders`, `versioned`, `notModified`, `preconditionResponses`:
 *   what the routes declare, so the OpenAPI document and the typed client show them.
 * The record's access rule comes first: a caller who may not see it gets its 403/404, never a
 * 304 or 412 that would tell it exists or changed.
 */

/** A write's `If-Match`: `*` (the record exists) or the versions it may have (none parsed: it matches nothing). */
export type Precondition = { readonly anyVersion: true } | { readonly versions: readonly number[] };

export function etagOf(version: number): string {
  return `"${version}"`;
}

/** RFC 9110 entity-tag list: `*` or `[W/]"opaque"` items separated by commas. */
const TAG = /^\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*$/;

function parseTags(header: string): '*' | Array<{ weak: boolean; opaque: string }> | undefined {
  if (header.trim() === '*') return '*';
  const tags: Array<{ weak: boolean; opaque: string }> = [];
  for (const item of header.split(',')) {
    if (item.trim() === '') continue;
    const match = TAG.exec(item);
    if (!match) return undefined;
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
  }
  return tags;
}

const headerOf = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * The precondition of a PUT, PATCH or DELETE: undefined without `If-Match` (the write is
 * unconditional, as before). `If-Match` compares strongly: a weak tag (`W/"3"`) matches nothing.
 * A header that is no entity-tag list is a 400 (never taken for "no condition").
 */
export function preconditionOf(request: FastifyRequest): Precondition | undefined {
  const header = headerOf(request, 'if-match');
  if (header === undefined) return undefined;
  const tags = parseTags(header);
  if (tags === undefined) {
    throw new AppError(400, 'request.invalid_precondition', 'If-Match must be * or a list of entity tags such as "3" (the ETag of the record, quotes included).', {
      errors: [{ pointer: '/if-match', in: 'header', detail: 'is not * or a list of entity tags' }],
    });
  }
  if (tags === '*') return { anyVersion: true };
  return { versions: tags.filter((t) => !t.weak && /^[1-9]\d{0,9}$/.test(t.opaque)).map((t) => Number(t.opaque)) };
}

/** Whether a version satisfies a precondition (for a record read under its lock, e.g. to tell 412 from 404). */
export function satisfies(precondition: Precondition | undefined, version: number): boolean {
  return !precondition || 'anyVersion' in precondition || precondition.versions.includes(version);
}

/** `If-None-Match` names the current entity tag (weak comparison), or is `*`. */
function noneMatchHits(request: FastifyRequest, etag: string): boolean {
  const header = headerOf(request, 'if-none-match');
  if (header === undefined) return false;
  const tags = parseTags(header);
  if (tags === '*') return true;
  return (tags ?? []).some((t) => `"${t.opaque}"` === etag);
}

/** 412 `request.precondition_failed`: the record is no longer the version the client based its write on. */
export function preconditionFailed(what: string, current: number): AppError {
  const etag = etagOf(current);
  return new AppError(
    412,
    'request.precondition_failed',
    `The ${what} changed since you read it: it is now version ${current} (ETag ${etag}). Read it again, and send your change with If-Match: ${etag} if it still applies.`,
    { headers: { etag } },
  );
}

/**
 * Answers a record read or written (`status` 200 or 201) with its `ETag`; a GET (or HEAD) whose
 * `If-None-Match` names the current tag gets a 304 with no body. Call it after the access check.
 * The tag names the record's version, while what a caller is shown of it depends on who asks (an
 * exact location only to its owner): the answer is `private, no-cache` and varies by
 * `Authorization`, so no cache hands one caller's copy to another, as the photo files do.
 */
export function answerVersioned<T extends { version: number }>(request: FastifyRequest, reply: FastifyReply, view: T, status = 200) {
  const etag = etagOf(view.version);
  reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'Authorization');
  if ((request.method === 'GET' || request.method === 'HEAD') && noneMatchHits(request, etag)) return reply.code(304).send();
  return reply.code(status).send(view);
}

const IF_MATCH =
  'Makes the write conditional: the ETag you read (e.g. `"3"`), a list of them, or `*` (the record exists). ' +
  'When the record is no longer that version: 412 `request.precondition_failed`, nothing written. Without it the write is unconditional.';

/** The `version` of a record's representation (its ETag without the quotes). */
export const VersionField = Type.Integer({
  minimum: 1,
  maximum: 2_147_483_647,
  description: 'The record’s version: 1 when created, one more at every change (for an entry also a change of its catches, for a session of its entries). Its ETag is `"<version>"`.',
  examples: [3],
});

/** Request headers of a PUT, PATCH or DELETE of a versioned record. */
export const ifMatchHeaders = Type.Object({ 'if-match': Type.Optional(Type.String({ maxLength: 1024, description: IF_MATCH, examples: ['"3"'] })) });

/** Request headers of a GET of a versioned record. */
export const ifNoneMatchHeaders = Type.Object({
  'if-none-match': Type.Optional(Type.String({ maxLength: 1024, description: 'The ETag of your copy (e.g. `"3"`): 304 with no body while the record is still that version.', examples: ['"3"'] })),
});

const ETAG_HEADER = { etag: { type: 'string', description: 'The record’s version as a strong entity tag (`"3"`, also its `version`): send it as If-Match to write only that version, as If-None-Match to read only a newer one' } } as const;

/** A success response of a versioned record (`$ref` to its schema), with the ETag header. */
export function versioned(ref: string, description?: string) {
  return { ...Type.Ref(ref, description ? { description } : {}), headers: ETAG_HEADER };
}

/** The 304 of a GET with If-None-Match. */
export const notModified = {
  304: Type.Null({ description: 'Not modified: your copy (its ETag sent as If-None-Match) is the current version; no body. Only after the access check (a record you may not see is its 403/404).' }),
};

/** The 412 of a conditional write, with an example. */
export const preconditionResponses = {
  412: Type.Ref('Problem', {
    description: 'Precondition failed: the record is no longer the version named by If-Match (`request.precondition_failed`; the detail and the ETag header name the current version). Nothing was written.',
    examples: [
      {
        type: 'urn:fishlog:problem:request.precondition_failed',
        title: 'Precondition Failed',
        status: 412,
        code: 'request.precondition_failed',
        detail: 'The boat changed since you read it: it is now version 4 (ETag "4"). Read it again, and send your change with If-Match: "4" if it still applies.',
        instance: '/api/gear/boats/0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
      },
    ],
  }),
};
