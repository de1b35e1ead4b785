import type { Seed } from '../../core/db/seeds.js';
import { systemSettings } from './settings.tables.js';

type SeedSetting = Omit<typeof systemSettings.$inferInsert, 'id'>;

/**
 * The built-in settings with their defaults. Inserted when missing; a value an operator changed
 * is never overwritten. PaymentProcessorApiKey is sensitive and starts unset (its value can only
 * be set through the API, which encrypts it).
 */
export const DEFAULT_SETTINGS: SeedSetting[] = [
  { name: 'SiteName', type: 'String', category: 'General', value: 'Fishlog', description: 'The name shown to users and in e-mails', constraints: { maxLength: 100 } },
  {
    name: 'MaintenanceMode',
    type: 'Bool',
    category: 'General',
    value: false,
    description: 'When true, everyone but employees gets 503 (Retry-After); /health and /api/auth stay open',
  },
  {
    name: 'MaxFileUploadSize',
    type: 'Int',
    category: 'General',
    value: 10_485_760,
    description: 'Largest photo file in bytes an upload may send (413 beyond); JSON bodies are limited by FISHLOG_BODY_LIMIT',
    constraints: { minimum: 1024, maximum: 104_857_600 },
  },
  {
    name: 'PhotoStorageQuota',
    type: 'Int',
    category: 'General',
    value: 262_144_000,
    description: 'Bytes of stored photos (display size and thumbnail) each user may have (409 beyond)',
    constraints: { minimum: 0, maximum: 1_099_511_627_776 },
  },
  {
    name: 'PaymentProcessorApiKey',
    type: 'String',
    category: 'Integrations',
    value: null,
    isSensitive: true,
    description: 'API key of the payment processor (stored encrypted, never shown)',
    constraints: { maxLength: 500 },
  },
  { name: 'EmailSmtpHost', type: 'String', category: 'Email', value: 'localhost', description: 'SMTP server that sends e-mail', requiresRestart: true, constraints: { maxLength: 253 } },
  {
    name: 'FeatureFlags',
    type: 'Json',
    category: 'Features',
    value: { tournaments: true, charters: true, aiModeration: false },
    description: 'Feature switches: an object of booleans',
    constraints: { jsonSchema: { type: 'object', additionalProperties: { type: 'boolean' }, maxProperties: 100 } },
  },
];

export const settingsSeed: Seed = {
  name: 'settings.defaults',
  version: 2,
  description: 'Built-in system settings with their defaults',
  async run({ tx }) {
    await tx.insert(systemSettings).values(DEFAULT_SETTINGS).onConflictDoNothing({ target: systemSettings.name });
  },
};
