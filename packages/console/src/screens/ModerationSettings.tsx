import { useState } from 'react';
import { Title } from 'react-admin';
import { Alert, Box, Button, Checkbox, FormControlLabel, MenuItem, Stack, TextField, Typography } from '@mui/material';
import type { components, operations } from '@fishlog/client';
import { fishlog } from '../api';
import { Problem, TableSection, useApiAction, useApiRead } from '../action';
import { Facts } from '../RecordForm';
import { when } from '../RecordScreens';

type Settings = components['schemas']['ModerationSettings'];
type Body = operations['updateModerationSettings']['requestBody']['content']['application/json'];

const usd = (n: number | null) => (n === null ? 'no limit' : n.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 4 }));
const percent = (n: number) => `${(n * 100).toFixed(1)} %`;

/**
 * Moderation settings (Admin, Owner; GET/PUT /api/admin/moderation-settings): which provider rates
 * posts, comments and photos (local or a remote one), its model, base URL and API key (write-only:
 * only whether one is set is shown), the thresholds per category, automatic rejection, the
 * monthly budget and the cost per call, the timeout; above, this month's figures. A change sends
 * only the fields that changed; the API's refusal (e.g. openai without a key) is shown, what was
 * typed kept.
 */
export default function ModerationSettings() {
  const [version, setVersion] = useState(0);
  const { data, problem } = useApiRead(() => fishlog.GET('/api/admin/moderation-settings'), [version]);
  return (
    <Stack spacing={3} sx={{ p: 2 }}>
      <Title title="Moderation settings" />
      <Typography component="h1" variant="h5">
        Moderation settings
      </Typography>
      <Problem text={problem} />
      {data ? (
        <>
          <ThisMonth settings={data} />
          <SettingsForm key={data.updatedAt ?? 'defaults'} settings={data} saved={() => setVersion((v) => v + 1)} />
        </>
      ) : null}
    </Stack>
  );
}

function ThisMonth({ settings }: { settings: Settings }) {
  const d = settings.dashboard;
  return (
    <Box component="section" aria-labelledby="month-heading">
      <Typography component="h2" variant="h6" id="month-heading">
        This month ({d.month})
      </Typography>
      {d.budgetExceeded ? (
        <Alert severity="warning" sx={{ my: 1 }}>
          The monthly budget ({usd(d.budgetUsd)}) is spent: the local provider rates content until the month ends or the budget is raised.
        </Alert>
      ) : null}
      <Facts
        label={`Moderation in ${d.month}`}
        facts={[
          ['Provider calls', `${d.calls} (${d.failed} failed or timed out), ${d.averageLatencyMs} ms on average`],
          ['Flagged', `${d.flagged} (${percent(d.flagRate)})`],
          ['Cost', `${usd(d.costUsd)} of ${usd(d.budgetUsd)}${d.budgetRemainingUsd === null ? '' : `, ${usd(d.budgetRemainingUsd)} left`}`],
          ['Waiting for review', d.pendingReview],
          ['Last changed', settings.updatedAt ? when(settings.updatedAt) : 'never (the defaults)'],
        ]}
      />
      {d.byProvider.length > 0 ? (
        <TableSection
          label="By provider"
          columns={['Provider', 'Model', 'Calls', 'Flagged', 'Failed', 'Cost', 'Average latency']}
          rows={d.byProvider.map((p) => ({ key: `${p.provider}/${p.model}`, cells: [p.provider, p.model, p.calls, p.flagged, p.failed, usd(p.costUsd), `${p.averageLatencyMs} ms`] }))}
        />
      ) : null}
    </Box>
  );
}

/** The form's text for each field, and what the API takes for it ('' is null: the default, or no limit). */
interface Typed {
  provider: string;
  model: string;
  baseUrl: string;
  apiKey: string;
  removeKey: boolean;
  thresholds: string;
  autoRejectThreshold: string;
  monthlyBudgetUsd: string;
  costPerCallUsd: string;
  timeoutMs: string;
}

const thresholdsText = (t: Record<string, number>) =>
  Object.entries(t)
    .map(([category, score]) => `${category}=${score}`)
    .join(', ');

function typedOf(s: Settings): Typed {
  return {
    provider: s.provider,
    model: s.model ?? '',
    baseUrl: s.baseUrl ?? '',
    apiKey: '',
    removeKey: false,
    thresholds: thresholdsText(s.thresholds),
    autoRejectThreshold: s.autoRejectThreshold === null ? '' : String(s.autoRejectThreshold),
    monthlyBudgetUsd: s.monthlyBudgetUsd === null ? '' : String(s.monthlyBudgetUsd),
    costPerCallUsd: String(s.costPerCallUsd),
    timeoutMs: String(s.timeoutMs),
  };
}

/** "harassment=0.4, spam=0.8" → { harassment: 0.4, spam: 0.8 }. */
function parseThresholds(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [category, score] = part.split('=').map((p) => p.trim());
    if (!category || score === undefined || score === '' || Number.isNaN(Number(score))) throw new Error(`Thresholds: "${part}" is not category=score (e.g. harassment=0.4).`);
    out[category] = Number(score);
  }
  return out;
}

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

/** Only what changed: PUT is partial (omitted fields keep their value). */
function changes(before: Typed, now: Typed): Body {
  const body: Record<string, unknown> = {};
  if (now.provider !== before.provider) body.provider = now.provider;
  if (now.model !== before.model) body.model = now.model.trim() || null;
  if (now.baseUrl !== before.baseUrl) body.baseUrl = now.baseUrl.trim() || null;
  if (now.apiKey.trim() !== '') body.apiKey = now.apiKey.trim();
  else if (now.removeKey) body.apiKey = null;
  if (now.thresholds !== before.thresholds) body.thresholds = parseThresholds(now.thresholds);
  if (now.autoRejectThreshold !== before.autoRejectThreshold) body.autoRejectThreshold = numberOrNull(now.autoRejectThreshold);
  if (now.monthlyBudgetUsd !== before.monthlyBudgetUsd) body.monthlyBudgetUsd = numberOrNull(now.monthlyBudgetUsd);
  if (now.costPerCallUsd !== before.costPerCallUsd) body.costPerCallUsd = Number(now.costPerCallUsd);
  if (now.timeoutMs !== before.timeoutMs) body.timeoutMs = Number(now.timeoutMs);
  return body as Body;
}

function SettingsForm({ settings, saved }: { settings: Settings; saved: () => void }) {
  const before = typedOf(settings);
  const [typed, setTyped] = useState<Typed>(before);
  const { busy, problem, setProblem, run } = useApiAction();
  const set = (field: keyof Typed) => (e: { target: { value: string } }) => setTyped((t) => ({ ...t, [field]: e.target.value }));
  const provider = settings.providers.find((p) => p.name === typed.provider);

  async function save() {
    let body: Body;
    try {
      body = changes(before, typed);
    } catch (error) {
      return setProblem((error as Error).message);
    }
    if (Object.keys(body).length === 0) return setProblem('Nothing changed.');
    if (await run(() => fishlog.PUT('/api/admin/moderation-settings', { body }), 'Moderation settings saved')) saved();
  }

  const field = (name: keyof Typed, label: string, extra: { helperText?: string; width?: number; type?: string } = {}) => (
    <TextField
      fullWidth={false}
      size="small"
      label={label}
      value={typed[name] as string}
      onChange={set(name)}
      helperText={extra.helperText}
      type={extra.type}
      autoComplete={extra.type === 'password' ? 'off' : undefined}
      sx={{ minWidth: extra.width ?? 220 }}
    />
  );

  return (
    <Box component="form" aria-label="Change the moderation settings" onSubmit={(e) => (e.preventDefault(), void save())}>
      <Typography component="h2" variant="h6" gutterBottom>
        Provider and thresholds
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start' }}>
        <TextField
          fullWidth={false}
          select
          size="small"
          label="Provider"
          value={typed.provider}
          onChange={set('provider')}
          helperText={provider ? `${provider.description}${provider.remote ? ' (remote)' : ''}` : undefined}
          sx={{ minWidth: 220, maxWidth: 420 }}
        >
          {settings.providers.map((p) => (
            <MenuItem key={p.name} value={p.name}>
              {p.name}
            </MenuItem>
          ))}
        </TextField>
        {field('model', 'Model', { helperText: `Empty: the provider's default (${provider?.defaultModel ?? '—'})` })}
        {field('baseUrl', 'Base URL (https)', { helperText: "Empty: the provider's default", width: 320 })}
        <Box>
          {field('apiKey', settings.apiKeySet ? 'New API key (one is set)' : 'API key (none set)', { type: 'password', helperText: 'Write-only: never shown again' })}
          {settings.apiKeySet ? (
            <FormControlLabel control={<Checkbox checked={typed.removeKey} onChange={(e) => setTyped((t) => ({ ...t, removeKey: e.target.checked }))} />} label="Remove the stored key" />
          ) : null}
        </Box>
      </Stack>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start', mt: 1.5 }}>
        {field('thresholds', 'Thresholds per category', { helperText: 'category=score from 0 to 1, separated by commas (e.g. harassment=0.4, spam=0.8); others follow the provider', width: 420 })}
        {field('autoRejectThreshold', 'Auto-reject from score', { helperText: 'Empty: never automatically', width: 240 })}
        {field('monthlyBudgetUsd', 'Monthly budget (USD)', { helperText: 'Empty: no limit; beyond it, the local provider' })}
        {field('costPerCallUsd', 'Cost per call (USD)')}
        {field('timeoutMs', 'Timeout (ms)', { helperText: 'Then the content is held for review' })}
      </Stack>
      <Button type="submit" variant="contained" disabled={busy} sx={{ mt: 1.5 }}>
        Save
      </Button>
      <Problem text={problem} sx={{ mt: 1 }} />
    </Box>
  );
}
