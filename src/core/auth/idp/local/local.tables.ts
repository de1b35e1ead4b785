import { sql } from 'drizzle-orm';
import { boolean, index, pgSchema, text, timestamp, uniqueIndex, uuid, jsonb } from 'drizzle-orm/pg-core';
import { timestamps } from '../../../db/columns.js';

/** The embedded identity provider's user pool, shaped like a Cognito user pool (schema `idp`). */
export const idp = pgSchema('idp');

export const idpUsers = idp.table(
  'users',
  {
    sub: uuid().primaryKey(),
    username: text().notNull(),
    email: text().notNull(),
    emailVerified: boolean().notNull().default(true),
    passwordHash: text().notNull(),
    status: text({ enum: ['UNCONFIRMED', 'CONFIRMED'] }).notNull(),
    enabled: boolean().notNull().default(true),
    /** Tokens issued before this instant are refused (set by a password change or reset). */
    passwordChangedAt: timestamp({ withTimezone: true }),
    ...timestamps(),
  },
  (t) => [uniqueIndex('idp_users_username_lower_key').on(sql`lower(${t.username})`)],
);

/** RS256 signing keys. The newest key not retired signs; every key verifies until it is pruned. */
export const signingKeys = idp.table('signing_keys', {
  kid: text().primaryKey(),
  algorithm: text().notNull().default('RS256'),
  /** PKCS#8 PEM, or `enc:v1:<iv>:<tag>:<ciphertext>` when FISHLOG_IDP_KEY_SECRET is set. */
  privateKey: text().notNull(),
  publicJwk: jsonb().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  retiredAt: timestamp({ withTimezone: true }),
});

/** Opaque refresh tokens, stored as SHA-256 hashes, rotated on use within a family. */
export const refreshTokens = idp.table(
  'refresh_tokens',
  {
    id: uuid().primaryKey(),
    familyId: uuid().notNull(),
    sub: uuid()
      .notNull()
      .references(() => idpUsers.sub, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    authTime: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    /**
     * The token set answered on first use, sealed with a key derived from this refresh token
     * (which only its holder has): a concurrent retry within the grace window gets the same set.
     */
    successorSealed: text(),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash), index('refresh_tokens_family_idx').on(t.familyId), index('refresh_tokens_sub_idx').on(t.sub)],
);
