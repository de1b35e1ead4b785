import { useState } from 'react';
import { List, SelectInput, usePermissions } from 'react-admin';
import { Button, Card, CardActions, CardContent, TextField, Typography } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { Problem, useApiAction } from '../action';
import { may, type MyAccess } from '../access';
import { CardList } from '../CardList';
import { ReviewPhoto } from '../ReviewPhoto';

type QueuedPhoto = components['schemas']['PhotoQueueItem'];

const filters = [
  <SelectInput
    key="state"
    source="state"
    label="State"
    alwaysOn
    choices={[
      { id: 'PendingReview', name: 'Held for review' },
      { id: 'Rejected', name: 'Rejected' },
    ]}
  />,
  <SelectInput
    key="kind"
    source="kind"
    label="On"
    alwaysOn
    choices={[
      { id: 'Post', name: 'Posts' },
      { id: 'FishingReport', name: 'Fishing reports' },
    ]}
  />,
];

/** The photo review queue (GET /api/admin/photos/review): held and rejected photos, newest first; the filters and page in the URL. */
export default function PhotoReview() {
  return (
    <List title="Photo review" filters={filters} perPage={10} exporter={false} empty={<Typography sx={{ p: 3 }}>No photo awaits review.</Typography>}>
      <CardList<QueuedPhoto> label="Photos to review" card={(photo) => <PhotoCard photo={photo} />} />
    </List>
  );
}

function PhotoCard({ photo }: { photo: QueuedPhoto }) {
  const { permissions: access } = usePermissions<MyAccess>();
  const { busy, problem, run } = useApiAction();
  const [reason, setReason] = useState('');
  const where = photo.record.kind === 'Post' ? 'post' : 'fishing report';
  const label = `Photo ${photo.record.position} of ${photo.record.photoCount} on a ${where} by ${photo.owner.username}`;

  const decide = (decision: 'approve' | 'reject') =>
    run(
      () => fishlog.POST(decision === 'approve' ? '/api/admin/photos/{id}/approve' : '/api/admin/photos/{id}/reject', { params: { path: { id: photo.id } }, body: { reason } }),
      decision === 'approve' ? `${label}: published` : `${label}: taken down`,
    );

  return (
    <Card component="article" aria-label={label} variant="outlined">
      <CardContent>
        <Typography component="h2" variant="h6">
          {label}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {photo.moderationStatus === 'PendingReview' ? 'Held for review' : 'Rejected'} · uploaded {new Date(photo.createdAt).toLocaleString()} · {photo.width}×{photo.height},{' '}
          {Math.round(photo.bytes / 1024)} KB
        </Typography>
        <ReviewPhoto photo={photo} label={`${label} (${photo.moderationStatus})`} />
        <Problem text={problem} />
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <TextField fullWidth={false} size="small" label="Reason (kept in the audit log)" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 320 }} required />
        {may(access, 'moderation.approve') ? (
          <Button variant="contained" color="success" disabled={busy || reason.trim() === ''} onClick={() => void decide('approve')} aria-label={`Publish ${label}`}>
            Publish
          </Button>
        ) : null}
        {may(access, 'moderation.reject') && photo.moderationStatus !== 'Rejected' ? (
          <Button variant="contained" color="error" disabled={busy || reason.trim() === ''} onClick={() => void decide('reject')} aria-label={`Take down ${label}`}>
            Take down
          </Button>
        ) : null}
      </CardActions>
    </Card>
  );
}
