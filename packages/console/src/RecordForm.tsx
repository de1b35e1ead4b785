import { useEffect, useState, type ReactNode } from 'react';
import { Autocomplete, Box, Button, Checkbox, FormControlLabel, FormGroup, FormLabel, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { Problem, useApiAction } from './action';

/**
 * One field of a record's form, as the API's body names it. `kind` says how it is typed and sent:
 * text (empty: null), long text, JSON (e.g. a GeoJSON geometry), number, a day (YYYY-MM-DD), one of `choices`, several of `choices`, a list typed with
 * commas, yes/no/unknown, or one record or several picked by searching (`search`; the ids are sent).
 */
export interface Field {
  source: string;
  label: string;
  kind?: 'text' | 'long' | 'json' | 'number' | 'date' | 'select' | 'multi' | 'list' | 'yesno' | 'pick' | 'picks' | 'rows';
  choices?: readonly string[];
  /** Required when the record is made (the API's required fields). */
  required?: boolean;
  /** Only when the record is made (the API never changes it), or only when it is changed. */
  only?: 'create' | 'edit';
  /** The record's value for the form (default: `record[source]`). A dotted source (`overrides.closed`) is sent as a field of an object. */
  read?: (record: Record<string, unknown>) => unknown;
  /** For `pick` and `picks`: the records matching what was typed, as options. */
  search?: (text: string) => Promise<Option[]>;
  /** For `picks`: the names of the record's picked ids (`read` gives the ids). */
  labels?: (record: Record<string, unknown>) => Option[];
  /**
   * For `rows`: a list of objects typed as rows of these fields (e.g. a program's species and their
   * minimums), sent whole; `read` gives the objects, a pick's name under `<source>:label`. `row`
   * names one row ("Species minimum"), `add` its button.
   */
  columns?: readonly Field[];
  row?: string;
  /** For `rows`: fields of each object the form does not show but sends back as they were (a replaced list keeps them). */
  keep?: readonly string[];
}

export interface Option {
  id: string;
  label: string;
}

type Input = string | string[];

/** A row of a `rows` field as typed: each column's text, and a pick's name under `<source>:label`. */
type RowInput = Record<string, string>;

function toInput(field: Field, value: unknown): Input {
  if (field.kind === 'rows') {
    const rows = Array.isArray(value) ? (value as Array<Record<string, unknown>>) : [];
    return JSON.stringify(
      rows.map((row) =>
        Object.fromEntries([
          ...(field.columns ?? []).flatMap((c) => [[c.source, toInput(c, row[c.source]) as string], ...(c.kind === 'pick' ? [[`${c.source}:label`, String(row[`${c.source}:label`] ?? '')]] : [])]),
          ...(field.keep ?? []).map((k) => [`keep:${k}`, JSON.stringify(row[k] ?? null)]),
        ]),
      ),
    );
  }
  if (field.kind === 'multi' || field.kind === 'picks') return Array.isArray(value) ? value.map(String) : [];
  if (value === null || value === undefined) return '';
  if (field.kind === 'list' && Array.isArray(value)) return value.join(', ');
  if (field.kind === 'yesno') return value ? 'yes' : 'no';
  if (field.kind === 'json') return JSON.stringify(value, null, 2);
  return String(value);
}

/** The value the API takes for what was typed: '' is null (cleared, or left out of a new record). */
function fromInput(field: Field, input: Input): unknown {
  if (Array.isArray(input)) return input;
  if (field.kind === 'rows') {
    // Each row's columns as the API takes them (empty ones left out); an empty row is dropped.
    const rows = (JSON.parse(input || '[]') as RowInput[]).map((row) =>
      Object.fromEntries([
        ...(field.columns ?? []).flatMap((c) => {
          const value = fromInput(c, row[c.source] ?? '');
          return value === null ? [] : [[c.source, value]];
        }),
        ...(field.keep ?? []).flatMap((k) => {
          const kept = JSON.parse(row[`keep:${k}`] ?? 'null') as unknown;
          return kept === null ? [] : [[k, kept]];
        }),
      ]),
    );
    return rows.filter((row) => Object.keys(row).length > 0);
  }
  const text = input.trim();
  if (field.kind === 'list') return text === '' ? [] : text.split(',').map((part) => part.trim()).filter(Boolean);
  if (text === '') return null;
  if (field.kind === 'number') return Number(text);
  if (field.kind === 'yesno') return text === 'yes';
  if (field.kind === 'json') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new SyntaxError(`${field.label}: not valid JSON.`);
    }
  }
  return text;
}

/** Sets `source` in `body`; a dotted source (`overrides.closed`) is a field of an object in the body. */
function put(body: Record<string, unknown>, source: string, value: unknown): void {
  const [head, ...rest] = source.split('.');
  if (rest.length === 0) body[head!] = value;
  else put((body[head!] ??= {}) as Record<string, unknown>, rest.join('.'), value);
}

const readValue = (field: Field, record: Record<string, unknown> | undefined) => (record ? (field.read ? field.read(record) : record[field.source]) : undefined);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A record's form: a new one (`record` undefined: every field the API takes, nulls left out) or a
 * change of one (only the fields that changed are sent: a JSON Merge Patch, an emptied field
 * clears it). With `reason`, the reason the audit log keeps goes in the body. What was typed stays
 * when the API refuses it, and its problem text shows under the form.
 */
export function RecordForm({
  label,
  fields,
  record,
  reason,
  submitLabel,
  submit,
  notice,
  done,
}: {
  label: string;
  fields: readonly Field[];
  record?: Record<string, unknown>;
  reason?: 'required' | 'none';
  submitLabel: string;
  submit: (body: Record<string, unknown>) => Promise<{ data?: unknown; error?: unknown }>;
  /** The notice of a success. */
  notice: string;
  /** After a success, with what the API answered (e.g. to open the new record). */
  done?: (data: unknown) => void;
}) {
  const shown = fields.filter((f) => f.only !== (record ? 'create' : 'edit'));
  const initial = () => Object.fromEntries(shown.map((f) => [f.source, toInput(f, readValue(f, record))]));
  const [values, setValues] = useState<Record<string, Input>>(initial);
  const [why, setWhy] = useState('');
  const { busy, problem, setProblem, run } = useApiAction();
  const set = (source: string) => (value: Input) => setValues((v) => ({ ...v, [source]: value }));

  function body(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const f of shown) {
      const value = fromInput(f, values[f.source] ?? '');
      // A new record's rows are sent even when none (the API requires the list).
      if (record ? !same(value, fromInput(f, toInput(f, readValue(f, record)))) : value !== null && !(Array.isArray(value) && value.length === 0 && f.kind !== 'rows')) put(out, f.source, value);
    }
    return out;
  }

  async function save() {
    let changes: Record<string, unknown>;
    try {
      changes = body();
    } catch (error) {
      return setProblem((error as Error).message);
    }
    if (record && Object.keys(changes).length === 0) return setProblem('Nothing changed.');
    let answer: unknown;
    const ok = await run(async () => {
      const result = await submit(reason === 'required' ? { ...changes, reason: why } : changes);
      answer = result.data;
      return result;
    }, notice);
    if (!ok) return;
    setWhy('');
    if (!record) setValues(initial());
    done?.(answer);
  }

  const missing = !record && shown.some((f) => f.required && (values[f.source] ?? '').length === 0);
  return (
    <Box component="form" aria-label={label} onSubmit={(e) => (e.preventDefault(), void save())}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start' }}>
        {shown.map((f) => (
          <FieldInput key={f.source} field={f} value={values[f.source] ?? ''} onChange={set(f.source)} required={!record && f.required === true} known={record ? f.labels?.(record) : undefined} />
        ))}
      </Stack>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mt: 1.5 }}>
        {reason === 'required' ? <TextField fullWidth={false} size="small" label="Reason" value={why} onChange={(e) => setWhy(e.target.value)} sx={{ minWidth: 320 }} required /> : null}
        <Button type="submit" variant="contained" disabled={busy || missing || (reason === 'required' && why.trim() === '')}>
          {submitLabel}
        </Button>
      </Stack>
      <Problem text={problem} sx={{ mt: 1 }} />
    </Box>
  );
}

function FieldInput({ field, value, onChange, required, known }: { field: Field; value: Input; onChange: (value: Input) => void; required: boolean; known: Option[] | undefined }) {
  const common = { size: 'small' as const, fullWidth: false, label: field.label, required };
  switch (field.kind) {
    case 'multi':
      return (
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <FormLabel component="legend" required={required}>
            {field.label}
          </FormLabel>
          <FormGroup row>
            {(field.choices ?? []).map((choice) => (
              <FormControlLabel
                key={choice}
                label={choice}
                control={<Checkbox checked={value.includes(choice)} onChange={(e) => onChange(e.target.checked ? [...(value as string[]), choice] : (value as string[]).filter((c) => c !== choice))} />}
              />
            ))}
          </FormGroup>
        </Box>
      );
    case 'select':
    case 'yesno': {
      const choices = field.kind === 'yesno' ? ['yes', 'no'] : (field.choices ?? []);
      return (
        <TextField {...common} select value={value} onChange={(e) => onChange(e.target.value)} sx={{ minWidth: 180 }}>
          {required ? null : (
            <MenuItem value="">
              <em>none</em>
            </MenuItem>
          )}
          {choices.map((choice) => (
            <MenuItem key={choice} value={choice}>
              {choice}
            </MenuItem>
          ))}
        </TextField>
      );
    }
    case 'pick':
      return <PickInput field={field} value={value as string} onChange={onChange} required={required} />;
    case 'rows':
      return <RowsInput field={field} value={value as string} onChange={onChange} />;
    case 'picks':
      return <PicksInput field={field} value={value as string[]} onChange={onChange} known={known} />;
    default:
      return (
        <TextField
          {...common}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          multiline={field.kind === 'long' || field.kind === 'json'}
          minRows={field.kind === 'long' ? 2 : field.kind === 'json' ? 4 : undefined}
          type={field.kind === 'date' ? 'date' : undefined}
          slotProps={field.kind === 'number' ? { htmlInput: { inputMode: 'decimal' } } : field.kind === 'date' ? { inputLabel: { shrink: true } } : undefined}
          helperText={field.kind === 'list' ? 'Separated by commas' : undefined}
          sx={{ minWidth: field.kind === 'long' ? 420 : field.kind === 'json' ? 640 : field.kind === 'number' ? 140 : 220 }}
        />
      );
  }
}

/** The records matching what was typed in a pick field (asked of the API 200 ms after the last key). */
function useMatches(field: Field, text: string): Option[] {
  const [options, setOptions] = useState<Option[]>([]);
  useEffect(() => {
    let gone = false;
    const timer = setTimeout(() => void field.search?.(text).then((found) => !gone && setOptions(found), () => undefined), 200);
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [field, text]);
  return options;
}

/**
 * A `rows` field: a group per row (its columns' inputs and "Remove"), and a button that adds one.
 * What was typed is kept as the JSON text of the rows (the form's value of the field).
 */
function RowsInput({ field, value, onChange }: { field: Field; value: string; onChange: (value: Input) => void }) {
  const rows = JSON.parse(value || '[]') as RowInput[];
  const save = (next: RowInput[]) => onChange(JSON.stringify(next));
  const change = (i: number, patch: RowInput) => save(rows.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  const noun = field.row ?? 'Row';
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, width: '100%' }}>
      <FormLabel component="legend">{field.label}</FormLabel>
      <Stack spacing={1} sx={{ mt: 1 }}>
        {rows.map((row, i) => (
          <Stack key={i} component="fieldset" aria-label={`${noun} ${i + 1}`} direction="row" sx={{ border: 0, p: 0, m: 0, flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            {(field.columns ?? []).map((c) =>
              c.kind === 'pick' ? (
                <PickInput
                  key={c.source}
                  field={c}
                  value={row[c.source] ?? ''}
                  known={row[`${c.source}:label`]}
                  onChange={(id) => change(i, { [c.source]: id as string })}
                  onPicked={(option) => change(i, { [c.source]: option?.id ?? '', [`${c.source}:label`]: option?.label ?? '' })}
                  required={c.required === true}
                />
              ) : (
                <FieldInput key={c.source} field={c} value={row[c.source] ?? ''} onChange={(v) => change(i, { [c.source]: v as string })} required={c.required === true} known={undefined} />
              ),
            )}
            <Button size="small" color="error" onClick={() => save(rows.filter((_, j) => j !== i))} aria-label={`Remove ${noun.toLowerCase()} ${i + 1}`}>
              Remove
            </Button>
          </Stack>
        ))}
      </Stack>
      <Button size="small" sx={{ mt: 1 }} onClick={() => save([...rows, {}])}>
        Add {noun.toLowerCase()}
      </Button>
    </Box>
  );
}

/** A record chosen by typing part of its name (e.g. a brand): the API searches, the id is sent (with its name, to `onPicked`). */
function PickInput({
  field,
  value,
  onChange,
  required,
  known,
  onPicked,
}: {
  field: Field;
  value: string;
  onChange: (value: Input) => void;
  required: boolean;
  known?: string | undefined;
  onPicked?: (option: Option | null) => void;
}) {
  const [text, setText] = useState('');
  // The option picked keeps its name when the next search (for that name) no longer lists it.
  const [picked, setPicked] = useState<Option | null>(null);
  const options = useMatches(field, text);
  const selected = options.find((o) => o.id === value) ?? (picked?.id === value ? picked : null) ?? (value ? { id: value, label: known || value } : null);
  return (
    <Autocomplete
      options={options}
      value={selected}
      filterOptions={(all) => all}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_, option) => {
        setPicked(option);
        if (onPicked) onPicked(option);
        else onChange(option?.id ?? '');
      }}
      onInputChange={(_, typed) => setText(typed)}
      sx={{ width: 320 }}
      renderInput={(params) => <TextField {...params} size="small" label={field.label} required={required} />}
    />
  );
}

/** Several records chosen by typing part of their names (e.g. a lure's target species): their ids are sent. */
function PicksInput({ field, value, onChange, known }: { field: Field; value: string[]; onChange: (value: Input) => void; known: Option[] | undefined }) {
  const [text, setText] = useState('');
  const [names, setNames] = useState<Record<string, string>>(() => Object.fromEntries((known ?? []).map((o) => [o.id, o.label])));
  const options = useMatches(field, text);
  return (
    <Autocomplete
      multiple
      options={options}
      value={value.map((id) => ({ id, label: names[id] ?? id }))}
      filterOptions={(all) => all}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_, chosen) => {
        setNames((n) => ({ ...n, ...Object.fromEntries(chosen.map((o) => [o.id, o.label])) }));
        onChange(chosen.map((o) => o.id));
      }}
      onInputChange={(_, typed, reason) => reason === 'input' && setText(typed)}
      sx={{ width: 420 }}
      renderInput={(params) => <TextField {...params} size="small" label={field.label} />}
    />
  );
}

/** A record's facts as a definition list: label, then the value ('—' when empty). */
export function Facts({ label, facts }: { label: string; facts: ReadonlyArray<readonly [string, ReactNode]> }) {
  return (
    <Box component="dl" aria-label={label} sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
      {facts.map(([term, value]) => (
        <Box key={term} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {term}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0 }}>
            {value === null || value === undefined || value === '' ? '—' : value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
