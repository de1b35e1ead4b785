import { useState } from 'react';
import { BooleanField, Datagrid, FunctionField, List, SearchInput, SelectInput, Show, TextField as RaTextField, usePermissions, useRecordContext } from 'react-admin';
import { Alert, Box, Button, FormControlLabel, Stack, Switch, TextField, Typography } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { ActiveForm, Problem, TableSection, useApiAction, useApiRead } from '../action';
import { may, type MyAccess } from '../access';
import { announceMaintenance } from '../maintenance';

type Setting = components['schemas']['SystemSetting'];
type HistoryEntry = components['schemas']['SystemSettingHistoryEntry'];

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Name or description" aria-label="Search settings" />,
  <SelectInput key="category" source="category" label="Category" choices={['General', 'Features', 'Integrations', 'Email'].map((c) => ({ id: c, name: c }))} alwaysOn />,
  <SelectInput key="status" source="status" label="Status" choices={['Active', 'Inactive', 'All'].map((s) => ({ id: s, name: s }))} alwaysOn />,
];

const shown = (s: Pick<Setting, 'value' | 'isSet' | 'type'>) => (!s.isSet ? 'not set' : s.type === 'Json' ? JSON.stringify(s.value) : String(s.value));

/** GET /api/admin/system-settings (Settings.View): by category and name, sensitive values masked by the API. */
export function SettingsList() {
  return (
    <List title="System settings" filters={filters} filterDefaultValues={{ status: 'Active' }} perPage={25} exporter={false}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <RaTextField source="name" sortable={false} />
        <RaTextField source="category" sortable={false} />
        <FunctionField label="Value" render={(s: Setting) => shown(s)} />
        <BooleanField source="requiresRestart" label="Restart" sortable={false} />
        <BooleanField source="isActive" label="Active" sortable={false} />
      </Datagrid>
    </List>
  );
}

/** One setting (GET /api/admin/system-settings/{name}): its value, a change with a reason, deactivation, and its history. */
export function SettingShow() {
  return (
    <Show title="System setting" actions={false}>
      <SettingPage />
    </Show>
  );
}

function SettingPage() {
  const setting = useRecordContext<Setting>();
  const { permissions: access } = usePermissions<MyAccess>();
  if (!setting) return null;
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Box>
        <Typography component="h1" variant="h5">
          {setting.name}
        </Typography>
        <Typography>{setting.description}</Typography>
        <Typography variant="body2" color="text.secondary">
          {setting.category} · {setting.type}
          {setting.isSensitive ? ' · sensitive (stored encrypted, shown masked)' : ''}
          {setting.requiresRestart ? ' · applies after the servers restart' : ' · applies at once in every server'} · version {setting.version}
          {setting.isActive ? '' : ' · deactivated: the built-in default applies'}
        </Typography>
        <Typography sx={{ mt: 1 }}>
          Value: <strong>{shown(setting)}</strong>
        </Typography>
      </Box>
      {may(access, 'Settings.Modify') && setting.isActive ? <ValueForm setting={setting} /> : null}
      {may(access, 'Settings.Delete') ? <SettingActive setting={setting} /> : null}
      <History setting={setting} />
    </Stack>
  );
}

/** PUT /api/admin/system-settings/{name}: the value typed by the setting's type, and the reason. */
function ValueForm({ setting }: { setting: Setting }) {
  const { busy, problem, setProblem, run } = useApiAction();
  const initial = setting.isSensitive ? '' : setting.type === 'Json' ? JSON.stringify(setting.value, null, 2) : setting.value === null ? '' : String(setting.value);
  const [text, setText] = useState(initial);
  const [flag, setFlag] = useState(setting.value === true);
  const [reason, setReason] = useState('');

  function parsed(): { value: unknown } | { error: string } {
    if (setting.type === 'Bool') return { value: flag };
    if (setting.type === 'Int') return /^-?\d+$/.test(text.trim()) ? { value: Number(text) } : { error: 'Enter a whole number.' };
    if (setting.type === 'Json') {
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { error: 'Enter valid JSON.' };
      }
    }
    return { value: text };
  }

  async function save() {
    const input = parsed();
    if ('error' in input) return setProblem(input.error);
    // What was typed stays when the API refuses it (its 400 names the constraint).
    const saved = await run(() => fishlog.PUT('/api/admin/system-settings/{name}', { params: { path: { name: setting.name } }, body: { value: input.value as never, reason } }), `${setting.name} changed`);
    if (!saved) return;
    setReason('');
    if (setting.name === 'MaintenanceMode') announceMaintenance();
  }

  return (
    <Box component="form" aria-label={`Change ${setting.name}`} onSubmit={(e) => (e.preventDefault(), void save())}>
      <Typography component="h2" variant="h6">
        Change
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mt: 1 }}>
        {setting.type === 'Bool' ? (
          <FormControlLabel control={<Switch checked={flag} onChange={(e) => setFlag(e.target.checked)} />} label={`${setting.name} ${flag ? 'on' : 'off'}`} />
        ) : (
          <TextField
            fullWidth={false}
            size="small"
            label={setting.isSensitive ? 'New value (not shown again)' : 'Value'}
            type={setting.isSensitive ? 'password' : 'text'}
            multiline={setting.type === 'Json'}
            value={text}
            onChange={(e) => setText(e.target.value)}
            sx={{ minWidth: 320 }}
          />
        )}
        <TextField fullWidth={false} size="small" label="Reason for the change" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 320 }} required />
        <Button type="submit" variant="contained" disabled={busy || reason.trim() === ''}>
          Save
        </Button>
      </Stack>
      <Problem text={problem} sx={{ mt: 1 }} />
    </Box>
  );
}

/** Deactivate (the built-in default applies) or reactivate, with the reason the API requires (Settings.Delete, the Owner's). */
function SettingActive({ setting }: { setting: Setting }) {
  const path = setting.isActive ? '/api/admin/system-settings/{name}/deactivate' : '/api/admin/system-settings/{name}/reactivate';
  return <ActiveForm name={setting.name} active={setting.isActive} submit={(reason) => fishlog.POST(path, { params: { path: { name: setting.name } }, body: { reason } })} />;
}

/** GET /api/admin/system-settings/{name}/history: newest first, the first page (20 changes). */
function History({ setting }: { setting: Setting }) {
  const { data: rows, problem } = useApiRead(
    () => fishlog.GET('/api/admin/system-settings/{name}/history', { params: { path: { name: setting.name }, query: { pageSize: 20 } } }),
    [setting.name, setting.version, setting.isActive],
  );
  if (problem) return <Alert severity="error">{problem}</Alert>;
  return (
    <TableSection
      label="History"
      columns={['When', 'Change', 'Value', 'Reason']}
      rows={(rows ?? []).map((h: HistoryEntry) => ({
        key: `${h.version}-${h.changedAt}`,
        cells: [new Date(h.changedAt).toLocaleString(), h.change, h.value === null ? '—' : typeof h.value === 'string' ? h.value : JSON.stringify(h.value), h.reason ?? '—'],
      }))}
    />
  );
}
