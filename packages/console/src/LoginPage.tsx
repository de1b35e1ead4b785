import { useState, type FormEvent } from 'react';
import { useLogin } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { Alert, Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';

/** Sign-in with POST /api/auth/login (through the client); back to `next` (where the person was) after it. */
export function LoginPage() {
  const login = useLogin();
  const location = useLocation();
  const next = new URLSearchParams(location.search).get('next');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      await login({ username: String(form.get('username') ?? ''), password: String(form.get('password') ?? '') }, next?.startsWith('/') ? next : '/');
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: '#eef2f5' }}>
      <Card sx={{ width: 380, maxWidth: '92vw' }}>
        <CardContent>
          <Typography component="h1" variant="h5" gutterBottom>
            fishlog staff console
          </Typography>
          {next && next !== '/' ? <Typography variant="body2">Sign in to go back to {next}.</Typography> : null}
          <form onSubmit={submit} aria-label="Sign in">
            <TextField name="username" label="Username" autoComplete="username" required fullWidth margin="normal" autoFocus />
            <TextField name="password" label="Password" type="password" autoComplete="current-password" required fullWidth margin="normal" />
            {error ? (
              <Alert severity="error" role="alert" sx={{ my: 1 }}>
                {error}
              </Alert>
            ) : null}
            <Button type="submit" variant="contained" fullWidth disabled={busy} sx={{ mt: 2 }}>
              Sign in
            </Button>
          </form>
        </CardContent>
      </Card>
    </Box>
  );
}
