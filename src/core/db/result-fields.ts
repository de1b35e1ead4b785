import { createRequire } from 'node:module';
import pg from 'pg';

/**
 * node-postgres, on every result's column list (`Result.addFields`, each execution of every
 * statement, named ones included), builds an empty row with one key per column: the template its
 * object rows are copied from. Built key by key on a prototype-less object and then copied, it
 * cost 8.4 µs for a 35-column result on this machine (the parsers beside it 0.8 µs): 3% of the
 * service's CPU samples under the write bench, and it is built in `rowMode: 'array'` too, where
 * no row uses it (Drizzle's selects). Upstream: brianc/node-postgres#3055.
 *
 * `shareRowTemplates` keeps pg's behaviour and skips that work: in array mode there is no
 * template; in object mode the template of a column list is built once and shared (rows are
 * spread copies of it, never the template itself). pg's own `addFields` is kept for what this
 * does not know (a Result without the fields this relies on).
 */
type Field = { name: string; dataTypeID: number; format?: string };
type Types = { getTypeParser(oid: number, format: string): (value: string) => unknown };
interface ResultState {
  fields: Field[];
  _parsers: unknown[] | undefined;
  _types: Types | undefined;
  rowAsArray: boolean;
  _prebuiltEmptyResultObject: Record<string, null> | null;
}

/** Templates by their column names (a column name cannot contain NUL); cleared when this many. */
const MAX_TEMPLATES = 1000;
const templates = new Map<string, Record<string, null>>();

function templateOf(fields: Field[]): Record<string, null> {
  let key = '';
  for (let i = 0; i < fields.length; i++) key += `${fields[i]!.name}\u0000`;
  let template = templates.get(key);
  if (template === undefined) {
    // As pg builds it: a prototype-less object (a column may be called `__proto__`), then copied.
    const row = Object.create(null) as Record<string, null>;
    for (const field of fields) row[field.name] = null;
    template = { ...row };
    if (templates.size >= MAX_TEMPLATES) templates.clear();
    templates.set(key, template);
  }
  return template;
}

let installed = false;

export function shareRowTemplates(): void {
  if (installed) return;
  // pg's Result class (the one its clients use: `pg` and `pg/lib/result.js` are one module instance).
  const Result = createRequire(import.meta.url)('pg/lib/result.js') as { prototype: { addFields(this: ResultState, fields: Field[]): void } };
  const prototype = Result.prototype;
  const original = prototype.addFields;
  prototype.addFields = function addFields(this: ResultState, fieldDescriptions: Field[]) {
    // pg's default parsers when the query gave none (`pg.types` is the pg-types its Result reads).
    const types = this._types ?? (pg.types as unknown as Types);
    if (typeof this.rowAsArray !== 'boolean') return original.call(this, fieldDescriptions);
    this.fields = fieldDescriptions;
    if (fieldDescriptions.length) this._parsers = new Array(fieldDescriptions.length);
    for (let i = 0; i < fieldDescriptions.length; i++) {
      const desc = fieldDescriptions[i]!;
      this._parsers![i] = types.getTypeParser(desc.dataTypeID, desc.format || 'text');
    }
    this._prebuiltEmptyResultObject = this.rowAsArray ? null : templateOf(fieldDescriptions);
  };
  installed = true;
}
