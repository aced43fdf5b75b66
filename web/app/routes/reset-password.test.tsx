import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter, stubNetwork } from '../../test/render';
import { ResetPasswordPage } from './reset-password';

afterEach(() => vi.unstubAllGlobals());

// The shape of a signed link's token (api/lib/signed-link.ts): the form checks it before sending.
const token = `${'b'.repeat(40)}.${'s'.repeat(43)}`;

describe('reset password page', { timeout: 20_000 }, () => {
  it('takes the token out of the address at once, in place of the entry, and still sends it with the new password', async () => {
    const network = stubNetwork();
    const { user, router } = renderWithRouter(<ResetPasswordPage />, { path: '/reset-password', url: `/reset-password?token=${token}` });
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/reset-password');
    // Replaced, not pushed: Back does not bring the token back to the address bar.
    expect(router.state.historyAction).toBe('REPLACE');

    await user.type(screen.getByLabelText(/^New Password/), 'brand-new-password');
    await user.type(screen.getByLabelText(/Confirm New Password/), 'brand-new-password');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(network.calls[0]).toMatchObject({ url: '/api/reset-password', body: { token, password: 'brand-new-password' } });
  });

  it('says the link is invalid when opened without a token, as after a reload once the token left the address', () => {
    renderWithRouter(<ResetPasswordPage />, { path: '/reset-password' });
    expect(screen.getByRole('alert')).toHaveTextContent('This reset link is invalid or has expired.');
    expect(screen.queryByRole('button', { name: 'Update Password' })).toBeNull();
  });
});
