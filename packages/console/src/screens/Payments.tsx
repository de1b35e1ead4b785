import { useState } from 'react';
import { Datagrid, DateField, FunctionField, List, SelectInput, Show, TextField as RaTextField, usePermissions, useRecordContext } from 'react-admin';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { Problem, useApiAction } from '../action';
import { may, type MyAccess } from '../access';
import { money } from '../format';

type Payment = components['schemas']['Payment'];

const STATUSES = ['Pending', 'Succeeded', 'Failed', 'PartiallyRefunded', 'Refunded'].map((s) => ({ id: s, name: s }));
const KINDS = ['CharterDeposit', 'CharterBalance', 'TournamentFee'].map((k) => ({ id: k, name: k }));

const filters = [
  <SelectInput key="status" source="status" label="Status" choices={STATUSES} alwaysOn />,
  <SelectInput key="kind" source="kind" label="Kind" choices={KINDS} alwaysOn />,
];


/** GET /api/admin/payments (Admin, Owner): newest first, filtered by status (Failed: the failed ones) and kind, in the URL. */
export function PaymentsList() {
  return (
    <List title="Payments" filters={filters} perPage={25} exporter={false} sort={{ field: 'createdAt', order: 'DESC' }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <DateField source="createdAt" label="Created" showTime sortable={false} />
        <RaTextField source="kind" sortable={false} />
        <RaTextField source="description" sortable={false} emptyText="—" />
        <FunctionField source="status" sortable={false} render={(p: Payment) => (p.failureReason ? `${p.status} (${p.failureReason})` : p.status)} />
        <FunctionField label="Amount" render={(p: Payment) => money(p.amountCents, p.currency)} />
        <FunctionField label="Refunded" render={(p: Payment) => money(p.refundedCents, p.currency)} />
        <FunctionField label="Card" render={(p: Payment) => (p.cardLast4 ? `•••• ${p.cardLast4}` : '—')} />
      </Datagrid>
    </List>
  );
}

/** GET /api/admin/payments/{id}: the payment, its refund ledger, and (with payments.refund) a refund. */
export function PaymentShow() {
  return (
    <Show title="Payment" actions={false}>
      <PaymentPage />
    </Show>
  );
}

function PaymentPage() {
  const payment = useRecordContext<Payment>();
  const { permissions: access } = usePermissions<MyAccess>();
  if (!payment) return null;
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Box>
        <Typography component="h1" variant="h5">
          {payment.description ?? payment.kind} · {money(payment.amountCents, payment.currency)}
        </Typography>
        <Typography>
          Status: <strong>{payment.status}</strong>
          {payment.failureReason ? ` (${payment.failureReason})` : ''} · {payment.kind} · {payment.provider}
          {payment.cardLast4 ? ` · card •••• ${payment.cardLast4}` : ''} · created {new Date(payment.createdAt).toLocaleString()}
        </Typography>
        <Typography aria-label="Ledger totals">
          Refunded {money(payment.refundedCents, payment.currency)} · still refundable {money(payment.refundableCents, payment.currency)}
        </Typography>
      </Box>
      <Box component="section" aria-label="Refunds">
        <Typography component="h2" variant="h6">
          Refunds
        </Typography>
        {payment.refunds.length === 0 ? (
          <Typography>None.</Typography>
        ) : (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>When</TableCell>
                <TableCell>Amount</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Reason</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {payment.refunds.map((r) => (
                <TableRow key={r.id}>
                  <TableCell>{new Date(r.createdAt).toLocaleString()}</TableCell>
                  <TableCell>{money(r.amountCents, payment.currency)}</TableCell>
                  <TableCell>{r.failureReason ? `${r.status} (${r.failureReason})` : r.status}</TableCell>
                  <TableCell>{r.reason}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Box>
      {may(access, 'payments.refund') && payment.refundableCents > 0 ? <RefundForm payment={payment} /> : null}
    </Stack>
  );
}

/**
 * A refund (POST /api/admin/payments/{id}/refund) after a confirmation that shows the amount and
 * what remains. One Idempotency-Key per refund the person means: a retry after a network failure
 * sends the same key, so the API refunds at most once.
 */
function RefundForm({ payment }: { payment: Payment }) {
  const { busy, problem, run } = useApiAction();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const cents = amount.trim() === '' ? payment.refundableCents : Math.round(Number(amount) * 100);
  const valid = Number.isInteger(cents) && cents > 0 && reason.trim().length >= 3;

  async function refund() {
    const done = await run(
      () => fishlog.POST('/api/admin/payments/{id}/refund', { params: { path: { id: payment.id }, header: { 'idempotency-key': key } }, body: { amountCents: cents, reason } }),
      `Refunded ${money(cents, payment.currency)}`,
    );
    setConfirming(false);
    // The form keeps what was typed (and the key, for a retry) when the API refuses or cannot be reached.
    if (!done) return;
    setAmount('');
    setReason('');
    setKey(crypto.randomUUID());
  }

  return (
    <Box component="section" aria-label="Refund">
      <Typography component="h2" variant="h6">
        Refund
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mt: 1 }}>
        <TextField
          fullWidth={false}
          size="small"
          label={`Amount (${payment.currency}; empty: all ${money(payment.refundableCents, payment.currency)})`}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          sx={{ minWidth: 300 }}
        />
        <TextField fullWidth={false} size="small" label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 320 }} required />
        <Button variant="contained" color="error" disabled={busy || !valid} onClick={() => setConfirming(true)}>
          Refund…
        </Button>
      </Stack>
      <Problem text={problem} sx={{ mt: 1 }} />
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="refund-confirm-title">
        <DialogTitle id="refund-confirm-title">Refund {money(cents, payment.currency)}?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {money(cents, payment.currency)} of {money(payment.amountCents, payment.currency)} goes back to {payment.cardLast4 ? `card •••• ${payment.cardLast4}` : 'the payer'}. Refunded so far{' '}
            {money(payment.refundedCents, payment.currency)}; after this {money(payment.refundableCents - cents, payment.currency)} remains refundable. Reason: “{reason}”.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
          <Button variant="contained" color="error" disabled={busy} onClick={() => void refund()}>
            Refund {money(cents, payment.currency)}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
