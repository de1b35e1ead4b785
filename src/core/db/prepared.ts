import { getTableColumns, is, Placeholder, sql, type SQL } from 'drizzle-orm';
import { CasingCache } from 'drizzle-orm/casing';
import { PgDialect, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { CASING } from './casing.js';
import type { DbOrTx } from './client.js';

/**
 * A placeholder standing in for a value of type T inside SQL builders that take values (visibility
 * branches, keyset conditions): in a `sql` template it becomes the statement's parameter `name`.
 */
export function placeholder<T = string>(name: string): T {
  return sql.placeholder(name) as unknown as T;
}

/** `column = ANY($name::uuid[])`: one statement for any number of ids (an IN list would change the text). */
export function anyUuid(column: AnyPgColumn, name: string): SQL {
  return sql`${column} = ANY(${sql.placeholder(name)}::uuid[])`;
}

/** What runs a named statement: the pool (a `db`) or the transaction's connection (a `tx`). */
interface Queryable {
  query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>>;
}

/**
 * The pg client behind a Drizzle handle. A handle's session (`_.session`, public) holds it: the
 * pool for a `db` (the same as `db.$client`), the checked-out connection for a transaction and
 * its savepoints (node-postgres session.js: `transaction()` gives the new session the client it
 * connected). The field is private in Drizzle's types, hence the check.
 */
export function clientOf(db: DbOrTx): Queryable {
  const client = (db._.session as unknown as { client?: Partial<Queryable> }).client;
  if (typeof client?.query !== 'function') throw new Error('named statements need a node-postgres Drizzle handle');
  return client as Queryable;
}

const dialect = new PgDialect({ casing: CASING });
const statementNames = new Set<string>();

/** A statement built once per process, run by name (see `namedStatement`). */
export interface NamedStatement<R, P extends Record<string, unknown>> {
  readonly name: string;
  /** Its rows, as pg returns them, on the handle's connection (the transaction's for a `tx`). */
  rows(db: DbOrTx, params: P): Promise<R[]>;
  /** Its first row, or undefined. */
  first(db: DbOrTx, params: P): Promise<R | undefined>;
}

/**
 * A statement of a hot write path (or any statement run in transactions): its SQL text is built
 * ONCE per process, from a Drizzle `sql` template whose values are `sql.placeholder(name)`s (or
 * constants), and it runs as a named pg statement (`{ name, text, values }`) on whatever handle
 * is given: the pool for a `db`, the transaction's own connection for a `tx`. PostgreSQL parses
 * it once per connection. Nothing is built per request or per transaction (Drizzle's `.prepare`
 * is kept per handle, so it would be rebuilt for every transaction, and maps every row).
 *
 * Rows come from pg as they are, without Drizzle's mapping: the SQL names each column after the
 * property the code expects (`AS "ownerId"`) and gives it the type Drizzle would have given
 * (`columnsOf` does both for a table's columns). pg returns timestamptz as Date, integer, real and
 * double precision as numbers, arrays and jsonb parsed, but numeric and int8 as strings: cast
 * those to float8 for a number. A name is taken once per process (two texts under one name would
 * clash on a connection); keep the statement and its SQL in the repository that owns the tables.
 */
export function namedStatement<R, P extends Record<string, unknown> = Record<string, never>>(name: string, build: () => SQL): NamedStatement<R, P> {
  if (statementNames.has(name)) throw new Error(`two named statements are called ${name}`);
  statementNames.add(name);
  let built: { text: string; slots: ({ placeholder: string } | { value: unknown })[] } | undefined;
  const config = (params: P): pg.QueryConfig => {
    if (!built) {
      const query = dialect.sqlToQuery(build());
      built = { text: query.sql, slots: query.params.map((value) => (is(value, Placeholder) ? { placeholder: value.name } : { value })) };
    }
    const values = built.slots.map((slot) => {
      if ('value' in slot) return slot.value;
      if (!(slot.placeholder in params)) throw new Error(`statement ${name}: no value for ${slot.placeholder}`);
      return params[slot.placeholder];
    });
    return { name, text: built.text, values };
  };
  const rows = async (db: DbOrTx, params: P) => (await clientOf(db).query<R & pg.QueryResultRow>(config(params))).rows;
  return { name, rows, first: async (db, params) => (await rows(db, params))[0] };
}

/**
 * A family of named statements whose text depends on a variant (e.g. a page size, which is a
 * literal in the SQL, or whether a cursor is given): the statement of a variant is built on its
 * first use, named `name(variant)`.
 */
export function namedStatementVariants<R, P extends Record<string, unknown>, K extends string>(name: (variant: K) => string, build: (variant: K) => SQL): (variant: K) => NamedStatement<R, P> {
  const made = new Map<K, NamedStatement<R, P>>();
  return (variant) => {
    let statement = made.get(variant);
    if (!statement) made.set(variant, (statement = namedStatement<R, P>(name(variant), () => build(variant))));
    return statement;
  };
}

/** A statement over a list of ids (`namedIdsStatement`): its rows for `ids` and the other parameters. */
export interface NamedIdsStatement<R, P extends Record<string, unknown>> {
  rows(db: DbOrTx, params: P & { ids: string[] }): Promise<R[]>;
}

/**
 * A statement over a list of ids, as two named statements: `column = $ids::uuid` for one id,
 * `column = ANY($ids::uuid[])` for several (`build` places the condition `match(column)` gives).
 * PostgreSQL keeps a named statement's generic plan only when it costs no more than planning
 * anew: for `= ANY($1)` that plan assumes ten rows (hash joins, a scan of a small joined table),
 * which for one id costs several times the custom plan, so the one-id case was planned again on
 * every execution (`pg_prepared_statements`: 0 generic plans in 312; 0.25 ms more per execution
 * on the bench's data). With `=` the generic plan is the one-row plan, kept after five runs.
 */
export function namedIdsStatement<R, P extends Record<string, unknown> = Record<never, never>>(name: string, build: (match: (column: AnyPgColumn) => SQL) => SQL): NamedIdsStatement<R, P> {
  const one = namedStatement<R, Record<string, unknown>>(`${name}_one`, () => build((column) => sql`${column} = ${sql.placeholder('ids')}::uuid`));
  const many = namedStatement<R, Record<string, unknown>>(name, () => build((column) => anyUuid(column, 'ids')));
  return {
    rows: (db, params) => (params.ids.length === 1 ? one.rows(db, { ...params, ids: params.ids[0] }) : many.rows(db, params)),
  };
}

/** Column types whose value pg returns as Drizzle maps it (timestamps: with time zone only, see below). */
const AS_PG_RETURNS = new Set(['PgUUID', 'PgText', 'PgVarchar', 'PgChar', 'PgBoolean', 'PgInteger', 'PgSmallInt', 'PgSerial', 'PgSmallSerial', 'PgReal', 'PgDoublePrecision', 'PgJson', 'PgJsonb', 'PgArray', 'PgTimestamp']);
/** Column types Drizzle maps to a number that pg returns as a string. */
const AS_FLOAT8 = new Set(['PgNumericNumber', 'PgBigInt53', 'PgBigSerial53']);

/**
 * All columns of `table` for a named statement's SELECT or RETURNING list, each as
 * `"table"."column" AS "property"`, typed as Drizzle's select gives them (numeric and int8 in
 * number mode cast to float8). A column type pg returns otherwise (timestamp without time zone,
 * dates, numeric as string, bigint) is refused: write its expression by hand.
 */
export function columnsOf(table: PgTable): SQL {
  const parts = Object.entries(getTableColumns(table)).map(([key, column]) => {
    const type = column.columnType;
    const cast = AS_FLOAT8.has(type) ? sql`::float8` : undefined;
    if (!cast && (!AS_PG_RETURNS.has(type) || (type === 'PgTimestamp' && !(column as unknown as { withTimezone: boolean }).withTimezone))) {
      throw new Error(`columnsOf: column ${key} (${type}) is not returned by pg as Drizzle maps it`);
    }
    return sql`${column}${cast} AS ${sql.identifier(key)}`;
  });
  return sql.join(parts, sql`, `);
}

const casing = new CasingCache(CASING);

/**
 * `("col_a", "col_b", …)` and the matching `$a, $b, …` (each value the placeholder named after
 * the property) for a named statement's INSERT: `INSERT INTO t ${columns} VALUES (${values})` or
 * `… SELECT ${values} FROM …`. The properties are given as `{ key: true, … }` (at the call site,
 * `satisfies Record<keyof Values, true>` checks that none is left out). Values go to pg as given (a Date, a number, a JS array for an SQL
 * array); what is absent from the parameters is an error, not the column's default.
 */
export function insertOf<T extends PgTable>(
  table: T,
  given: { [K in keyof T['$inferInsert'] & string]?: true },
  /** Values given as an expression instead of their placeholder (e.g. a default read in the statement). */
  expressions: { [K in keyof T['$inferInsert'] & string]?: SQL } = {},
): { columns: SQL; values: SQL } {
  const columns = getTableColumns(table);
  const keys = Object.keys(given);
  return {
    columns: sql`(${sql.join(keys.map((key) => sql.identifier(casing.getColumnCasing(columns[key]!))), sql`, `)})`,
    values: sql.join(keys.map((key) => (expressions as Record<string, SQL | undefined>)[key] ?? sql.placeholder(key)), sql`, `),
  };
}
