import { Type } from 'typebox';
import { TABLE_NAMES } from './sync.records.js';

/** A raw record of WatermelonDB: `id` and snake_case columns, each a string, number, boolean or null. */
const RawRecord = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'The record’s id (a UUID; made on the device for records created offline)' }) },
  {
    additionalProperties: Type.Union([Type.String({ maxLength: 20_000 }), Type.Number(), Type.Boolean(), Type.Null()]),
    maxProperties: 40,
    description: 'A raw record: `id` and the columns in snake_case (times in milliseconds since the epoch, lists as JSON text)',
  },
);

const TableChanges = Type.Object(
  {
    created: Type.Array(RawRecord, { maxItems: 10_000 }),
    updated: Type.Array(RawRecord, { maxItems: 10_000 }),
    deleted: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 10_000, description: 'Ids of deleted records' }),
  },
  { additionalProperties: false },
);

const CATCH_EXAMPLE = {
  id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
  entry_id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22',
  species_id: '5b0e3b5c-2c4f-5b6e-9a0e-0c5f6d1d2e3f',
  length_cm: 61.5,
  weight_kg: 2.4,
  count: 1,
  released: true,
  caught_at: 1_780_000_000_000,
  bait: null,
  lure: 'Jig',
  lure_item_id: null,
  gear_setup_id: null,
  photo_urls: '[]',
  notes: 'Drop-off at 6 m',
  latitude: 46.2,
  longitude: -93.6,
  version: 1,
  created_at: 1_780_000_000_000,
  updated_at: 1_780_000_000_000,
};

const changesOf = (tables: readonly string[], description: string) =>
  Type.Object(Object.fromEntries(tables.map((name) => [name, Type.Optional(TableChanges)])), { additionalProperties: false, description });

const TABLES_DESCRIPTION =
  'One entry per table: sessions, entries, catches, boats, gear_setups (pushed and pulled); personal_best_criteria, photos (of catches and entries, with their ' +
  'display_url and thumbnail_url), profiles (your own), species, lookup_values, gear_items, brands and friends (id, username, display_name) are pulled only.';

export const PullQuery = Type.Object(
  {
    lastPulledAt: Type.Optional(
      Type.String({
        pattern: '^(null|[1-9][0-9]{0,18})$',
        maxLength: 19,
        description: 'The `timestamp` of your last pull (WatermelonDB passes it); absent or `null` for the first sync',
        examples: ['null', '7391'],
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: 'At most this many records (a first sync in pages); `hasMore` and `next` then tell the rest', examples: [2000] })),
    next: Type.Optional(Type.String({ maxLength: 512, pattern: '^[A-Za-z0-9_-]+$', description: 'The `next` of the previous page of this pull' })),
  },
  { additionalProperties: false },
);

export const PullResult = Type.Object(
  {
    changes: changesOf(TABLE_NAMES, TABLES_DESCRIPTION),
    timestamp: Type.Integer({
      minimum: 1,
      description: 'The cursor to send as lastPulledAt next time: a database transaction id (not a time). Records changed at the cursor may come again; none is skipped.',
    }),
    experimentalStrategy: Type.Optional(
      Type.Literal('replacement', {
        description:
          'Your lastPulledAt is older than the deletions kept (SyncTombstoneRetentionDays, 90 by default): every record is sent, and WatermelonDB deletes the local ones not in it (its replacement sync)',
      }),
    ),
    hasMore: Type.Optional(Type.Boolean({ description: 'A paged pull (`limit`) with more to come: synchronize again, passing `next`' })),
    next: Type.Optional(Type.String({ description: 'Send it as `next` with the following pull (the page after this one)' })),
  },
  {
    additionalProperties: false,
    examples: [{ changes: { catches: { created: [], updated: [CATCH_EXAMPLE], deleted: ['0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d23'] } }, timestamp: 7391 }],
  },
);

export const PushQuery = Type.Object(
  {
    lastPulledAt: Type.Optional(
      Type.String({ pattern: '^[1-9][0-9]{0,18}$', maxLength: 19, description: 'The `timestamp` of the pull before this push (WatermelonDB passes it); informative', examples: ['7391'] }),
    ),
  },
  { additionalProperties: false },
);

export const PushBody = Type.Object(
  { changes: changesOf(TABLE_NAMES, `${TABLES_DESCRIPTION} A pulled-only table must be empty.`) },
  {
    additionalProperties: false,
    examples: [{ changes: { catches: { created: [CATCH_EXAMPLE], updated: [], deleted: [] } } }],
  },
);

export const PushResult = Type.Object(
  {
    created: Type.Integer({ description: 'Records created' }),
    updated: Type.Integer({ description: 'Records changed (a created record that existed already counts here, or not at all when it was the same create again)' }),
    deleted: Type.Integer({ description: 'Records deleted (ones already gone are not counted)' }),
  },
  { additionalProperties: false, examples: [{ created: 4, updated: 1, deleted: 0 }] },
);

