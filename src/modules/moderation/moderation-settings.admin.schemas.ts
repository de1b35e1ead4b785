import { Type } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { PROVIDER_NAMES } from './providers/index.js';

const Category = Type.String({ pattern: '^[a-z][a-z0-9/_-]{0,63}$' });
const Probability = Type.Number({ minimum: 0, maximum: 1 });
const Money = Type.Number({ minimum: 0, maximum: 1_000_000_000 });

const Thresholds = Type.Record(Category, Probability, {
  additionalProperties: false,
  maxProperties: 50,
  description: 'Score (0..1) from which a category counts as flagged, per category (e.g. { "harassment": 0.4 }); categories not listed follow the provider',
  examples: [{ harassment: 0.4, spam: 0.8 }],
});

const ProviderName = Type.Union(PROVIDER_NAMES.map((n) => Type.Literal(n)), { description: 'Which provider rates content: the provider’s identifier (a name such as local or openai, not a vocabulary value, so it keeps its own lower-case spelling)' });

export const ModerationSettingsView = Type.Object(
  {
    provider: ProviderName,
    providers: Type.Array(
      Type.Object({ name: Type.String(), description: Type.String(), remote: Type.Boolean(), defaultModel: Type.String() }, { additionalProperties: false }),
      { description: 'The providers that can be selected' },
    ),
    model: Type.Union([Type.String(), Type.Null()], { description: "Model asked for; null: the provider's default" }),
    baseUrl: Type.Union([Type.String(), Type.Null()], { description: "Base URL of a remote provider; null: the provider's default" }),
    apiKeySet: Type.Boolean({ description: 'Whether an API key is stored (the key itself is never returned)' }),
    thresholds: Thresholds,
    autoRejectThreshold: Type.Union([Probability, Type.Null()], { description: 'A score at or above it in any category rejects outright; null: never automatically' }),
    monthlyBudgetUsd: Type.Union([Money, Type.Null()], { description: 'Spending limit of remote providers per calendar month (UTC); beyond it the local provider is used. null: no limit' }),
    costPerCallUsd: Money,
    timeoutMs: Type.Integer({ description: 'How long a provider call may take before the content is held for review' }),
    updatedAt: Type.Union([Timestamp, Type.Null()]),
    updatedBy: Type.Union([Uuid, Type.Null()]),
    dashboard: Type.Object(
      {
        month: Type.String({ description: 'Calendar month (UTC), YYYY-MM' }),
        calls: Type.Integer(),
        flagged: Type.Integer(),
        failed: Type.Integer({ description: 'Calls that failed or timed out' }),
        flagRate: Type.Number({ description: 'flagged / calls' }),
        costUsd: Type.Number(),
        averageLatencyMs: Type.Integer(),
        budgetUsd: Type.Union([Type.Number(), Type.Null()]),
        budgetRemainingUsd: Type.Union([Type.Number(), Type.Null()]),
        budgetExceeded: Type.Boolean(),
        pendingReview: Type.Integer({ description: 'Items waiting in the review queue' }),
        byProvider: Type.Array(
          Type.Object(
            {
              provider: Type.String(),
              model: Type.String(),
              calls: Type.Integer(),
              flagged: Type.Integer(),
              failed: Type.Integer(),
              costUsd: Type.Number(),
              averageLatencyMs: Type.Integer(),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false, description: 'This month so far' },
    ),
  },
  { additionalProperties: false, $id: 'ModerationSettings' },
);

export const ModerationSettingsBody = Type.Object(
  {
    provider: Type.Optional(ProviderName),
    model: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }), { description: "null: the provider's default" })),
    baseUrl: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 500 }), { description: "API root of a remote provider, https, e.g. https://api.openai.com/v1; null: the provider's default. Changing it drops the stored API key unless apiKey is sent too." })),
    apiKey: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 500 }), { description: 'Write-only: stored, never returned. null removes it. Dropped when provider or baseUrl changes without it.', writeOnly: true })),
    thresholds: Type.Optional(Thresholds),
    autoRejectThreshold: Type.Optional(Nullable(Probability, { description: 'null: never reject automatically' })),
    monthlyBudgetUsd: Type.Optional(Nullable(Money, { description: 'null: no limit' })),
    costPerCallUsd: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 60_000 })),
  },
  { additionalProperties: false, minProperties: 1, description: 'Fields to change; omitted ones keep their value, null clears a nullable one.' },
);
