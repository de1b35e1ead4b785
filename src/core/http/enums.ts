import { Type } from 'typebox';

/**
 * One spelling of enum values across the API: PascalCase. A vocabulary that was answered in another
 * spelling (`imperial`, `pending-incoming`) keeps accepting it, and answers the new one.
 * The database and the services keep their stored values; the mapping is at the API's edge.
 */

/** `pending-incoming` → `PendingIncoming`, `imperial` → `Imperial`, `new_best` → `NewBest`. */
export function pascalCase(value: string): string {
  return value
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

export interface PascalEnum<Stored extends string> {
  /** The values the API answers (PascalCase). */
  readonly values: readonly string[];
  /** Response schema: the PascalCase values only. */
  readonly output: ReturnType<typeof Type.Union>;
  /** Request schema: the PascalCase values, and the old spelling of each (deprecated). */
  readonly input: ReturnType<typeof Type.Union>;
  /** A value as the API answers it. */
  toApi(stored: Stored): string;
  /** A value as sent (either spelling) → the stored value. */
  fromApi(sent: string): Stored;
}

export function pascalEnum<Stored extends string>(stored: readonly Stored[], description: string): PascalEnum<Stored> {
  const values = stored.map(pascalCase);
  const legacy = stored.filter((value, i) => value !== values[i]);
  const toStored = new Map<string, Stored>();
  stored.forEach((value, i) => {
    toStored.set(value, value);
    toStored.set(values[i]!, value);
  });
  const output = Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );
  const input = Type.Union(
    [...values, ...legacy].map((v) => Type.Literal(v)),
    { description: legacy.length ? `${description} The older spellings ${legacy.join(', ')} are still accepted (deprecated).` : description },
  );
  return {
    values,
    output,
    input,
    toApi: (value) => pascalCase(value),
    fromApi: (sent) => {
      const value = toStored.get(sent);
      if (value === undefined) throw new Error(`not a value of this enum: ${sent}`);
      return value;
    },
  };
}
