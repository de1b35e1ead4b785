import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { isPlausibleDate, isPlausibleDateTime, isValidDateTime } from './formats.js';

/**
 * The Ajv configuration of request validation, in one place: the route validators (src/app.ts)
 * and the validation of a merged JSON Merge Patch (merge-patch.ts) apply the same rules.
 */
export function createAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, coerceTypes: coerce ? 'array' : false, allErrors: true, strict: false });
  addFormats.default(ajv);
  // Request date-times: RFC 3339, no leap second, from 1900; past-date-time also at most 24 h ahead (src/core/http/formats.ts).
  ajv.addFormat('date-time', { type: 'string', validate: (value: string) => isValidDateTime(value) });
  ajv.addFormat('past-date-time', { type: 'string', validate: (value: string) => isPlausibleDateTime(value) });
  ajv.addFormat('past-date', { type: 'string', validate: (value: string) => isPlausibleDate(value) });
  return ajv;
}
