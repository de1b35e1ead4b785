import { useState } from 'react';
import { List, SelectInput, usePermissions } from 'react-admin';
import { Box, Button, Card, CardActions, CardContent, Chip, Stack, TextField, Typography } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { Problem, useApiAction } from '../action';
import { CardList } from '../CardList';
import { ReviewPhoto } from '../ReviewPhoto';
import { may, type MyAccess } from '../access';

type QueueItem = components['schemas']['ModerationQueueItem'];

const filters = [
  <SelectInput
    key="contentType"
    source="contentType"
    label="Content"
    alwaysOn
    choices={[
      { id: 'Post', name: 'Posts' },
      { id: 'Comment', name: 'Comments' },
    ]}
  />,
];

/** The review queue (GET /api/admin/moderation/pending), paged and filtered by the API, state in the URL. */
export default function ModerationQueue() {
  return (
    <List title="Moderation queue" filters={filters} perPage={10} exporter={false} empty={<Typography sx={{ p: 3 }}>Nothing awaits review.</Typography>}>
      <CardList<QueueItem> label="Items awaiting review" card={(item) => <QueueCard item={item} />} />
    </List>
  );
}


function defaultReason(item: QueueItem): string {
  const why = [...item.matchedRules.map((r) => r.name), ...item.categories];
  return why.length > 0 ? `Breaks the community rules (${why.join(', ')}).` : 'Breaks the community rules.';
}

function QueueCard({ item }: { item: QueueItem }) {
  const { permissions: access } = usePermissions<MyAccess>();
  const { busy, problem, run } = useApiAction();
  const [reason, setReason] = useState(() => defaultReason(item));
  const kind = item.contentType === 'Post' ? 'post' : 'comment';
  const label = `${item.contentType} by ${item.author.username}`;

  const decide = (decision: 'approve' | 'reject') => {
    const path = { params: { path: { id: item.contentId } } };
    return run(
      () =>
        decision === 'approve'
          ? fishlog.POST(kind === 'post' ? '/api/admin/moderation/post/{id}/approve' : '/api/admin/moderation/comment/{id}/approve', { ...path, body: {} })
          : fishlog.POST(kind === 'post' ? '/api/admin/moderation/post/{id}/reject' : '/api/admin/moderation/comment/{id}/reject', { ...path, body: { reason } }),
      decision === 'approve' ? `${label} approved: it is published` : `${label} rejected`,
    );
  };

  return (
    <Card component="article" aria-label={label} variant="outlined">
      <CardContent>
        <Typography component="h2" variant="h6">
          {label}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Held because: {item.heldBecause} · {new Date(item.createdAt).toLocaleString()}
          {item.provider ? ` · ${item.provider}${item.model ? ` (${item.model})` : ''}` : ''}
        </Typography>
        <Typography sx={{ my: 1, whiteSpace: 'pre-wrap' }}>{item.text}</Typography>
        {item.photos.length > 0 ? (
          <Box component="ul" aria-label="Photos" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, my: 1, p: 0, listStyle: 'none' }}>
            {item.photos.map((photo, i) => (
              <li key={photo.id}>
                <ReviewPhoto photo={photo} label={`Photo ${i + 1} of ${item.photos.length} (${photo.moderationStatus})`} />
              </li>
            ))}
          </Box>
        ) : null}
        {item.photoUrls.length > 0 ? (
          <Stack direction="row" spacing={1} sx={{ my: 1 }}>
            {item.photoUrls.map((url, i) => (
              <Typography key={url} variant="body2">
                Linked picture {i + 1}: {url}
              </Typography>
            ))}
          </Stack>
        ) : null}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, my: 1 }} aria-label="AI verdict and rule hits">
          {item.categories.map((c) => (
            <Chip key={c} label={`${c}${item.scores[c] !== undefined ? ` ${item.scores[c]!.toFixed(2)}` : ''}`} sx={{ bgcolor: '#fff3e0', color: '#5d3200' }} />
          ))}
          {item.matchedRules.map((r) => (
            <Chip key={r.id} label={`Rule: ${r.name} (${r.action})`} variant="outlined" />
          ))}
        </Box>
        <Problem text={problem} />
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {may(access, 'Content.Approve') ? (
          <Button variant="contained" color="success" disabled={busy} onClick={() => decide('approve')} aria-label={`Approve ${label}`}>
            Approve
          </Button>
        ) : null}
        {may(access, 'Content.Moderate') ? (
          <>
            <TextField size="small" label="Reason for rejecting" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 320 }} />
            <Button variant="contained" color="error" disabled={busy || reason.trim() === ''} onClick={() => decide('reject')} aria-label={`Reject ${label}`}>
              Reject
            </Button>
          </>
        ) : null}
      </CardActions>
    </Card>
  );
}
