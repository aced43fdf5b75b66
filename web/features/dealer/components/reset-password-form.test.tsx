import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commonPasswordMessage } from '../../../../api/contract/auth';
import { renderWithRouter, stubNetwork } from '../../../test/render';
import { ResetPasswordForm } from './reset-password-form';

afterEach(() => vi.unstubAllGlobals());

// The shape of a signed link's token (api/lib/signed-link.ts): the form checks it before sending.
const token = `${'a'.repeat(40)}.${'s'.repeat(43)}`;

describe('reset password form', { timeout: 20_000 }, () => {
  it('checks length and confirmation before sending', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<ResetPasswordForm token={token} />, { path: '/reset-password' });
    await user.type(screen.getByLabelText(/^New Password/), 'short');
    await user.type(screen.getByLabelText(/Confirm New Password/), 'different');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeVisible();
    expect(screen.getByText('Passwords do not match')).toBeVisible();
    expect(network.calls).toHaveLength(0);
  });

  it('sends the token with the new password and goes to the dealer login', async () => {
    const network = stubNetwork();
    const { user, router } = renderWithRouter(<ResetPasswordForm token={token} />, { path: '/reset-password', routes: ['/dealer-login'] });
    await user.type(screen.getByLabelText(/^New Password/), 'brand-new-password');
    await user.type(screen.getByLabelText(/Confirm New Password/), 'brand-new-password');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByRole('button', { name: 'Updating...' })).toBeDisabled();
    expect(network.calls[0]).toMatchObject({ url: '/api/reset-password', body: { token, password: 'brand-new-password' } });
    expect(network.calls[0]?.body).not.toHaveProperty('confirmPassword');
    network.respond(200, { message: 'Password updated' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dealer-login'));
    expect(within(await screen.findByTestId('toast')).getByText('Password updated')).toBeVisible();
  });

  it('shows why the server refused the link', async () => {
    const network = stubNetwork();
    const { user, router } = renderWithRouter(<ResetPasswordForm token={token} />, { path: '/reset-password' });
    await user.type(screen.getByLabelText(/^New Password/), 'brand-new-password');
    await user.type(screen.getByLabelText(/Confirm New Password/), 'brand-new-password');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    network.respond(400, { message: 'This reset link is invalid or has expired' });
    expect(within(await screen.findByTestId('toast')).getByText('This reset link is invalid or has expired')).toBeVisible();
    expect(router.state.location.pathname).toBe('/reset-password');
  });

  it('shows the server refusing a common password under the field and in a toast, and stays on the page', async () => {
    const network = stubNetwork();
    const { user, router } = renderWithRouter(<ResetPasswordForm token={token} />, { path: '/reset-password' });
    await user.type(screen.getByLabelText(/^New Password/), 'password123');
    await user.type(screen.getByLabelText(/Confirm New Password/), 'password123');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    network.respond(400, { message: 'Validation failed', errors: { password: commonPasswordMessage } });
    expect(within(await screen.findByTestId('toast')).getByText(commonPasswordMessage)).toBeVisible();
    const field = screen.getByLabelText(/^New Password/);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(expect.stringContaining(commonPasswordMessage));
    expect(router.state.location.pathname).toBe('/reset-password');
  });
});
