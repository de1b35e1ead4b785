import { Type, type TUnsafe } from 'typebox';

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

/** The type of `pascalCase(S)`: `'pending-incoming'` → `'PendingIncoming'` (so a reply that forgets toApi does not type-check). */
export type Pascal<S extends string> = S extends `${infer A}-${infer B}`
  ? `${Capitalize<A>}${Pascal<B>}`
  : S extends `${infer A}_${infer B}`
    ? `${Capitalize<A>}${Pascal<B>}`
    : S extends `${infer A} ${infer B}`
      ? `${Capitalize<A>}${Pascal<B>}`
      : Capitalize<S>;

export interface PascalEnum<Stored extends string> {
  /** The values the API answers (PascalCase). */
  readonly values: readonly Pascal<Stored>[];
  /** Response schema: the PascalCase values only. */
  readonly output: TUnsafe<Pascal<Stored>>;
  /** Request schema: the PascalCase values, and the old spelling of each (deprecated). */
  readonly input: TUnsafe<Pascal<Stored> | Stored>;
  /** A value as the API answers it. */
  toApi(stored: Stored): Pascal<Stored>;
  /** A value as sent (either spelling) → the stored value; an omitted (optional) value stays undefined. */
  fromApi(sent: string): Stored;
  fromApi(sent: string | undefined): Stored | undefined;
}

export function pascalEnum<Stored extends string>(stored: readonly Stored[], description: string): PascalEnum<Stored> {
  const values = stored.map(pascalCase) as Pascal<Stored>[];
  const legacy = stored.filter((value, i) => (value as string) !== values[i]);
  const toStored = new Map<string, Stored>();
  // Answers are looked up, not recomputed (every row of a feed maps several values).
  const toApi = new Map<string, Pascal<Stored>>();
  stored.forEach((value, i) => {
    toStored.set(value, value);
    toStored.set(values[i]!, value);
    toApi.set(value, values[i]!);
  });
  const output = Type.Unsafe<Pascal<Stored>>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      { description },
    ),
  );
  const input = Type.Unsafe<Pascal<Stored> | Stored>(
    Type.Union(
      [...values, ...legacy].map((v) => Type.Literal(v)),
      { description: legacy.length ? `${description} The older spellings ${legacy.join(', ')} are still accepted (deprecated).` : description },
    ),
  );
  return {
    values,
    output,
    input,
    toApi: (value) => toApi.get(value) ?? (pascalCase(value) as Pascal<Stored>),
    fromApi: ((sent: string | undefined) => {
      if (sent === undefined) return undefined;
      const value = toStored.get(sent);
      if (value === undefined) throw new Error(`not a value of this enum: ${sent}`);
      return value;
    }) as PascalEnum<Stored>['fromApi'],
  };
}

/** Reporting periods (dashboard, revenue): Day, Week, Month; `day`, `week`, `month` are still accepted. */
export const IntervalEnum = pascalEnum(['day', 'week', 'month'] as const, 'UTC day, ISO week (from Monday) or month: Day, Week or Month.');
export type Interval = 'day' | 'week' | 'month';

/** Admin list filter of deactivatable records: Active, Inactive or All; `active`, `inactive`, `all` are still accepted. */
export const ActivityFilterEnum = pascalEnum(['active', 'inactive', 'all'] as const, 'Which records to list: Active, Inactive (deactivated) or All.');
