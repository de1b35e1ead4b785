import { useState } from 'react';
import { List, SelectInput, usePermissions } from 'react-admin';
import { Button, Card, CardActions, CardContent, TextField, Typography } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { Problem, useApiAction } from '../action';
import { CardList } from '../CardList';
import { may, type MyAccess } from '../access';

type Ban = components['schemas']['Ban'];

const filters = [
  <SelectInput
    key="status"
    source="status"
    label="Appeal"
    alwaysOn
    choices={[
      { id: 'Open', name: 'Open' },
      { id: 'Upheld', name: 'Upheld' },
      { id: 'Overturned', name: 'Overturned' },
    ]}
  />,
];

/** Ban appeals (GET /api/admin/ban-appeals), open ones first by default; the filter and page in the URL. */
export default function Appeals() {
  return (
    <List title="Ban appeals" filters={filters} filterDefaultValues={{ status: 'Open' }} perPage={10} exporter={false} empty={<Typography sx={{ p: 3 }}>No appeal.</Typography>}>
      <CardList<Ban> label="Appeals" card={(ban) => <AppealCard ban={ban} />} />
    </List>
  );
}


function AppealCard({ ban }: { ban: Ban }) {
  const { permissions: access } = usePermissions<MyAccess>();
  const { busy, problem, run } = useApiAction();
  const [reply, setReply] = useState('');
  const appeal = ban.appeal!;
  const label = `Appeal of ${ban.username}`;

  const decide = (decision: 'Upheld' | 'Overturned') =>
    run(
      () => fishlog.POST('/api/admin/ban-appeals/{id}/decide', { params: { path: { id: appeal.id } }, body: { decision, reply } }),
      decision === 'Overturned' ? `${label}: overturned, the ban is lifted` : `${label}: upheld`,
    );

  return (
    <Card component="article" aria-label={label} variant="outlined">
      <CardContent>
        <Typography component="h2" variant="h6">
          {label}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Banned by {ban.bannedByUsername ?? 'an operator'} {ban.endsAt ? `until ${new Date(ban.endsAt).toLocaleString()}` : 'permanently'} · ban {ban.status} · appeal {appeal.status}
        </Typography>
        <Typography sx={{ mt: 1 }}>
          <strong>Ban reason:</strong> {ban.reason}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap' }}>
          <strong>Appeal:</strong> {appeal.text}
        </Typography>
        {appeal.reply ? (
          <Typography>
            <strong>Reply:</strong> {appeal.reply}
          </Typography>
        ) : null}
        <Problem text={problem} sx={{ mt: 1 }} />
      </CardContent>
      {appeal.status === 'Open' && may(access, 'Users.Unban') ? (
        <CardActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          <TextField fullWidth={false} size="small" label="Reply the user reads" value={reply} onChange={(e) => setReply(e.target.value)} sx={{ minWidth: 360 }} />
          <Button variant="contained" disabled={busy || reply.trim() === ''} onClick={() => decide('Overturned')} aria-label={`Overturn ${label}`}>
            Overturn (lift the ban)
          </Button>
          <Button variant="outlined" disabled={busy || reply.trim() === ''} onClick={() => decide('Upheld')} aria-label={`Uphold ${label}`}>
            Uphold
          </Button>
        </CardActions>
      ) : null}
    </Card>
  );
}
