import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.js';

/**
 * Typo-tolerant name search with pg_trgm (extension created by migration 0004). A module keeps a
 * lower-cased `search_text` (or indexes `lower(name)`) with a GIN `gin_trgm_ops` index and matches
 * it with `trigramMatch`, ordering with `trigramRank`, inside `withSearchThreshold`.
 */

type Expr = AnyPgColumn | SQL;

/** A search query as matched: trimmed, lower-cased, inner spaces collapsed. */
export function normaliseQuery(q: string): string {
  return q.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Escapes LIKE wildcards, so that "50%" or "a_b" match literally. */
export function likeEscape(q: string): string {
  return q.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `text` contains `q`, or one of its word extents is similar to `q` (`<%`, GIN-indexable). */
export function trigramMatch(text: Expr, q: string): SQL {
  return sql`(${text} LIKE ${`%${likeEscape(q)}%`} OR ${q} <% ${text})`;
}

/** Best matches first: exact name, name prefix, in the name, in another name, then by word similarity. */
export function trigramRank(name: Expr, text: Expr, q: string): SQL[] {
  const contains = `%${likeEscape(q)}%`;
  return [
    sql`CASE WHEN lower(${name}) = ${q} THEN 0 WHEN lower(${name}) LIKE ${`${likeEscape(q)}%`} THEN 1 WHEN lower(${name}) LIKE ${contains} THEN 2 WHEN ${text} LIKE ${contains} THEN 3 ELSE 4 END`,
    sql`word_similarity(${q}, ${text}) DESC`,
  ];
}

/**
 * Word-similarity threshold of the searches: 0.5 instead of pg_trgm's 0.6 finds one or two wrong
 * letters in a short word ("walley", "blugill", "muskelunge") without flooding the results.
 */
export const SEARCH_THRESHOLD = 0.5;

/** Runs `fn` in a transaction whose `<%` uses SEARCH_THRESHOLD. */
export async function withSearchThreshold<T>(db: DbOrTx, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(SEARCH_THRESHOLD)}, true)`);
    return fn(tx);
  });
}
