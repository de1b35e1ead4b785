import { AppError } from '../../core/http/problem.js';
import { PROVIDER_NAMES } from './providers/index.js';

export const ModerationErrors = {
  unknownProvider: (name: string) =>
    new AppError(400, 'moderation.unknown_provider', `Unknown moderation provider "${name}". Valid providers: ${PROVIDER_NAMES.join(', ')}.`, {
      errors: [{ pointer: '/provider', in: 'body', detail: `must be one of ${PROVIDER_NAMES.join(', ')}` }],
    }),
  providerNeeds: (provider: string, field: 'apiKey' | 'baseUrl') =>
    new AppError(400, 'moderation.provider_setting_missing', `The ${provider} provider needs ${field}; send it in the same request (it is kept for later ones).`, {
      errors: [{ pointer: `/${field}`, in: 'body', detail: `is required by the ${provider} provider` }],
    }),
  badBaseUrl: () =>
    new AppError(400, 'moderation.invalid_base_url', 'baseUrl must be an http or https URL without credentials, query or fragment, e.g. https://api.openai.com/v1.', {
      errors: [{ pointer: '/baseUrl', in: 'body', detail: 'must be an http(s) URL without credentials, query or fragment' }],
    }),
  unsafePattern: (problem: string) =>
    new AppError(400, 'moderation.unsafe_pattern', `The rule's pattern ${problem}.`, { errors: [{ pointer: '/pattern', in: 'body', detail: problem }] }),
  ruleNotFound: (id: string) => new AppError(404, 'moderation.rule_not_found', `No moderation rule has id ${id}; list them with GET /api/admin/moderation-rules.`),
};
