import { useEffect, useState, type ReactNode } from 'react';
import { useNotify, useRefresh } from 'react-admin';
import { Alert, Box, Button, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography, type SxProps } from '@mui/material';
import { problemText } from './api';

/**
 * One API call a person starts from a screen (approve, ban, refund…): `busy` while it runs, the
 * API's problem text (title, detail, request id) or the network failure when it fails — the form
 * keeps what was typed — and on success a notice and a refresh of the screen's data.
 */
export function useApiAction() {
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  async function run(call: () => Promise<{ error?: unknown }>, success: string): Promise<boolean> {
    setBusy(true);
    setProblem(undefined);
    try {
      const { error } = await call();
      if (error) {
        setProblem(problemText(error));
        return false;
      }
    } catch (error) {
      setProblem(problemText(error));
      return false;
    } finally {
      setBusy(false);
    }
    notify(success, { type: 'success' });
    refresh();
    return true;
  }
  return { busy, problem, setProblem, run };
}

/** The problem of a failed action, announced to screen readers (role="alert"); nothing when there is none. */
export function Problem({ text, sx }: { text: string | undefined; sx?: SxProps }) {
  return text ? (
    <Alert severity="error" role="alert" sx={sx}>
      {text}
    </Alert>
  ) : null;
}

/**
 * Deactivate or reactivate one record with the reason the audit log keeps (administrative removal
 * is deactivation, never deletion): `submit` makes the call, as the client answers it.
 */
export function ActiveForm({ name, active, submit }: { name: string; active: boolean; submit: (reason: string) => Promise<{ error?: unknown }> }) {
  const { busy, problem, run } = useApiAction();
  const [reason, setReason] = useState('');
  const verb = active ? 'Deactivate' : 'Reactivate';
  async function send() {
    if (await run(() => submit(reason), `${name} ${active ? 'deactivated' : 'reactivated'}`)) setReason('');
  }
  return (
    <Box component="form" aria-label={`${verb} ${name}`} onSubmit={(e) => (e.preventDefault(), void send())}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <TextField fullWidth={false} size="small" label={`Reason to ${verb.toLowerCase()}`} value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 320 }} required />
        <Button type="submit" variant="outlined" color={active ? 'error' : 'primary'} disabled={busy || reason.trim() === ''}>
          {verb}
        </Button>
      </Stack>
      <Problem text={problem} sx={{ mt: 1 }} />
    </Box>
  );
}

/**
 * What one API read answers, for a part of a screen outside react-admin's lists (a history, a
 * summary): the data once it came, or the problem text; read again when `deps` change.
 */
export function useApiRead<T>(read: () => Promise<{ data?: T; error?: unknown }>, deps: readonly unknown[]): { data?: T; problem?: string } {
  const [state, setState] = useState<{ data?: T; problem?: string }>({});
  useEffect(() => {
    let gone = false;
    void read().then(
      ({ data, error }) => !gone && setState(error ? { problem: problemText(error) } : { data: data as T }),
      (error: unknown) => !gone && setState({ problem: problemText(error) }),
    );
    return () => {
      gone = true;
    };
    // The caller names what the read depends on.
  }, deps);
  return state;
}

/** A titled section of a screen holding a small table: its column names, then a row of cells per item. */
export function TableSection({ label, columns, rows }: { label: string; columns: readonly string[]; rows: ReadonlyArray<{ key: string; cells: ReactNode[] }> }) {
  return (
    <Box component="section" aria-label={label}>
      <Typography component="h2" variant="h6">
        {label}
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c}>{c}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.key}>
              {row.cells.map((cell, i) => (
                <TableCell key={columns[i] ?? i}>{cell}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
