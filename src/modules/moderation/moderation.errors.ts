import { AppError } from '../../core/http/problem.js';
import { PROVIDER_NAMES } from './providers/index.js';

export const ModerationErrors = {
  unknownProvider: (name: string) =>
    new AppError(400, 'moderation.unknown_provider', `Unknown moderation provider "${name}". Valid providers: ${PROVIDER_NAMES.join(', ')}.`, {
      errors: [{ pointer: '/provider', in: 'body', detail: `must be one of ${PROVIDER_NAMES.join(', ')}` }],
    }),
  providerNeeds: (provider: string, field: 'apiKey' | 'baseUrl') =>
    new AppError(400, 'moderation.provider_setting_missing', `The ${provider} provider needs ${field}; send it in the same request (it is kept for later ones, until the provider or the base URL changes).`, {
      errors: [{ pointer: `/${field}`, in: 'body', detail: `is required by the ${provider} provider` }],
    }),
  /** Changing where calls go dropped the stored key and the provider cannot do without one. */
  apiKeyNeededAgain: (provider: string, changed: 'baseUrl' | 'provider') =>
    new AppError(
      400,
      'moderation.provider_setting_missing',
      `Changing ${changed} drops the stored API key, so that a key is only ever sent to the endpoint it was given for; the ${provider} provider needs one: send apiKey in the same request.`,
      { errors: [{ pointer: '/apiKey', in: 'body', detail: `is required by the ${provider} provider, and changing ${changed} drops the stored one` }] },
    ),
  badBaseUrl: () =>
    new AppError(400, 'moderation.invalid_base_url', 'baseUrl must be an https URL without credentials, query or fragment, e.g. https://api.openai.com/v1.', {
      errors: [{ pointer: '/baseUrl', in: 'body', detail: 'must be an https URL without credentials, query or fragment' }],
    }),
  insecureBaseUrl: () =>
    new AppError(
      400,
      'moderation.insecure_base_url',
      'baseUrl must use https: every call carries the API key. Use the https address of the endpoint (a server operator can allow http for a local test endpoint with FISHLOG_MODERATION_ALLOW_HTTP=true).',
      { errors: [{ pointer: '/baseUrl', in: 'body', detail: 'must use https' }] },
    ),
  /** Reactivating a rule whose stored pattern RE2 cannot compile (written before rules took RE2 syntax). */
  rulePatternUnsupported: (id: string, problem: string) =>
    new AppError(
      409,
      'moderation.rule_pattern_unsupported',
      `Rule ${id} cannot run: its pattern ${problem}. Change the pattern with PUT /api/admin/moderation-rules/${id} (send isActive: true in the same request to reactivate it).`,
    ),
  ruleNotFound: (id: string) => new AppError(404, 'moderation.rule_not_found', `No moderation rule has id ${id}; list them with GET /api/admin/moderation-rules.`),
  ruleAlreadyInactive: (id: string) => new AppError(409, 'moderation.rule_already_inactive', `Rule ${id} is already deactivated; reactivate it with POST /api/admin/moderation-rules/${id}/reactivate.`),
  ruleAlreadyActive: (id: string) => new AppError(409, 'moderation.rule_already_active', `Rule ${id} is active; nothing to reactivate.`),
};
