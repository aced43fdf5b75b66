import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter, stubNetwork } from '../../../test/render';
import { DealerLoginCard } from './dealer-login-form';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function renderLogin() {
  return renderWithRouter(<DealerLoginCard />, { path: '/dealer-login', routes: ['/dealer-dashboard'] });
}

async function signIn(user: ReturnType<typeof renderLogin>['user'], username = 'sunset', password = 'correct-horse-1') {
  await user.type(screen.getByLabelText(/Username or Email/), username);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('dealer login', { timeout: 20_000 }, () => {
  it('requires both fields before calling the server', async () => {
    const network = stubNetwork();
    const { user } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Username is required')).toBeVisible();
    expect(screen.getByText('Password is required')).toBeVisible();
    expect(network.calls).toHaveLength(0);
  });

  it('says Signing in..., toasts success and opens the dashboard 1 s later', async () => {
    const network = stubNetwork();
    const { user, router } = renderLogin();
    await signIn(user);
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    expect(network.calls[0]).toMatchObject({ url: '/api/login', method: 'POST', body: { username: 'sunset', password: 'correct-horse-1' } });
    expect(network.calls[0]?.body).not.toHaveProperty('remember');

    vi.useFakeTimers({ shouldAdvanceTime: true });
    network.respond(200, { message: 'Login successful', user: { id: 1, username: 'sunset' } });
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Login successful!')).toBeVisible();
    expect(within(toast).getByText('Welcome back to your Lotwise dashboard.')).toBeVisible();
    expect(router.state.location.pathname).toBe('/dealer-login');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(router.state.location.pathname).toBe('/dealer-dashboard');
  });

  it('does not open the dashboard when the visitor has gone elsewhere before the 1 s pass', async () => {
    const network = stubNetwork();
    const { user, router } = renderWithRouter(<DealerLoginCard />, { path: '/dealer-login', routes: ['/dealer-dashboard', '/support'] });
    await signIn(user);
    await screen.findByRole('button', { name: 'Signing in...' });

    vi.useFakeTimers({ shouldAdvanceTime: true });
    network.respond(200, { message: 'Login successful', user: { id: 1, username: 'sunset' } });
    await screen.findByTestId('toast');
    await act(() => router.navigate('/support'));
    expect(screen.queryByRole('form', { name: 'Dealer login' })).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(router.state.location.pathname).toBe('/support');
    expect(screen.getByText('Arrived at /support')).toBeVisible();
  });

  it("shows the server's message when the login is refused", async () => {
    const network = stubNetwork();
    const { user, router } = renderLogin();
    await signIn(user, 'sunset', 'wrong-password');
    await screen.findByRole('button', { name: 'Signing in...' });
    network.respond(401, { message: 'Invalid username or password' });
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Login failed')).toBeVisible();
    expect(within(toast).getByText('Invalid username or password')).toBeVisible();
    expect(router.state.location.pathname).toBe('/dealer-login');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it('says it cannot reach the server on a network error', async () => {
    const network = stubNetwork();
    const { user } = renderLogin();
    await signIn(user);
    await screen.findByRole('button', { name: 'Signing in...' });
    network.fail();
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Unable to connect to server.')).toBeVisible();
  });
});

describe('forgot password view', { timeout: 20_000 }, () => {
  it('sends the reset link request, toasts the generic answer and returns to the login view', async () => {
    const network = stubNetwork();
    const { user } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(screen.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
    await user.type(screen.getByLabelText(/Email Address/), 'nope');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeVisible();
    expect(network.calls).toHaveLength(0);

    await user.clear(screen.getByLabelText(/Email Address/));
    await user.type(screen.getByLabelText(/Email Address/), 'owner@sunset.example');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(network.calls[0]).toMatchObject({ url: '/api/forgot-password', body: { email: 'owner@sunset.example' } });
    network.respond(200, { message: 'If there is an account associated with that email, then a reset link has been sent' });
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('If there is an account associated with that email, then a reset link has been sent')).toBeVisible();
    expect(within(toast).getByText('Check your email for password reset instructions')).toBeVisible();
    expect(await screen.findByRole('heading', { name: 'Dealer Login' })).toBeVisible();
  });

  it('stays on the view with an error toast when the request fails, and Back to Login returns', async () => {
    const network = stubNetwork();
    const { user } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    await user.type(screen.getByLabelText(/Email Address/), 'owner@sunset.example');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    network.respond(429, { message: 'Too many requests, please try again later' });
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Error')).toBeVisible();
    expect(within(toast).getByText('Too many requests, please try again later')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Back to Login' }));
    expect(screen.getByRole('heading', { name: 'Dealer Login' })).toBeVisible();
  });
});
