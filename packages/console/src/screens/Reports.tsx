import { useState } from 'react';
import { List, SelectInput } from 'react-admin';
import { Button, Card, CardActions, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { Problem, useApiAction } from '../action';
import { CardList } from '../CardList';

type Report = components['schemas']['AdminReport'];
type Resolution = NonNullable<Report['resolution']>;

const filters = [
  <SelectInput
    key="status"
    source="status"
    label="Status"
    alwaysOn
    choices={[
      { id: 'Open', name: 'Open' },
      { id: 'Resolved', name: 'Resolved' },
    ]}
  />,
  <SelectInput
    key="targetType"
    source="targetType"
    label="Reported"
    alwaysOn
    choices={[
      { id: 'Post', name: 'Posts' },
      { id: 'Comment', name: 'Comments' },
      { id: 'User', name: 'Users' },
    ]}
  />,
];

/** Reports from users (GET /api/admin/reports), open ones by default, oldest first; the filters and page in the URL. */
export default function Reports() {
  return (
    <List title="Reports" filters={filters} filterDefaultValues={{ status: 'Open' }} perPage={10} exporter={false} empty={<Typography sx={{ p: 3 }}>No report.</Typography>}>
      <CardList<Report> label="Reports" card={(report) => <ReportCard report={report} />} />
    </List>
  );
}

const RESOLUTIONS: Array<{ id: Resolution; name: string }> = [
  { id: 'NoViolation', name: 'No violation' },
  { id: 'ContentRejected', name: 'Reject the content (the note is the reason its author reads)' },
  { id: 'ActionTaken', name: 'Action taken otherwise (say how)' },
];

function ReportCard({ report }: { report: Report }) {
  const { busy, problem, run } = useApiAction();
  const [resolution, setResolution] = useState<Resolution>('NoViolation');
  const [note, setNote] = useState('');
  const who = report.target.user?.username ?? 'a deleted account';
  const label = `Report of ${report.targetType === 'User' ? `user ${who}` : `a ${report.targetType.toLowerCase()} by ${who}`}`;
  // A content rejection needs the reason its author will read; the API takes the note as that reason.
  const choices = report.targetType === 'User' ? RESOLUTIONS.filter((r) => r.id !== 'ContentRejected') : RESOLUTIONS;

  const resolve = () => run(() => fishlog.POST('/api/admin/reports/{id}/resolve', { params: { path: { id: report.id } }, body: { resolution, note } }), `${label}: resolved (${resolution})`);

  return (
    <Card component="article" aria-label={label} variant="outlined">
      <CardContent>
        <Typography component="h2" variant="h6">
          {label}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {report.reason} · reported by {report.reporter.username} on {new Date(report.createdAt).toLocaleString()} · now {report.target.state}
        </Typography>
        {report.details ? <Typography sx={{ mt: 1 }}>{`“${report.details}”`}</Typography> : null}
        {report.target.snapshot.text !== undefined ? (
          <Typography sx={{ mt: 1, whiteSpace: 'pre-wrap' }}>
            <strong>As reported:</strong> {report.target.snapshot.text}
          </Typography>
        ) : null}
        {report.status === 'Resolved' ? (
          <Typography sx={{ mt: 1 }}>
            <strong>Resolved</strong> {report.resolution ? `(${report.resolution})` : ''} by {report.resolvedBy?.username ?? 'an operator'}
            {report.resolutionNote ? `: ${report.resolutionNote}` : ''}
          </Typography>
        ) : null}
        <Problem text={problem} sx={{ mt: 1 }} />
      </CardContent>
      {report.status === 'Open' ? (
        <CardActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          <TextField select fullWidth={false} size="small" label="Resolution" value={resolution} onChange={(e) => setResolution(e.target.value as Resolution)} sx={{ minWidth: 260 }}>
            {choices.map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField fullWidth={false} size="small" label="Note (what was decided and why)" value={note} onChange={(e) => setNote(e.target.value)} sx={{ minWidth: 360 }} required />
          <Button variant="contained" disabled={busy || note.trim() === ''} onClick={() => void resolve()} aria-label={`Resolve ${label}`}>
            Resolve
          </Button>
        </CardActions>
      ) : null}
    </Card>
  );
}
