import { Type, type TSchema, type TSchemaOptions } from 'typebox';
import { Problem } from './problem.js';

/** Shared route schemas: ids, timestamps, error responses. */

export const Uuid = Type.String({ format: 'uuid', description: 'UUID', examples: ['0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21'] });
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 date-time', examples: ['2026-06-01T05:30:00.000Z'] });
/**
 * The range of a date or date-time a client sends for when something happened (`x-fishlog-range`,
 * checked by the request validation, src/core/http/validation.ts): from 1900-01-01 to at most 24
 * hours from now. In the OpenAPI document beside the standard `format`, which generators type.
 */
export const HAPPENED_RANGE = { from: '1900-01-01', toFromNow: 'PT24H' } as const;

/** When something happened: a date-time from 1900 to at most 24 hours from now. */
export const PastTimestamp = Type.String({
  format: 'date-time',
  'x-fishlog-range': HAPPENED_RANGE,
  description: 'ISO 8601 date-time of something that happened: from 1900 to at most 24 hours from now',
  examples: ['2026-06-01T05:30:00.000Z'],
});

/** The day something happened: a calendar date from 1900-01-01 to at most 24 hours from now. */
export const PastDate = Type.String({
  format: 'date',
  'x-fishlog-range': HAPPENED_RANGE,
  maxLength: 10,
  description: 'Calendar date YYYY-MM-DD of something that happened: from 1900-01-01 to at most 24 hours from now',
  examples: ['2026-06-01'],
});

/** ISO 3166-2 state/province code (any case; services store it upper case): entries, criteria, profiles. */
export const StateCode = Type.String({
  pattern: '^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$',
  description: 'ISO 3166-2 state/province code, e.g. US-MN or CA-ON (stored upper case)',
  examples: ['US-MN'],
});

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export const ProblemRef = Type.Ref('Problem');

/** The description of each error status where a route gives none of its own. */
export const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'Bad request: malformed body, invalid field, unknown property, bad id or query parameter',
  401: 'Missing, malformed, expired or invalid token',
  403: 'The caller lacks the role or permission, or the record is not visible to the caller',
  404: 'The addressed record does not exist',
  409: 'Conflict with the current state of the record',
  413: 'Request body larger than the limit',
  415: 'Unsupported content type: send application/json',
  422: 'Well formed, but refused by a domain rule (see the problem code): the same request fails again; change what it asks for',
  429: 'Too many requests: wait for Retry-After seconds',
  500: 'Unexpected server error (details are in the server log under the request id)',
  503: 'Service unavailable',
};

/** Problem responses for the given status codes, for a route's `response` schema. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of statuses) {
    out[status] = Type.Ref('Problem', { description: ERROR_DESCRIPTIONS[status] ?? 'Error' });
  }
  return out;
}

export const sharedSchemas: TSchema[] = [Problem];

/** A schema or null. (Request bodies are validated without type coercion, so null stays null.) */
export function Nullable<T extends TSchema>(schema: T, options: TSchemaOptions = {}) {
  return Type.Union([schema, Type.Null()], options);
}

/** One of the given strings (an enum of literals). */
export function literals<T extends string>(values: readonly T[], description?: string) {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );
}
