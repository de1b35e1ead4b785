import { useState } from 'react';
import {
  Datagrid,
  DateField,
  DateInput,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  Show,
  TextField as RaTextField,
  usePermissions,
  useRecordContext,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Card, CardContent, Checkbox, FormControlLabel, Link, MenuItem, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { Problem, useApiAction } from '../action';
import { may, type MyAccess } from '../access';
import { label } from '../format';

type AdminUser = components['schemas']['AdminUser'];
type UserDetails = components['schemas']['AdminUserDetails'];
type Ban = components['schemas']['Ban'];
type TimelineItem = components['schemas']['TimelineItem'];

const ROLES = ['Standard', 'DNR', 'Researcher', 'Moderator', 'Admin', 'Owner'].map((r) => ({ id: r, name: r }));
const STATUSES = ['Active', 'Banned', 'Disabled'].map((s) => ({ id: s, name: s }));

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Username or e-mail starts with" aria-label="Search users" />,
  <SelectInput key="role" source="role" label="Role" choices={ROLES} alwaysOn />,
  <SelectInput key="status" source="status" label="Status" choices={STATUSES} alwaysOn />,
  <DateInput key="createdFrom" source="createdFrom" label="Created from" />,
  <DateInput key="createdTo" source="createdTo" label="Created before" />,
];

/** GET /api/admin/users: filters, sort and page through the API, all in the URL. */
export function UsersList() {
  return (
    <List title="Users" filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={25} exporter={false}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <RaTextField source="username" />
        <RaTextField source="email" sortable={false} emptyText="—" />
        <RaTextField source="role" sortable={false} />
        <FunctionField
          source="status"
          sortable={false}
          render={(u: AdminUser) => (u.activeBan ? `Banned ${u.activeBan.endsAt ? `until ${new Date(u.activeBan.endsAt).toLocaleString()}` : 'permanently'}` : u.status)}
        />
        <DateField source="createdAt" label="Created" showTime />
        <DateField source="lastSignInAt" label="Last sign-in" showTime sortable={false} emptyText="never" />
      </Datagrid>
    </List>
  );
}

/** GET /api/admin/users/{id}: details, activity counts, role, bans; ban and lift. */
export function UserShow() {
  return (
    <Show title="User" actions={false}>
      <UserPage />
    </Show>
  );
}

function UserPage() {
  const user = useRecordContext<UserDetails>();
  const { permissions: access } = usePermissions<MyAccess>();
  // react-admin shows the list's row first (no counts, no bans) while GET /api/admin/users/{id} answers.
  if (!user?.counts) return <Typography sx={{ p: 2 }}>Loading…</Typography>;
  const counts = Object.entries(user.counts);
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Box>
        <Typography component="h1" variant="h5">
          {user.username}
        </Typography>
        <Typography>
          Role: <strong>{user.role}</strong> · Status: <strong>{user.status}</strong> · E-mail: {user.email ?? '—'} · Created {new Date(user.createdAt).toLocaleString()} · Last
          sign-in {user.lastSignInAt ? new Date(user.lastSignInAt).toLocaleString() : 'never'}
        </Typography>
        {user.profile.displayName ? <Typography>Display name: {user.profile.displayName}</Typography> : null}
        {may(access, 'AuditLogs.View') ? (
          <Link component={RouterLink} to={`/audit?targetId=${user.id}`}>
            Audit log entries about this user
          </Link>
        ) : null}
      </Box>
      <Box component="section" aria-label="Activity">
        <Typography component="h2" variant="h6">
          Activity
        </Typography>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))', gap: 1, m: 0 }}>
          {counts.map(([name, n]) => (
            <Box key={name}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {name}
              </Typography>
              <Typography component="dd" sx={{ m: 0 }}>
                {n}
              </Typography>
            </Box>
          ))}
        </Box>
      </Box>
      <Timeline user={user} />
      {may(access, 'Users.ChangeRole') && user.role !== 'Owner' ? <RoleForm user={user} /> : null}
      {may(access, 'Users.Ban') && user.status !== 'Banned' ? <BanForm user={user} cap={maxBanDays(access)} /> : null}
      <Bans bans={user.bans} mayLift={may(access, 'Users.Unban')} />
    </Stack>
  );
}

/**
 * GET /api/admin/users/{id}/activity-timeline: what the user did, newest first (entries, catches,
 * posts, comments, reports filed, sign-ins, bans and lifts, role changes), the page in the URL.
 * Titles, statuses and reasons only: the API answers no text of posts or comments.
 */
function Timeline({ user }: { user: UserDetails }) {
  return (
    <Box component="section" aria-labelledby="timeline-heading">
      <Typography component="h2" variant="h6" id="timeline-heading">
        Activity timeline
      </Typography>
      <List
        resource="user-activity"
        title={' '}
        filter={{ userId: user.id }}
        perPage={10}
        exporter={false}
        actions={false}
        empty={<Typography sx={{ py: 1 }}>Nothing yet.</Typography>}
      >
        <Datagrid bulkActionButtons={false} rowClick={false} aria-label={`What ${user.username} did, newest first`}>
          <FunctionField label="When" render={(i: TimelineItem) => new Date(i.at).toLocaleString()} />
          <FunctionField label="What" render={(i: TimelineItem) => label(i.kind)} />
          <FunctionField label="Title or reason" render={(i: TimelineItem) => i.title ?? '—'} />
          <FunctionField label="Details" render={(i: TimelineItem) => i.detail ?? '—'} />
        </Datagrid>
      </List>
    </Box>
  );
}

/** PUT /api/admin/users/{id}/role with the reason the API requires; the API decides which changes the caller may make. */
function RoleForm({ user }: { user: UserDetails }) {
  const { busy, problem, run } = useApiAction();
  const [role, setRole] = useState<string>(user.role);
  const [reason, setReason] = useState('');
  async function change() {
    if (await run(() => fishlog.PUT('/api/admin/users/{id}/role', { params: { path: { id: user.id } }, body: { role: role as UserDetails['role'], reason } }), `${user.username} is now ${role}`)) setReason('');
  }
  return (
    <Card component="section" aria-label="Change the role" variant="outlined">
      <CardContent>
        <Typography component="h2" variant="h6">
          Role
        </Typography>
        <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', alignItems: 'center', mt: 1 }} useFlexGap>
          <TextField fullWidth={false} select size="small" label="New role" value={role} onChange={(e) => setRole(e.target.value)} sx={{ minWidth: 180 }}>
            {ROLES.filter((r) => r.id !== 'Owner').map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField fullWidth={false} size="small" label="Reason for the change" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 320 }} />
          <Button variant="contained" disabled={busy || role === user.role || reason.trim() === ''} onClick={change}>
            Change role
          </Button>
        </Stack>
        <Problem text={problem} sx={{ mt: 1 }} />
      </CardContent>
    </Card>
  );
}

function maxBanDays(access: MyAccess | undefined): number | undefined {
  const days = access?.restrictions['Users.Ban']?.maxBanDays;
  return typeof days === 'number' ? days : undefined;
}

function BanForm({ user, cap }: { user: UserDetails; cap: number | undefined }) {
  const { busy, problem, run } = useApiAction();
  const [days, setDays] = useState(String(cap ?? 7));
  const [permanent, setPermanent] = useState(false);
  const [reason, setReason] = useState('');

  // On a refusal the form keeps what was typed.
  const ban = () => run(() => fishlog.POST('/api/admin/users/{id}/bans', { params: { path: { id: user.id } }, body: { reason, durationDays: permanent ? null : Number(days) } }), `${user.username} is banned`);

  return (
    <Card component="section" aria-label="Ban this user" variant="outlined">
      <CardContent>
        <Typography component="h2" variant="h6">
          Ban {user.username}
        </Typography>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {cap !== undefined ? `Your grant caps bans at ${cap} day${cap === 1 ? '' : 's'} (no permanent ban).` : 'No cap on the duration: up to 3650 days, or permanent.'}
        </Typography>
        <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', alignItems: 'center' }} useFlexGap>
          <TextField
            fullWidth={false}
            size="small"
            type="number"
            label="Duration (days)"
            value={days}
            disabled={permanent}
            onChange={(e) => setDays(e.target.value)}
            slotProps={{ htmlInput: { min: 1, max: 3650 } }}
            sx={{ width: 170 }}
          />
          <FormControlLabel control={<Checkbox checked={permanent} onChange={(e) => setPermanent(e.target.checked)} />} label="Permanent" />
          <TextField fullWidth={false} size="small" label="Reason (shown to the user)" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 360 }} required />
          <Button variant="contained" color="error" disabled={busy || reason.trim() === '' || (!permanent && !(Number(days) >= 1))} onClick={ban}>
            Ban
          </Button>
        </Stack>
        <Problem text={problem} sx={{ mt: 1 }} />
      </CardContent>
    </Card>
  );
}

function Bans({ bans, mayLift }: { bans: Ban[]; mayLift: boolean }) {
  return (
    <Box component="section" aria-label="Bans">
      <Typography component="h2" variant="h6">
        Bans
      </Typography>
      {bans.length === 0 ? (
        <Typography>No ban.</Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>Status</TableCell>
              <TableCell>Reason</TableCell>
              <TableCell>From</TableCell>
              <TableCell>Until</TableCell>
              <TableCell>By</TableCell>
              <TableCell>Lifted</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {bans.map((b) => (
              <TableRow key={b.id}>
                <TableCell>{b.status}</TableCell>
                <TableCell>{b.reason}</TableCell>
                <TableCell>{new Date(b.startsAt).toLocaleString()}</TableCell>
                <TableCell>{b.endsAt ? new Date(b.endsAt).toLocaleString() : 'permanent'}</TableCell>
                <TableCell>{b.bannedByUsername ?? 'operator'}</TableCell>
                <TableCell>{b.status === 'Lifted' ? `${b.liftReason ?? ''}` : mayLift && b.status === 'Active' ? <LiftBan ban={b} /> : '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}

function LiftBan({ ban }: { ban: Ban }) {
  const { busy, problem, run } = useApiAction();
  const [reason, setReason] = useState('');
  const lift = () => run(() => fishlog.POST('/api/admin/bans/{id}/lift', { params: { path: { id: ban.id } }, body: { reason } }), `The ban of ${ban.username} is lifted`);
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <TextField fullWidth={false} size="small" label="Reason for lifting" value={reason} onChange={(e) => setReason(e.target.value)} />
      <Button variant="outlined" disabled={busy || reason.trim() === ''} onClick={lift}>
        Lift
      </Button>
      <Problem text={problem} />
    </Stack>
  );
}
