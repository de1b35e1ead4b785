import { useEffect, useState } from 'react';
import { List, SelectInput, usePermissions } from 'react-admin';
import {
  Alert,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  FormControlLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog, problemText } from '../api';
import { Problem, useApiAction } from '../action';
import { CardList } from '../CardList';
import type { MyAccess } from '../access';

type Employee = components['schemas']['Employee'];
type Grant = components['schemas']['PermissionGrant'];

const filters = [
  <SelectInput
    key="role"
    source="role"
    label="Role"
    alwaysOn
    choices={[
      { id: 'Admin', name: 'Admins' },
      { id: 'Moderator', name: 'Moderators' },
    ]}
  />,
];

/**
 * The Owner's screen (GET /api/admin/employees): admins and moderators with the grants and denials
 * in force; on each, grant or deny a permission with a reason (and, for Users.Ban, the longest ban
 * it allows), and the permission history. The API refuses what only the Owner may hold.
 */
export default function Employees() {
  return (
    <List title="Employees" filters={filters} perPage={10} exporter={false} empty={<Typography sx={{ p: 3 }}>No admin or moderator yet.</Typography>}>
      <CardList<Employee> label="Employees" card={(employee) => <EmployeeCard employee={employee} />} />
    </List>
  );
}


const grantLabel = (g: Grant) => `${g.isGranted ? '' : 'Denied: '}${g.permission}${g.restrictions?.maxBanDays !== undefined ? ` (≤ ${String(g.restrictions.maxBanDays)} days)` : ''}`;

function EmployeeCard({ employee }: { employee: Employee }) {
  const [showHistory, setShowHistory] = useState(false);
  return (
    <Card component="article" aria-label={`Employee ${employee.username}`} variant="outlined">
      <CardContent>
        <Typography component="h2" variant="h6">
          {employee.username} · {employee.role}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {employee.email ?? 'no e-mail'}
        </Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, my: 1 }} aria-label="Permissions in force" component="ul" style={{ listStyle: 'none', padding: 0 }}>
          {employee.permissions.length === 0 ? <Typography component="li">No grant: {employee.role === 'Admin' ? 'every permission an Admin holds by default' : 'nothing beyond reading'}.</Typography> : null}
          {employee.permissions.map((g) => (
            <li key={g.id}>
              <Chip label={grantLabel(g)} color={g.isGranted ? 'primary' : 'default'} variant={g.isGranted ? 'filled' : 'outlined'} title={g.reason ?? undefined} />
            </li>
          ))}
        </Stack>
        <PermissionForm employee={employee} />
      </CardContent>
      <CardActions>
        <Button onClick={() => setShowHistory(!showHistory)} aria-expanded={showHistory}>
          {showHistory ? 'Hide' : 'Show'} permission history
        </Button>
      </CardActions>
      {showHistory ? <History employee={employee} /> : null}
    </Card>
  );
}

/** Grant or deny (POST /api/admin/employees/{userId}/permissions): the names the API knows, from what the Owner holds. */
function PermissionForm({ employee }: { employee: Employee }) {
  const { permissions: access } = usePermissions<MyAccess>();
  const { busy, problem, run } = useApiAction();
  const [permission, setPermission] = useState('');
  const [isGranted, setIsGranted] = useState(true);
  const [reason, setReason] = useState('');
  const [maxBanDays, setMaxBanDays] = useState('');
  // Every name in both spellings (Content.Approve and moderation.approve are one permission; the API keeps the canonical one).
  const names = access?.permissions ?? [];
  const banCap = permission === 'Users.Ban' && isGranted;

  async function save() {
    const restrictions = banCap && maxBanDays !== '' ? { maxBanDays: Number(maxBanDays) } : undefined;
    const saved = await run(
      () =>
        fishlog.POST('/api/admin/employees/{userId}/permissions', {
          params: { path: { userId: employee.id } },
          body: { permission, isGranted, reason, ...(restrictions ? { restrictions } : {}) },
        }),
      `${employee.username}: ${permission} ${isGranted ? 'granted' : 'denied'}`,
    );
    if (!saved) return;
    setPermission('');
    setReason('');
    setMaxBanDays('');
  }

  const label = `Change a permission of ${employee.username}`;
  return (
    <Stack component="form" aria-label={label} direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mt: 1 }} onSubmit={(e) => (e.preventDefault(), void save())}>
      <TextField select fullWidth={false} size="small" label="Permission" value={permission} onChange={(e) => setPermission(e.target.value)} sx={{ minWidth: 220 }} required>
        {names.map((name) => (
          <MenuItem key={name} value={name}>
            {name}
          </MenuItem>
        ))}
      </TextField>
      <RadioGroup row aria-label="Grant or deny" value={isGranted ? 'grant' : 'deny'} onChange={(e) => setIsGranted(e.target.value === 'grant')}>
        <FormControlLabel value="grant" control={<Radio />} label="Grant" />
        <FormControlLabel value="deny" control={<Radio />} label="Deny" />
      </RadioGroup>
      {banCap ? (
        <TextField fullWidth={false} size="small" type="number" label="Longest ban (days)" value={maxBanDays} onChange={(e) => setMaxBanDays(e.target.value)} slotProps={{ htmlInput: { min: 1 } }} sx={{ width: 170 }} />
      ) : null}
      <TextField fullWidth={false} size="small" label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 320 }} required />
      <Button type="submit" variant="contained" disabled={busy || permission === '' || reason.trim() === ''}>
        Save
      </Button>
      <Problem text={problem} sx={{ width: '100%' }} />
    </Stack>
  );
}

/** The permission history, newest first (GET /api/admin/employees/{userId}/permissions/history), a page at a time. */
function History({ employee }: { employee: Employee }) {
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Grant[]>();
  const [total, setTotal] = useState(0);
  const [problem, setProblem] = useState<string>();
  const pageSize = 10;
  useEffect(() => {
    let gone = false;
    void fishlog.GET('/api/admin/employees/{userId}/permissions/history', { params: { path: { userId: employee.id }, query: { page, pageSize } } }).then(({ data, error, response }) => {
      if (gone) return;
      if (error) return setProblem(problemText(error));
      setRows(data);
      setTotal(Number(response.headers.get('x-total-count') ?? data.length));
    }, (error: unknown) => !gone && setProblem(problemText(error)));
    return () => {
      gone = true;
    };
  }, [employee.id, page]);
  if (problem) return <Alert severity="error">{problem}</Alert>;
  if (!rows) return null;
  return (
    <CardContent component="section" aria-label={`Permission history of ${employee.username}`}>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>When</TableCell>
            <TableCell>Change</TableCell>
            <TableCell>Reason</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((g) => (
            <TableRow key={g.id}>
              <TableCell>{new Date(g.grantedAt).toLocaleString()}</TableCell>
              <TableCell>{grantLabel(g)}</TableCell>
              <TableCell>{g.reason ?? '—'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {total > pageSize ? (
        <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
          <Button disabled={page === 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <Typography variant="body2">
            Page {page} of {Math.ceil(total / pageSize)}
          </Typography>
          <Button disabled={page * pageSize >= total} onClick={() => setPage(page + 1)}>
            Older
          </Button>
        </Stack>
      ) : null}
    </CardContent>
  );
}
