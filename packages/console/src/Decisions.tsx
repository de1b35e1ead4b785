import { useState, type ReactElement, type ReactNode } from 'react';
import { List, SelectInput, TopToolbar, usePermissions } from 'react-admin';
import { Box, Button, Card, CardContent, CardHeader, Stack, TextField, Typography } from '@mui/material';
import { Problem, useApiAction } from './action';
import { may, type MyAccess } from './access';
import { CardList } from './CardList';
import { Facts } from './RecordForm';
import { label } from './format';

/** One decision on a record of a queue (approve, reject, suspend…): when it applies, who may take it, and its call. */
export interface Decision<T> {
  label: string;
  /** The notice after it: `<name>: <done>`. */
  done: string;
  when: (record: T) => boolean;
  /** The permission it needs (the API decides; without it the button is not shown). */
  permission?: string;
  /** Whether it takes the reason typed on the card: required, sent when typed, or not at all (the API takes none). */
  reason: 'required' | 'optional' | 'none';
  danger?: boolean;
  send: (record: T, reason: string | undefined) => Promise<{ error?: unknown }>;
}

/**
 * A queue of records to decide (Master Angler submissions, events, tournaments, organizers,
 * captains, fishing reports): the API's list filtered by status (in the URL, the queue's own
 * status by default), a card per record with its facts, one reason field, and the decisions that
 * apply to its status and that the caller may take. The API's refusal shows on the card.
 */
export interface Queue<T> {
  title: string;
  statuses: readonly string[];
  defaultStatus?: string;
  filters?: ReactElement[];
  name: (record: T) => string;
  subheader: (record: T) => string;
  facts: (record: T) => Array<readonly [string, ReactNode]>;
  decisions: ReadonlyArray<Decision<T>>;
  reasonLabel?: string;
  empty: string;
  /** More on the card under the decisions (e.g. a form that corrects the record). */
  extra?: (record: T) => ReactNode;
}

export function queueScreen<T extends { id: string }>(queue: Queue<T>) {
  return function QueueScreen() {
    return (
      <List
        title={queue.title}
        filters={[<SelectInput key="status" source="status" label="Status" choices={queue.statuses.map((s) => ({ id: s, name: label(s) }))} alwaysOn />, ...(queue.filters ?? [])]}
        filterDefaultValues={queue.defaultStatus ? { status: queue.defaultStatus } : {}}
        perPage={10}
        exporter={false}
        actions={<TopToolbar />}
        empty={<Typography sx={{ p: 3 }}>{queue.empty}</Typography>}
      >
        <CardList<T> label={queue.title} card={(record) => <DecisionCard queue={queue} record={record} />} />
      </List>
    );
  };
}

function DecisionCard<T extends { id: string }>({ queue, record }: { queue: Queue<T>; record: T }) {
  const { permissions: access } = usePermissions<MyAccess>();
  const { busy, problem, run } = useApiAction();
  const [reason, setReason] = useState('');
  const name = queue.name(record);
  const decisions = queue.decisions.filter((d) => d.when(record) && (d.permission === undefined || may(access, d.permission)));
  const typed = reason.trim() === '' ? undefined : reason;
  return (
    <Card component="article" aria-label={name} variant="outlined">
      <CardHeader title={name} slotProps={{ title: { component: 'h2', variant: 'h6' } }} subheader={queue.subheader(record)} />
      <CardContent>
        <Facts label={`About ${name}`} facts={queue.facts(record)} />
        {decisions.length > 0 ? (
          <Box component="form" aria-label={`Decide ${name}`} sx={{ mt: 2 }} onSubmit={(e) => e.preventDefault()}>
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
              {decisions.some((d) => d.reason !== 'none') ? (
                <TextField fullWidth={false} size="small" label={queue.reasonLabel ?? 'Reason'} value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 320 }} />
              ) : null}
              {decisions.map((d) => (
                <Button
                  key={d.label}
                  variant={d.danger ? 'outlined' : 'contained'}
                  color={d.danger ? 'error' : 'primary'}
                  disabled={busy || (d.reason === 'required' && typed === undefined)}
                  aria-label={`${d.label} ${name}`}
                  onClick={() => void run(() => d.send(record, d.reason === 'none' ? undefined : typed), `${name}: ${d.done}`).then((ok) => ok && setReason(''))}
                >
                  {d.label}
                </Button>
              ))}
            </Stack>
            <Problem text={problem} sx={{ mt: 1 }} />
          </Box>
        ) : null}
        {queue.extra?.(record)}
      </CardContent>
    </Card>
  );
}

/** A reason body when one was typed (an optional reason), else an empty body. */
export const reasonBody = (reason: string | undefined) => (reason === undefined ? {} : { reason });
