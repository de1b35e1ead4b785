/**
 * Limits on what a problem response may echo back, so that a large invalid request never gets
 * a larger answer (a 1 MB body of bad fields used to produce a 36 MB 400).
 */

/** At most this many `errors[]` items; the rest is counted in `errorsOmitted`. */
export const MAX_FIELD_ERRORS = 20;
/** Longest echoed pointer or detail, in characters. */
export const MAX_ECHO_LENGTH = 200;
/** Deepest accepted JSON nesting of a request body. */
export const MAX_BODY_DEPTH = 32;
/** Most properties of any object of a request body whose schema does not say otherwise. */
export const MAX_OBJECT_PROPERTIES = 1000;

/** Cuts a string that echoes client input to MAX_ECHO_LENGTH characters (marked with …). */
export function truncateEcho(text: string, max = MAX_ECHO_LENGTH): string {
  if (text.length <= max) return text;
  return `${[...text.slice(0, max)].slice(0, max - 1).join('')}…`;
}
