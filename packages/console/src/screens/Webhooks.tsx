import { useState } from 'react';
import { CreateButton, Datagrid, FunctionField, List, SelectInput, Show, Title, TopToolbar, useRecordContext } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, Chip, Link, Stack, TextField, Typography } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { ActiveForm, Problem, useApiAction, useApiRead } from '../action';
import { Facts, RecordForm } from '../RecordForm';
import { choices, list, statusFilter, when } from '../RecordScreens';

type Webhook = components['schemas']['Webhook'];
type Delivery = components['schemas']['WebhookDelivery'];
type Created = components['schemas']['Webhook'] & { secret: string };

/**
 * Webhooks (Admin, Owner): the endpoints of integrators that receive signed deliveries of the
 * events they subscribe to. The list (Active by default, status in the URL); a new endpoint (its
 * signing secret shown this once); an endpoint's page with a test ping, deactivation or
 * reactivation with a reason, and its delivery log (status and page in the URL) where a Failed
 * delivery is sent again with a reason.
 */
export function WebhooksList() {
  return (
    <List
      title="Webhooks"
      filters={[statusFilter]}
      filterDefaultValues={{ status: 'Active' }}
      perPage={25}
      exporter={false}
      actions={
        <TopToolbar>
          <CreateButton label="New webhook" />
        </TopToolbar>
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <FunctionField
          label="URL"
          render={(w: Webhook) => (
            <Link component={RouterLink} to={`/webhooks/${w.id}/show`} onClick={(e) => e.stopPropagation()}>
              {w.url}
            </Link>
          )}
        />
        <FunctionField label="Description" render={(w: Webhook) => w.description ?? '—'} />
        <FunctionField label="Events" render={(w: Webhook) => list(w.eventTypes)} />
        <FunctionField label="Active" render={(w: Webhook) => (w.isActive ? 'yes' : `no (${w.deactivationReason ?? ''})`)} />
        <FunctionField label="Created" render={(w: Webhook) => when(w.createdAt)} />
      </Datagrid>
    </List>
  );
}

/** The event types an endpoint can subscribe to: every notice type, as GET /api/notifications/preferences lists them. */
function useEventTypes(): string[] {
  const { data } = useApiRead(() => fishlog.GET('/api/notifications/preferences'), []);
  return (data ?? []).map((p) => p.type);
}

/** POST /api/admin/webhooks: URL, event types, description and the reason; the secret is answered this once. */
export function WebhookCreate() {
  const types = useEventTypes();
  const [created, setCreated] = useState<Created>();
  return (
    <Box component="section" sx={{ p: 2 }}>
      <Title title="New webhook" />
      <Typography component="h1" variant="h5" gutterBottom>
        New webhook
      </Typography>
      {created ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          <Typography>
            {created.url} is registered. Its signing secret, shown this once (the receiver checks <code>X-Fishlog-Signature</code> with it):
          </Typography>
          <Typography component="code" sx={{ display: 'block', my: 1, fontFamily: 'monospace' }} aria-label="Signing secret">
            {created.secret}
          </Typography>
          <Link component={RouterLink} to={`/webhooks/${created.id}/show`}>
            Open the webhook
          </Link>
        </Alert>
      ) : null}
      {types.length === 0 ? (
        <Typography>Loading the event types…</Typography>
      ) : (
        <RecordForm
          label="New webhook"
          fields={[
            { source: 'url', label: 'URL (https://)', required: true },
            { source: 'description', label: 'Description' },
            { source: 'eventTypes', label: 'Events it receives', kind: 'multi', choices: types, required: true },
          ]}
          reason="required"
          submitLabel="Register"
          notice="Webhook registered"
          submit={(body) => fishlog.POST('/api/admin/webhooks', { body: body as never })}
          done={(data) => setCreated(data as Created)}
        />
      )}
    </Box>
  );
}

/** GET /api/admin/webhooks/{id}: the endpoint, a ping, deactivation or reactivation, and its deliveries. */
export function WebhookShow() {
  return (
    <Show title="Webhook" actions={false}>
      <WebhookPage />
    </Show>
  );
}

function WebhookPage() {
  const webhook = useRecordContext<Webhook>();
  if (!webhook) return null;
  return (
    <Stack spacing={3} sx={{ p: 2 }}>
      <Box>
        <Typography component="h1" variant="h5">
          {webhook.url}
          {webhook.isActive ? '' : ' (deactivated)'}
        </Typography>
        <Facts
          label={`About ${webhook.url}`}
          facts={[
            ['Description', webhook.description],
            ['Events', list(webhook.eventTypes)],
            ['Registered', when(webhook.createdAt)],
            ...(webhook.isActive ? [] : ([['Deactivated', `${when(webhook.deactivatedAt)}: ${webhook.deactivationReason ?? ''}`]] as const)),
          ]}
        />
      </Box>
      {webhook.isActive ? <Ping webhook={webhook} /> : null}
      <Box>
        <Typography component="h2" variant="h6" gutterBottom>
          {webhook.isActive ? 'Deactivate' : 'Reactivate'}
        </Typography>
        <ActiveForm
          name={webhook.url}
          active={webhook.isActive}
          submit={(reason) => fishlog.POST(webhook.isActive ? '/api/admin/webhooks/{id}/deactivate' : '/api/admin/webhooks/{id}/reactivate', { params: { path: { id: webhook.id } }, body: { reason } })}
        />
      </Box>
      <Deliveries webhook={webhook} />
    </Stack>
  );
}

/** POST …/ping: a signed `ping` delivery, queued; its outcome shows in the log below. */
function Ping({ webhook }: { webhook: Webhook }) {
  const { busy, problem, run } = useApiAction();
  return (
    <Box>
      <Typography component="h2" variant="h6" gutterBottom>
        Test
      </Typography>
      <Button variant="outlined" disabled={busy} onClick={() => void run(() => fishlog.POST('/api/admin/webhooks/{id}/ping', { params: { path: { id: webhook.id } } }), 'Ping queued: its delivery shows below')}>
        Send a test ping
      </Button>
      <Problem text={problem} sx={{ mt: 1 }} />
    </Box>
  );
}

const DELIVERY_STATUSES = ['Pending', 'Succeeded', 'Failed'] as const;

/** GET …/deliveries: newest first, by status; each with its attempts, last answer and error; a Failed one can be sent again. */
function Deliveries({ webhook }: { webhook: Webhook }) {
  return (
    <Box component="section" aria-labelledby="deliveries-heading">
      <Typography component="h2" variant="h6" id="deliveries-heading">
        Deliveries
      </Typography>
      <List
        resource="webhook-deliveries"
        title={' '}
        filter={{ webhookId: webhook.id }}
        filters={[<SelectInput key="status" source="status" label="Delivery status" choices={choices(DELIVERY_STATUSES)} alwaysOn />]}
        perPage={10}
        exporter={false}
        actions={false}
        empty={<Typography sx={{ py: 1 }}>No delivery yet.</Typography>}
      >
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <FunctionField label="Created" render={(d: Delivery) => when(d.createdAt)} />
          <FunctionField label="Event" render={(d: Delivery) => d.type} />
          <FunctionField
            label="Status"
            render={(d: Delivery) => <Chip size="small" label={d.status} color={d.status === 'Failed' ? 'error' : d.status === 'Succeeded' ? 'success' : 'default'} variant={d.status === 'Failed' ? 'filled' : 'outlined'} />}
          />
          <FunctionField label="Attempts" render={(d: Delivery) => d.attempts} />
          <FunctionField label="Last answer" render={(d: Delivery) => (d.responseStatus === null ? '—' : `HTTP ${d.responseStatus}${d.responseBody ? `: ${d.responseBody.slice(0, 120)}` : ''}`)} />
          <FunctionField label="Error" render={(d: Delivery) => d.error ?? '—'} />
          <FunctionField label="Last attempt" render={(d: Delivery) => (d.lastAttemptAt ? when(d.lastAttemptAt) : '—')} />
          <FunctionField label="Send again" render={(d: Delivery) => (d.status === 'Failed' && webhook.isActive ? <Retry webhook={webhook} delivery={d} /> : '—')} />
        </Datagrid>
      </List>
    </Box>
  );
}

/** POST …/deliveries/{deliveryId}/retry with the reason the API requires: back to Pending with a fresh round of retries. */
function Retry({ webhook, delivery }: { webhook: Webhook; delivery: Delivery }) {
  const { busy, problem, run } = useApiAction();
  const [reason, setReason] = useState('');
  const retry = () =>
    run(() => fishlog.POST('/api/admin/webhooks/{id}/deliveries/{deliveryId}/retry', { params: { path: { id: webhook.id, deliveryId: delivery.id } }, body: { reason } }), `The ${delivery.type} delivery is sent again`);
  return (
    <Box component="form" aria-label={`Send the ${delivery.type} delivery of ${when(delivery.createdAt)} again`} onSubmit={(e) => (e.preventDefault(), void retry())}>
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField fullWidth={false} size="small" label="Reason to send again" value={reason} onChange={(e) => setReason(e.target.value)} required sx={{ minWidth: 200 }} />
        <Button type="submit" variant="outlined" disabled={busy || reason.trim() === ''}>
          Retry
        </Button>
      </Stack>
      <Problem text={problem} sx={{ mt: 1 }} />
    </Box>
  );
}
