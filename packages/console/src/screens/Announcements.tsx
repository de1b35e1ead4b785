import { useState } from 'react';
import { Datagrid, DateField, FunctionField, List, SelectInput, TextField as RaTextField, TopToolbar, usePermissions } from 'react-admin';
import { Alert, AlertTitle, Box, Button, Checkbox, FormControlLabel, FormGroup, FormLabel, MenuItem, Stack, TextField, Typography } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { Problem, useApiAction } from '../action';
import { may, type MyAccess } from '../access';

type AdminAnnouncement = components['schemas']['AdminAnnouncement'];
type Kind = AdminAnnouncement['type'];
type Priority = AdminAnnouncement['priority'];
type Dismissal = AdminAnnouncement['dismissal'];

const TYPES: Kind[] = ['Info', 'Success', 'Warning', 'Error'];
const PRIORITIES: Priority[] = ['Low', 'Normal', 'High', 'Critical'];
const ROLES = ['Standard', 'DNR', 'Researcher', 'Moderator', 'Admin', 'Owner'] as const;
const SEVERITY = { Info: 'info', Success: 'success', Warning: 'warning', Error: 'error' } as const;

const filters = [
  <SelectInput key="status" source="status" label="Status" choices={['Scheduled', 'Active', 'Ended', 'Inactive'].map((s) => ({ id: s, name: s }))} alwaysOn />,
  <SelectInput key="type" source="type" label="Type" choices={TYPES.map((t) => ({ id: t, name: t }))} alwaysOn />,
];

/** GET /api/admin/announcements: filtered by status and type, in the URL; with Announcements.Create, a new one with its preview. */
export default function Announcements() {
  const { permissions: access } = usePermissions<MyAccess>();
  return (
    <>
      {may(access, 'Announcements.Create') ? <NewAnnouncement /> : null}
      <List title="Announcements" filters={filters} perPage={25} exporter={false} actions={<TopToolbar />} empty={<Typography sx={{ p: 3 }}>No announcement yet.</Typography>}>
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <RaTextField source="title" sortable={false} />
          <RaTextField source="status" sortable={false} />
          <RaTextField source="type" sortable={false} />
          <RaTextField source="priority" sortable={false} />
          <FunctionField label="Audience" render={(a: AdminAnnouncement) => (a.audience === 'All' ? 'All' : a.audience.join(', '))} />
          <DateField source="startsAt" label="Starts" showTime sortable={false} />
          <DateField source="endsAt" label="Ends" showTime sortable={false} emptyText="open-ended" />
          <FunctionField label="Dismissed by" render={(a: AdminAnnouncement) => a.dismissedCount} />
        </Datagrid>
      </List>
    </>
  );
}

/** A `datetime-local` value (the browser's time zone) as an instant, or undefined when empty. */
const instant = (local: string) => (local === '' ? undefined : new Date(local).toISOString());

/**
 * POST /api/admin/announcements: title, text, type, priority, audience (everyone or chosen roles),
 * when it starts (now or scheduled) and ends, whether users may dismiss it, and the reason. The
 * preview is the banner as the apps show it: plain text in the type's colours.
 */
function NewAnnouncement() {
  const { busy, problem, run } = useApiAction();
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [type, setType] = useState<Kind>('Info');
  const [priority, setPriority] = useState<Priority>('Normal');
  const [roles, setRoles] = useState<string[]>([]);
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [dismissal, setDismissal] = useState<Dismissal>('Dismissible');
  const [reason, setReason] = useState('');

  async function publish() {
    const request = {
      body: {
        title,
        body,
        type,
        priority,
        audience: roles.length === 0 ? ('All' as const) : (roles as Array<(typeof ROLES)[number]>),
        dismissal,
        reason,
        ...(instant(startsAt) ? { startsAt: instant(startsAt) } : {}),
        ...(instant(endsAt) ? { endsAt: instant(endsAt) } : {}),
      },
    };
    // Everything typed stays when the API refuses it (e.g. an end before the start).
    if (!(await run(() => fishlog.POST('/api/admin/announcements', request), startsAt ? `"${title}" scheduled` : `"${title}" is shown now`))) return;
    for (const clear of [setTitle, setBody, setReason, setStartsAt, setEndsAt]) clear('');
    setRoles([]);
  }

  return (
    <Box component="form" aria-label="New announcement" sx={{ p: 2 }} onSubmit={(e) => (e.preventDefault(), void publish())}>
      <Typography component="h2" variant="h6">
        New announcement
      </Typography>
      <Stack spacing={1} sx={{ mt: 1, maxWidth: 900 }}>
        <TextField size="small" label="Title" value={title} onChange={(e) => setTitle(e.target.value)} slotProps={{ htmlInput: { maxLength: 200 } }} required />
        <TextField size="small" label="Text (plain text)" value={body} onChange={(e) => setBody(e.target.value)} multiline minRows={2} slotProps={{ htmlInput: { maxLength: 5000 } }} required />
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          <TextField select fullWidth={false} size="small" label="Type" value={type} onChange={(e) => setType(e.target.value as Kind)} sx={{ minWidth: 140 }}>
            {TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {t}
              </MenuItem>
            ))}
          </TextField>
          <TextField select fullWidth={false} size="small" label="Priority" value={priority} onChange={(e) => setPriority(e.target.value as Priority)} sx={{ minWidth: 140 }}>
            {PRIORITIES.map((p) => (
              <MenuItem key={p} value={p}>
                {p}
              </MenuItem>
            ))}
          </TextField>
          <TextField fullWidth={false} size="small" type="datetime-local" label="Starts (empty: now)" value={startsAt} onChange={(e) => setStartsAt(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          <TextField fullWidth={false} size="small" type="datetime-local" label="Ends (empty: open-ended)" value={endsAt} onChange={(e) => setEndsAt(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          <FormControlLabel control={<Checkbox checked={dismissal === 'Dismissible'} onChange={(e) => setDismissal(e.target.checked ? 'Dismissible' : 'Persistent')} />} label="Users may dismiss it" />
        </Stack>
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <FormLabel component="legend">Shown to (none ticked: everyone)</FormLabel>
          <FormGroup row>
            {ROLES.map((role) => (
              <FormControlLabel
                key={role}
                label={role}
                control={<Checkbox checked={roles.includes(role)} onChange={(e) => setRoles(e.target.checked ? [...roles, role] : roles.filter((r) => r !== role))} />}
              />
            ))}
          </FormGroup>
        </Box>
        <Box component="section" aria-label="Preview">
          <Typography variant="body2" color="text.secondary">
            Preview, as users see it{roles.length > 0 ? ` (${roles.join(', ')} only)` : ''}:
          </Typography>
          <Alert severity={SEVERITY[type]} variant="outlined" action={<Typography variant="caption">{dismissal === 'Dismissible' ? 'Users may dismiss it' : 'Stays until it ends'}</Typography>} sx={{ whiteSpace: 'pre-wrap' }}>
            <AlertTitle>{title || 'Title'}</AlertTitle>
            {body || 'Text'}
          </Alert>
        </Box>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <TextField fullWidth={false} size="small" label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 320 }} required />
          <Button type="submit" variant="contained" disabled={busy || title.trim() === '' || body.trim() === '' || reason.trim() === ''}>
            {startsAt ? 'Schedule' : 'Publish'}
          </Button>
        </Stack>
        <Problem text={problem} />
      </Stack>
    </Box>
  );
}
