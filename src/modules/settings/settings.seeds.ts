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
    name: 'EmailSmtpEnabled',
    type: 'Bool',
    category: 'Email',
    value: false,
    description: 'Send e-mail through the SMTP server; false: keep it in the local mailbox (`fishlog mail list`)',
  },
  { name: 'EmailSmtpPort', type: 'Int', category: 'Email', value: 587, description: 'Port of the SMTP server', constraints: { minimum: 1, maximum: 65535 } },
  { name: 'EmailSmtpUser', type: 'String', category: 'Email', value: null, description: 'SMTP user name (unset: no authentication)', constraints: { maxLength: 320 } },
  {
    name: 'EmailSmtpPassword',
    type: 'String',
    category: 'Email',
    value: null,
    isSensitive: true,
    description: 'SMTP password (stored encrypted, never shown)',
    constraints: { maxLength: 500 },
  },
  {
    name: 'EmailSmtpTls',
    type: 'Bool',
    category: 'Email',
    value: false,
    description: 'true: TLS from the first byte (usually port 465); false: STARTTLS when the server offers it (port 587)',
  },
  { name: 'EmailFrom', type: 'String', category: 'Email', value: 'Fishlog <no-reply@fishlog.invalid>', description: 'Sender of e-mail (From)', constraints: { maxLength: 320 } },
  {
    name: 'PublicBaseUrl',
    type: 'String',
    category: 'General',
    value: 'http://localhost:3000',
    description: 'Where the API is reached from outside: the links in e-mails start with it',
    constraints: { maxLength: 500 },
  },
  {
    name: 'AccountDeletionGraceDays',
    type: 'Int',
    category: 'General',
    value: 30,
    description: 'Days between an angler asking to delete their account and its erasure; they may cancel meanwhile',
    constraints: { minimum: 0, maximum: 365 },
  },
  {
    name: 'SyncTombstoneRetentionDays',
    type: 'Int',
    category: 'General',
    value: 90,
    description: 'Days deletions are kept for offline apps to pull; a device that last synced before that re-syncs fully',
    constraints: { minimum: 1, maximum: 3650 },
  },
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
  version: 4,
  description: 'Built-in system settings with their defaults',
  async run({ tx }) {
    await tx.insert(systemSettings).values(DEFAULT_SETTINGS).onConflictDoNothing({ target: systemSettings.name });
  },
};
