import { ProviderError, type ModerationInput, type ModerationProvider, type ModerationResult, type ProviderDefinition, type ProviderSettings } from './types.js';

/**
 * An OpenAI-compatible moderation endpoint: `POST {baseUrl}/moderations` (baseUrl is the API
 * root, e.g. https://api.openai.com/v1; a root without `/v1` gets it added) with
 * `{ model, input }`, answered by `{ model, results: [{ flagged, categories, category_scores }] }`.
 * Images go as `image_url` parts of a multi-modal input. Cost per call comes from the settings.
 */

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_MODEL = 'omni-moderation-latest';

export function moderationsUrl(baseUrl: string): string {
  const root = baseUrl.replace(/\/+$/, '');
  return /\/v\d+$/.test(root) ? `${root}/moderations` : `${root}/v1/moderations`;
}

interface OpenAiResult {
  flagged?: unknown;
  categories?: unknown;
  category_scores?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parse(body: unknown): { model: string | undefined; results: OpenAiResult[] } {
  if (!isRecord(body) || !Array.isArray(body.results) || body.results.length === 0) {
    throw new ProviderError('the provider answered without a `results` array');
  }
  for (const result of body.results) {
    if (!isRecord(result) || typeof result.flagged !== 'boolean' || !isRecord(result.categories) || !isRecord(result.category_scores)) {
      throw new ProviderError('the provider answered a result without `flagged`, `categories` and `category_scores`');
    }
  }
  return { model: typeof body.model === 'string' ? body.model : undefined, results: body.results as OpenAiResult[] };
}

function requestInput(input: ModerationInput): unknown {
  if (input.imageUrls.length === 0) return input.text;
  return [{ type: 'text', text: input.text }, ...input.imageUrls.map((url) => ({ type: 'image_url', image_url: { url } }))];
}

export function createOpenAiProvider(settings: ProviderSettings): ModerationProvider {
  const model = settings.model ?? DEFAULT_MODEL;
  const url = moderationsUrl(settings.baseUrl ?? DEFAULT_BASE_URL);
  const apiKey = settings.apiKey ?? '';
  const hideKey = (text: string) => (apiKey ? text.split(apiKey).join('[redacted]') : text);
  return {
    name: 'openai',
    model,
    async moderate(input, { signal }): Promise<ModerationResult> {
      const started = performance.now();
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify({ model, input: requestInput(input) }),
        signal,
        redirect: 'error',
      });
      const text = await response.text();
      if (!response.ok) {
        let message = '';
        try {
          const parsed: unknown = JSON.parse(text);
          if (isRecord(parsed) && isRecord(parsed.error) && typeof parsed.error.message === 'string') message = parsed.error.message;
        } catch {
          message = '';
        }
        throw new ProviderError(hideKey(`HTTP ${response.status}${message ? `: ${message.slice(0, 200)}` : ''}`));
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ProviderError('the provider answered a body that is not JSON');
      }
      const parsed = parse(body);
      const scores: Record<string, number> = {};
      const categories = new Set<string>();
      let flagged = false;
      for (const result of parsed.results) {
        flagged ||= result.flagged === true;
        for (const [category, on] of Object.entries(result.categories as Record<string, unknown>)) if (on === true) categories.add(category);
        for (const [category, score] of Object.entries(result.category_scores as Record<string, unknown>)) {
          if (typeof score === 'number' && Number.isFinite(score)) scores[category] = Math.max(scores[category] ?? 0, Math.min(1, Math.max(0, score)));
        }
      }
      return {
        flagged,
        categories: [...categories],
        scores,
        provider: 'openai',
        model: parsed.model ?? model,
        costUsd: settings.costPerCallUsd,
        latencyMs: Math.round(performance.now() - started),
      };
    },
  };
}

export const openAiProvider: ProviderDefinition = {
  name: 'openai',
  description: 'OpenAI-compatible /v1/moderations endpoint over HTTP (base URL, model and API key from the settings)',
  remote: true,
  defaultModel: DEFAULT_MODEL,
  defaultBaseUrl: DEFAULT_BASE_URL,
  requires: ['apiKey'],
  create: createOpenAiProvider,
};
