import { createRulesetFunction, type RulesetDefinition } from '@stoplight/spectral-core';
import owaspRuleset from '@stoplight/spectral-owasp-ruleset';
import { oas } from '@stoplight/spectral-rulesets';

/**
 * The Spectral ruleset CI lints /openapi.json with (src/core/http/openapi.lint.test.ts): Spectral's
 * OpenAPI rules and the OWASP API Security Top 10 (2023) ruleset, recommended rules; each rule
 * switched off has its one-line reason, and the OWASP resource-exhaustion rules are replaced by
 * `fishlog-input-limits`, the same checks on what clients send.
 */

type Json = Record<string, unknown>;

/** Every string, integer and array a client sends is bounded: maxLength, minimum and maximum, maxItems. */
const inputLimits = createRulesetFunction<unknown, null>({ input: null, options: null }, (target, _options, context) => {
  const results: { message: string; path: (string | number)[] }[] = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown, path: (string | number)[]) => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, [...path, i]));
      return;
    }
    const schema = node as Json;
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const bounded = schema.enum !== undefined || schema.const !== undefined;
    if (types.includes('string') && !bounded && schema.maxLength === undefined) results.push({ message: 'A string input needs maxLength, enum or const.', path });
    if (types.includes('integer') && !bounded && ((schema.minimum ?? schema.exclusiveMinimum) === undefined || (schema.maximum ?? schema.exclusiveMaximum) === undefined)) {
      results.push({ message: 'An integer input needs minimum and maximum.', path });
    }
    if (types.includes('integer') && schema.format === undefined) results.push({ message: 'An integer input needs a format (int32 or int64).', path });
    if (types.includes('array') && schema.maxItems === undefined) results.push({ message: 'An array input needs maxItems.', path });
    for (const [key, value] of Object.entries(schema)) {
      if (['examples', 'example', 'default', 'enum', 'const'].includes(key)) continue;
      visit(value, [...path, key]);
    }
  };
  visit(target, [...context.path]);
  return results;
});

export const spectralRuleset: RulesetDefinition = {
  extends: [
    [oas as RulesetDefinition, 'recommended'],
    [owaspRuleset as unknown as RulesetDefinition, 'recommended'],
  ],
  rules: {
    // Applied to every schema, responses included; fishlog-input-limits checks what clients send, where exhaustion happens.
    'owasp:api4:2023-string-limit': 'off',
    // As above: integers in responses are not an input.
    'owasp:api4:2023-integer-limit': 'off',
    // As above: arrays in responses are bounded by pagination (pageSize ≤ 100), not by maxItems.
    'owasp:api4:2023-array-limit': 'off',
    // One bearer token for every user; admin access is a role or permission checked per route (`x-access`), not another scheme.
    'owasp:api5:2023-admin-security-unique': 'off',
    // The API sends no CORS headers on purpose: browsers on other origins are not its clients.
    'owasp:api8:2023-define-cors-origin': 'off',
    'fishlog-input-limits': {
      description: 'Request parameters and bodies bound every string, integer and array (OWASP API4:2023, on inputs).',
      severity: 'error',
      given: ['$.paths[*][*].parameters[*].schema', '$.paths[*][*].requestBody.content[*].schema'],
      then: { function: inputLimits },
    },
  },
  overrides: [
    {
      // Logging in and refreshing are how a client obtains a token: they cannot require one. Logging out is
      // authorised by the refresh token in its body (RFC 7009), so an expired, banned or deactivated caller can sign out.
      files: ['**#/paths/~1api~1auth~1login/post', '**#/paths/~1api~1auth~1refresh/post', '**#/paths/~1api~1auth~1logout/post'],
      rules: { 'owasp:api2:2023-write-restricted': 'off' },
    },
    {
      // Payment-provider webhooks authenticate by the provider's signature over the body, not by a bearer token.
      files: ['**#/paths/~1api~1payments~1webhooks~1stripe/post'],
      rules: { 'owasp:api2:2023-write-restricted': 'off' },
    },
    {
      // One-click unsubscribe (RFC 8058) is authorised by the signed reference in the mail's link, not by a bearer token.
      files: ['**#/paths/~1api~1notifications~1unsubscribe/post'],
      rules: { 'owasp:api2:2023-write-restricted': 'off' },
    },
  ],
};
