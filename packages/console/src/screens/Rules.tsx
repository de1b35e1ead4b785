import { useState } from 'react';
import { BooleanField, Datagrid, DateField, FunctionField, List, SelectInput, TextField as RaTextField, TopToolbar, useRecordContext } from 'react-admin';
import { Box, Button, FormControlLabel, FormGroup, FormLabel, MenuItem, Checkbox, Stack, TextField, Typography } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { Problem, useApiAction } from '../action';

type Rule = components['schemas']['ModerationRule'];
type Kind = Rule['kind'];
type Action = Rule['action'];
type ContentType = Rule['appliesTo'][number];

const filters = [
  <SelectInput key="isActive" source="isActive" label="State" choices={[{ id: 'true', name: 'Active' }, { id: 'false', name: 'Deactivated' }]} alwaysOn />,
  <SelectInput key="action" source="action" label="Action" choices={[{ id: 'Flag', name: 'Flag for review' }, { id: 'Reject', name: 'Reject' }]} alwaysOn />,
];

/**
 * Moderation rules (Admin, Owner; GET /api/admin/moderation-rules): keyword and regular-expression
 * rules that flag or reject posts and comments, with their usage; a new rule, and deactivation or
 * reactivation with a reason on each. Regular expressions take RE2 syntax: the API refuses one RE2
 * cannot compile (400 naming the construct, e.g. a backreference, and what to write instead), and
 * lists a stored one it cannot compile with its `patternProblem` (such a rule does not run).
 */
export default function Rules() {
  return (
    <>
      <NewRule />
      <List title="Moderation rules" filters={filters} perPage={25} exporter={false} actions={<TopToolbar />} empty={<Typography sx={{ p: 3 }}>No rule yet.</Typography>}>
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <RaTextField source="name" sortable={false} />
          <FunctionField label="Rule" render={(r: Rule) => `${r.kind === 'Regex' ? 'regex' : 'keyword'}: ${r.pattern}${r.patternProblem ? ` (not run: RE2 cannot compile it, it ${r.patternProblem})` : ''}`} />
          <FunctionField label="On" render={(r: Rule) => r.appliesTo.join(', ')} />
          <RaTextField source="action" sortable={false} />
          <FunctionField label="Matched" render={(r: Rule) => String(r.usage.matchCount)} />
          <DateField source="usage.lastMatchedAt" label="Last match" showTime sortable={false} emptyText="never" />
          <BooleanField source="isActive" label="Active" sortable={false} />
          <FunctionField label="Deactivate or reactivate" render={() => <RuleState />} />
        </Datagrid>
      </List>
    </>
  );
}

function NewRule() {
  const { busy, problem, run } = useApiAction();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('Keyword');
  const [pattern, setPattern] = useState('');
  const [action, setAction] = useState<Action>('Flag');
  const [appliesTo, setAppliesTo] = useState<ContentType[]>(['Post', 'Comment']);
  const [reason, setReason] = useState('');

  async function create() {
    const body = { name, kind, pattern, action, appliesTo, ...(action === 'Reject' ? { reason } : {}) };
    // What was typed stays when the API refuses it (a regular expression RE2 cannot compile, a duplicate name…).
    if (!(await run(() => fishlog.POST('/api/admin/moderation-rules', { body }), `Rule "${name}" added`))) return;
    setName('');
    setPattern('');
    setReason('');
  }

  return (
    <Box component="form" aria-label="New moderation rule" sx={{ p: 2 }} onSubmit={(e) => (e.preventDefault(), void create())}>
      <Typography component="h2" variant="h6">
        New rule
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mt: 1 }}>
        <TextField fullWidth={false} size="small" label="Name" value={name} onChange={(e) => setName(e.target.value)} required />
        <TextField select fullWidth={false} size="small" label="Kind" value={kind} onChange={(e) => setKind(e.target.value as Kind)} sx={{ minWidth: 170 }}>
          <MenuItem value="Keyword">Keyword</MenuItem>
          <MenuItem value="Regex">Regular expression</MenuItem>
        </TextField>
        <TextField
          fullWidth={false}
          size="small"
          label={kind === 'Regex' ? 'Regular expression' : 'Keyword'}
          helperText={kind === 'Regex' ? 'RE2 syntax, ignoring case: no backreferences or lookaround' : undefined}
          value={pattern}
          onChange={(e) => setPattern(e.target.value)}
          sx={{ minWidth: 260 }}
          required
        />
        <TextField select fullWidth={false} size="small" label="Action" value={action} onChange={(e) => setAction(e.target.value as Action)} sx={{ minWidth: 170 }}>
          <MenuItem value="Flag">Flag for review</MenuItem>
          <MenuItem value="Reject">Reject</MenuItem>
        </TextField>
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <FormLabel component="legend">Applies to</FormLabel>
          <FormGroup row>
            {(['Post', 'Comment'] as const).map((type) => (
              <FormControlLabel
                key={type}
                label={`${type}s`}
                control={<Checkbox checked={appliesTo.includes(type)} onChange={(e) => setAppliesTo(e.target.checked ? [...appliesTo, type] : appliesTo.filter((t) => t !== type))} />}
              />
            ))}
          </FormGroup>
        </Box>
        {action === 'Reject' ? (
          <TextField fullWidth={false} size="small" label="Reason the author reads" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 320 }} required />
        ) : null}
        <Button type="submit" variant="contained" disabled={busy || name.trim() === '' || pattern === '' || appliesTo.length === 0 || (action === 'Reject' && reason.trim() === '')}>
          Add rule
        </Button>
      </Stack>
      <Problem text={problem} sx={{ mt: 1 }} />
    </Box>
  );
}

/** Deactivate or reactivate the row's rule, with the reason the audit log keeps (rules are never deleted). */
function RuleState() {
  const rule = useRecordContext<Rule>();
  const { busy, problem, run } = useApiAction();
  const [reason, setReason] = useState('');
  if (!rule) return null;
  const verb = rule.isActive ? 'Deactivate' : 'Reactivate';
  const submit = () =>
    run(
      () => fishlog.POST(rule.isActive ? '/api/admin/moderation-rules/{id}/deactivate' : '/api/admin/moderation-rules/{id}/reactivate', { params: { path: { id: rule.id } }, body: { reason } }),
      `Rule "${rule.name}" ${rule.isActive ? 'deactivated' : 'reactivated'}`,
    );
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <TextField fullWidth={false} size="small" label={`Reason to ${verb.toLowerCase()} ${rule.name}`} value={reason} onChange={(e) => setReason(e.target.value)} />
      <Button variant="outlined" disabled={busy || reason.trim() === ''} onClick={() => void submit()}>
        {verb}
      </Button>
      <Problem text={problem} />
    </Stack>
  );
}
