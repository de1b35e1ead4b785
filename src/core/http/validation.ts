import { Ajv, type AnySchemaObject } from 'ajv';
import addFormats from 'ajv-formats';
import { isPlausibleDate, isPlausibleDateTime, isValidDateTime, PAST_DATE_RULE, PAST_DATE_TIME_RULE } from './formats.js';
import { escapePointer, type AjvError } from './problem.js';

/**
 * The Ajv configuration of request validation, in one place: the route validators (src/app.ts)
 * and the validation of a merged JSON Merge Patch (merge-patch.ts) apply the same rules.
 */
export function createAjv(coerce: boolean, options: { validateSchema?: boolean } = {}): Ajv {
  const ajv = new Ajv({
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: coerce ? 'array' : false,
    allErrors: true,
    strict: false,
    validateSchema: options.validateSchema ?? true,
  });
  addFormats.default(ajv);
  // Request date-times: RFC 3339, no leap second, from 1900 (src/core/http/formats.ts).
  ajv.addFormat('date-time', { type: 'string', validate: (value: string) => isValidDateTime(value) });
  // What happened: a date or date-time from 1900 to at most 24 hours from now (`x-fishlog-range`
  // beside the standard format). Its error says the whole rule, so the format's is not repeated
  // (error-handler.ts keeps this one where both fail).
  ajv.addKeyword({
    keyword: 'x-fishlog-range',
    type: 'string',
    errors: true,
    validate: function inRange(_range: unknown, value: string, parentSchema?: AnySchemaObject) {
      const date = parentSchema?.format === 'date';
      const ok = date ? isPlausibleDate(value) : isPlausibleDateTime(value);
      if (!ok) (inRange as { errors?: unknown[] }).errors = [{ keyword: 'x-fishlog-range', message: date ? PAST_DATE_RULE : PAST_DATE_TIME_RULE, params: {} }];
      return ok;
    },
  });
  return ajv;
}

/** What a string with U+0000 is told: PostgreSQL cannot store it in text or jsonb. */
export const NUL_RULE = 'must not contain the NUL character (U+0000)';
/** What a string with a lone UTF-16 surrogate is told: it has no UTF-8 form (it would be stored as U+FFFD). */
export const SURROGATE_RULE = 'must not contain an unpaired UTF-16 surrogate (U+D800–U+DFFF without its pair); send valid Unicode text';

// eslint-disable-next-line no-control-regex -- NUL is what this looks for
const MAYBE_UNSAFE = /[\u0000\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored as text, or undefined when it can. */
export function unstorableText(value: string): string | undefined {
  if (!MAYBE_UNSAFE.test(value)) return undefined;
  if (value.includes('\u0000')) return NUL_RULE;
  return LONE_SURROGATE.test(value) ? SURROGATE_RULE : undefined;
}

/**
 * The rule every string of a request obeys, whatever its schema says (applied with the schema
 * validation of body, query, path and headers, so before any handler runs): no U+0000 and no lone
 * surrogate, in values and in property names. An error per offending string, in Ajv's shape.
 * (Header values cannot carry either: Node's HTTP parser refuses NUL and headers are bytes.)
 */
export function unstorableTextErrors(data: unknown): AjvError[] | undefined {
  let errors: AjvError[] | undefined;
  const report = (instancePath: string, message: string) => (errors ??= []).push({ instancePath, keyword: 'text', message, params: {} });
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      const problem = unstorableText(value);
      if (problem) report(path, problem);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) visit(value[i], `${path}/${i}`);
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        const child = `${path}/${escapePointer(key)}`;
        const problem = unstorableText(key);
        if (problem) report(child, `(the property name) ${problem}`);
        visit((value as Record<string, unknown>)[key], child);
      }
    }
  };
  visit(data, '');
  return errors;
}
