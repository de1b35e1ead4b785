import { useState } from 'react';
import { Datagrid, DateField, FunctionField, List, SelectInput, Show, TextField as RaTextField, TopToolbar, usePermissions, useRecordContext } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, AlertTitle, Box, Button, Checkbox, FormControlLabel, FormGroup, FormLabel, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { ActiveForm, Problem, TableSection, useApiAction, useApiRead } from '../action';
import { Facts } from '../RecordForm';
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

/** GET /api/admin/announcements: filtered by status and type, in the URL; with Announcements.Create, a new one with its preview; a title opens its page. */
export function AnnouncementsList() {
  const { permissions: access } = usePermissions<MyAccess>();
  return (
    <>
      {may(access, 'Announcements.Create') ? <AnnouncementForm /> : null}
      <List title="Announcements" filters={filters} perPage={25} exporter={false} actions={<TopToolbar />} empty={<Typography sx={{ p: 3 }}>No announcement yet.</Typography>}>
        <Datagrid bulkActionButtons={false} rowClick="show">
          <FunctionField
            label="Title"
            render={(a: AdminAnnouncement) => (
              <Link component={RouterLink} to={`/announcements/${a.id}/show`} onClick={(e) => e.stopPropagation()}>
                {a.title}
              </Link>
            )}
          />
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
/** An instant as a `datetime-local` value in the browser's time zone ('' for none). */
const local = (iso: string | null) => {
  if (iso === null) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/**
 * A new announcement (POST /api/admin/announcements) or, given one, its change (PUT
 * /api/admin/announcements/{id}, every field sent): title, text, type, priority, audience (everyone
 * or chosen roles), when it starts (now or scheduled) and ends, whether users may dismiss it, and
 * the reason. The preview is the banner as the apps show it: plain text in the type's colours.
 */
function AnnouncementForm({ announcement }: { announcement?: AdminAnnouncement }) {
  const { busy, problem, run } = useApiAction();
  const [title, setTitle] = useState(announcement?.title ?? '');
  const [body, setBody] = useState(announcement?.body ?? '');
  const [type, setType] = useState<Kind>(announcement?.type ?? 'Info');
  const [priority, setPriority] = useState<Priority>(announcement?.priority ?? 'Normal');
  const [roles, setRoles] = useState<string[]>(announcement && announcement.audience !== 'All' ? announcement.audience : []);
  const [startsAt, setStartsAt] = useState(local(announcement?.startsAt ?? null));
  const [endsAt, setEndsAt] = useState(local(announcement?.endsAt ?? null));
  const [dismissal, setDismissal] = useState<Dismissal>(announcement?.dismissal ?? 'Dismissible');
  const [reason, setReason] = useState('');
  const label = announcement ? `Change ${announcement.title}` : 'New announcement';

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
    if (announcement) {
      // A time left as it was keeps its seconds (the field shows minutes).
      const unchanged = (typed: string, iso: string | null) => (typed === local(iso) ? iso : null);
      const change = {
        ...request.body,
        startsAt: unchanged(startsAt, announcement.startsAt) ?? instant(startsAt) ?? new Date().toISOString(),
        endsAt: unchanged(endsAt, announcement.endsAt) ?? instant(endsAt) ?? null,
      };
      if (await run(() => fishlog.PUT('/api/admin/announcements/{id}', { params: { path: { id: announcement.id } }, body: change }), `"${title}" changed`)) setReason('');
      return;
    }
    if (!(await run(() => fishlog.POST('/api/admin/announcements', request), startsAt ? `"${title}" scheduled` : `"${title}" is shown now`))) return;
    for (const clear of [setTitle, setBody, setReason, setStartsAt, setEndsAt]) clear('');
    setRoles([]);
  }

  return (
    <Box component="form" aria-label={label} sx={{ p: announcement ? 0 : 2 }} onSubmit={(e) => (e.preventDefault(), void publish())}>
      <Typography component="h2" variant="h6">
        {announcement ? 'Change' : 'New announcement'}
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
          <TextField fullWidth={false} size="small" type="datetime-local" label={announcement ? 'Starts' : 'Starts (empty: now)'} value={startsAt} onChange={(e) => setStartsAt(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
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
            {announcement ? 'Save' : startsAt ? 'Schedule' : 'Publish'}
          </Button>
        </Stack>
        <Problem text={problem} />
      </Stack>
    </Box>
  );
}

/** One announcement (GET /api/admin/announcements/{id}): its banner, a change (Announcements.Edit), deactivation or reactivation (Announcements.Delete), and the versions its changes replaced. */
export function AnnouncementShow() {
  return (
    <Show title="Announcement" actions={false}>
      <AnnouncementPage />
    </Show>
  );
}

function AnnouncementPage() {
  const announcement = useRecordContext<AdminAnnouncement>();
  const { permissions: access } = usePermissions<MyAccess>();
  if (!announcement) return null;
  const a = announcement;
  return (
    <Stack spacing={3} sx={{ p: 2 }}>
      <Box>
        <Typography component="h1" variant="h5">
          {a.title}
        </Typography>
        <Facts
          label={`About ${a.title}`}
          facts={[
            ['Status', `${a.status} (version ${a.version})${a.isActive ? '' : `: deactivated, ${a.deactivationReason ?? ''}`}`],
            ['Shown', `${new Date(a.startsAt).toLocaleString()} – ${a.endsAt ? new Date(a.endsAt).toLocaleString() : 'open-ended'}`],
            ['Audience', a.audience === 'All' ? 'everyone' : a.audience.join(', ')],
            ['Dismissed by', a.dismissedCount],
          ]}
        />
      </Box>
      {may(access, 'Announcements.Edit') ? <AnnouncementForm key={a.version} announcement={a} /> : null}
      {may(access, 'Announcements.Delete') ? (
        <ActiveForm
          name={`"${a.title}"`}
          active={a.isActive}
          submit={(reason) => fishlog.POST(a.isActive ? '/api/admin/announcements/{id}/deactivate' : '/api/admin/announcements/{id}/reactivate', { params: { path: { id: a.id } }, body: { reason } })}
        />
      ) : null}
      <Versions announcement={a} />
    </Stack>
  );
}

/** GET /api/admin/announcements/{id}/versions: what each change replaced, when and why (newest first, 20). */
function Versions({ announcement }: { announcement: AdminAnnouncement }) {
  const { data, problem } = useApiRead(() => fishlog.GET('/api/admin/announcements/{id}/versions', { params: { path: { id: announcement.id }, query: { pageSize: 20 } } }), [announcement.id, announcement.version]);
  return (
    <>
      <Problem text={problem} />
      <TableSection
        label="Earlier versions"
        columns={['Version', 'Title', 'Text', 'Replaced', 'Why']}
        rows={(data ?? []).map((v) => ({ key: String(v.version), cells: [v.version, v.title, v.body, new Date(v.replacedAt).toLocaleString(), v.reason] }))}
      />
    </>
  );
}
