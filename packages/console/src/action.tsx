import { useState } from 'react';
import { useNotify, useRefresh } from 'react-admin';
import { Alert, type SxProps } from '@mui/material';
import { problemText } from './api';

/**
 * One API call a person starts from a screen (approve, ban, refund…): `busy` while it runs, the
 * API's problem text (title, detail, request id) or the network failure when it fails — the form
 * keeps what was typed — and on success a notice and a refresh of the screen's data.
 */
export function useApiAction() {
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  async function run(call: () => Promise<{ error?: unknown }>, success: string): Promise<boolean> {
    setBusy(true);
    setProblem(undefined);
    try {
      const { error } = await call();
      if (error) {
        setProblem(problemText(error));
        return false;
      }
    } catch (error) {
      setProblem(problemText(error));
      return false;
    } finally {
      setBusy(false);
    }
    notify(success, { type: 'success' });
    refresh();
    return true;
  }
  return { busy, problem, setProblem, run };
}

/** The problem of a failed action, announced to screen readers (role="alert"); nothing when there is none. */
export function Problem({ text, sx }: { text: string | undefined; sx?: SxProps }) {
  return text ? (
    <Alert severity="error" role="alert" sx={sx}>
      {text}
    </Alert>
  ) : null;
}
