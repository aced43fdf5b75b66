import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { invalidCredentialsMessage } from '../../../api/contract/auth';
import { Button } from '../../components/ui/button';
import { Field, Input } from '../../components/ui/field';
import { dealerLogin } from '../../features/dealer/api';
import { ApiError } from '../../lib/api-client';

/** A bare login check kept from development: browser alerts, no styling beyond the basics. */
export function SimpleTestPage() {
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await dealerLogin({ username, password });
      window.alert('Login successful!');
      void navigate('/dealer-dashboard');
    } catch (error) {
      window.alert(error instanceof ApiError ? `Login failed: ${error.serverMessage ?? invalidCredentialsMessage}` : 'Network error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="mx-auto max-w-sm px-4 py-16">
      <h1 className="text-xl font-bold text-slate-900">Simple Login Test</h1>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-6 grid gap-4">
        <Field id="simple-username" label="Username">
          <Input id="simple-username" value={username} onChange={(event) => setUsername(event.target.value)} autoComplete="username" />
        </Field>
        <Field id="simple-password" label="Password">
          <Input
            id="simple-password"
            type="password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            autoComplete="current-password"
          />
        </Field>
        <Button type="submit" disabled={busy}>
          {busy ? 'Testing...' : 'Test Login'}
        </Button>
      </form>
    </section>
  );
}
