import { useEffect, useState, type FormEvent } from 'react';
import { Title } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { Alert, Box, Button, MenuItem, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import type { components } from '@fishlog/client';
import { usePermissions } from 'react-admin';
import { fishlog, problemText } from '../api';
import { may, type MyAccess } from '../access';

type Entry = components['schemas']['AuditLogEntry'];
type Statistics = components['schemas']['AuditStatistics'];

/** The filters of GET /api/admin/audit-logs the form offers (text fields; `from`/`to` as dates). */
const FIELDS = [
  { name: 'q', label: 'Reason contains (full text)' },
  { name: 'actionPrefix', label: 'Action starts with' },
  { name: 'action', label: 'Action (exact)' },
  { name: 'actorId', label: 'Actor id' },
  { name: 'targetType', label: 'Target type' },
  { name: 'targetId', label: 'Target id' },
] as const;

const toInstant = (day: string | null) => (day ? `${day}T00:00:00.000Z` : undefined);

/**
 * The audit log, newest first, searched with the API's filters; keyset pages (`X-Next-Cursor`):
 * the filters and the cursor live in the URL, so a reload or a shared link shows the same page.
 */
export default function AuditLog() {
  const [params, setParams] = useSearchParams();
  const [entries, setEntries] = useState<Entry[]>();
  const [next, setNext] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const key = params.toString();

  useEffect(() => {
    let live = true;
    const query: Record<string, string | number> = { limit: 25 };
    for (const f of [...FIELDS.map((x) => x.name), 'outcome', 'cursor']) {
      const v = params.get(f);
      if (v) query[f] = v;
    }
    const from = toInstant(params.get('from'));
    const to = toInstant(params.get('to'));
    if (from) query.from = from;
    if (to) query.to = to;
    setProblem(undefined);
    void fishlog.GET('/api/admin/audit-logs', { params: { query: query as never } }).then(({ data, error, response }) => {
      if (!live) return;
      if (error) {
        setEntries([]);
        setProblem(problemText(error));
        return;
      }
      setEntries(data);
      setNext(response.headers.get('x-next-cursor') ?? undefined);
    });
    return () => {
      live = false;
    };
  }, [key]);

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const nextParams = new URLSearchParams();
    for (const [name, value] of form) if (typeof value === 'string' && value.trim() !== '') nextParams.set(name, value.trim());
    setParams(nextParams);
  }

  function page(cursor: string | undefined) {
    const p = new URLSearchParams(params);
    if (cursor) p.set('cursor', cursor);
    else p.delete('cursor');
    setParams(p);
  }

  return (
    <Box sx={{ p: 2 }}>
      <Title title="Audit log" />
      <Typography component="h1" variant="h5" gutterBottom>
        Audit log
      </Typography>
      <Box component="form" key={key} onSubmit={search} role="search" aria-label="Search the audit log" sx={{ mb: 2 }}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {FIELDS.map((f) => (
            <TextField key={f.name} fullWidth={false} sx={{ width: 220 }} size="small" name={f.name} label={f.label} defaultValue={params.get(f.name) ?? ''} />
          ))}
          <TextField fullWidth={false} size="small" select name="outcome" label="Outcome" defaultValue={params.get('outcome') ?? ''} sx={{ minWidth: 140 }}>
            <MenuItem value="">Any</MenuItem>
            <MenuItem value="Success">Success</MenuItem>
            <MenuItem value="Failure">Failure</MenuItem>
          </TextField>
          <TextField fullWidth={false} size="small" type="date" name="from" label="From" defaultValue={params.get('from') ?? ''} slotProps={{ inputLabel: { shrink: true } }} />
          <TextField fullWidth={false} size="small" type="date" name="to" label="Before" defaultValue={params.get('to') ?? ''} slotProps={{ inputLabel: { shrink: true } }} />
          <Button type="submit" variant="contained">
            Search
          </Button>
        </Stack>
      </Box>
      <AuditTools from={toInstant(params.get('from'))} to={toInstant(params.get('to'))} />
      {problem ? (
        <Alert severity="error" role="alert">
          {problem}
        </Alert>
      ) : null}
      {entries === undefined ? (
        <Typography>Loading…</Typography>
      ) : entries.length === 0 ? (
        <Typography>No entry matches.</Typography>
      ) : (
        <Table size="small" aria-label="Audit log entries">
          <TableHead>
            <TableRow>
              <TableCell>Time</TableCell>
              <TableCell>Actor</TableCell>
              <TableCell>Action</TableCell>
              <TableCell>Target</TableCell>
              <TableCell>Reason</TableCell>
              <TableCell>Outcome</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {entries.map((e) => (
              <TableRow key={e.id}>
                <TableCell>{new Date(e.occurredAt).toLocaleString()}</TableCell>
                <TableCell>{e.actorType === 'System' ? 'operator (CLI)' : (e.actorUsername ?? e.actorUserId)}</TableCell>
                <TableCell>{e.action}</TableCell>
                <TableCell>{e.targetType ? `${e.targetType} ${e.targetId ?? ''}` : '—'}</TableCell>
                <TableCell>{e.reason ?? '—'}</TableCell>
                <TableCell>{e.outcome}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
        {params.get('cursor') ? (
          <Button variant="outlined" onClick={() => page(undefined)}>
            Newest
          </Button>
        ) : null}
        {next ? (
          <Button variant="outlined" onClick={() => page(next)}>
            Older entries
          </Button>
        ) : null}
      </Stack>
    </Box>
  );
}

/**
 * For the search's period (the last 30 days without one): the statistics (GET
 * /api/admin/audit-logs/statistics: total, most active actors, most common actions) and, with
 * AuditLogs.Export, the streamed export as a file download (CSV or NDJSON, read with the token).
 */
function AuditTools({ from, to }: { from: string | undefined; to: string | undefined }) {
  const { permissions: access } = usePermissions<MyAccess>();
  const [stats, setStats] = useState<Statistics>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    const query = { ...(from ? { from } : {}), ...(to ? { to } : {}), top: 5 };
    void fishlog.GET('/api/admin/audit-logs/statistics', { params: { query } }).then(({ data, error }) => live && (error ? setProblem(problemText(error)) : setStats(data)));
    return () => {
      live = false;
    };
  }, [from, to]);

  async function download(format: 'csv' | 'ndjson') {
    setBusy(true);
    setProblem(undefined);
    try {
      const { data, error } = await fishlog.GET('/api/admin/audit-logs/export', { params: { query: { format, ...(from ? { from } : {}), ...(to ? { to } : {}) } }, parseAs: 'blob' });
      if (error || !(data instanceof Blob)) return setProblem(problemText(error ?? 'The export could not be read'));
      const url = URL.createObjectURL(data);
      const link = Object.assign(document.createElement('a'), { href: url, download: `fishlog-audit-${new Date().toISOString().slice(0, 10)}.${format === 'csv' ? 'csv' : 'ndjson'}` });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      setProblem(problemText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box component="section" aria-label="Statistics and export" sx={{ mb: 2 }}>
      {stats ? (
        <Typography>
          The period, whatever the other filters: {stats.total} entr{stats.total === 1 ? 'y' : 'ies'} from {stats.from.slice(0, 10)} to {stats.to.slice(0, 10)}. Most active:{' '}
          {stats.mostActiveActors.map((a) => `${a.username ?? a.userId} (${a.count})`).join(', ') || 'nobody'}. Most common:{' '}
          {stats.mostCommonActions.map((a) => `${a.action} (${a.count})`).join(', ') || 'none'}.
        </Typography>
      ) : null}
      {may(access, 'AuditLogs.Export') ? (
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          <Button variant="outlined" disabled={busy} onClick={() => void download('csv')}>
            Export the period (CSV)
          </Button>
          <Button variant="outlined" disabled={busy} onClick={() => void download('ndjson')}>
            Export the period (NDJSON)
          </Button>
        </Stack>
      ) : null}
      {problem ? (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {problem}
        </Alert>
      ) : null}
    </Box>
  );
}
