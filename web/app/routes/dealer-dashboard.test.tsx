import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter, stubNetwork } from '../../test/render';
import { DealerDashboardPage } from './dealer-dashboard';

afterEach(() => vi.unstubAllGlobals());

describe('dealer dashboard guard', { timeout: 20_000 }, () => {
  it('sends a visitor without a dealer session to the login page', async () => {
    const network = stubNetwork();
    const { router } = renderWithRouter(<DealerDashboardPage />, { path: '/dealer-dashboard', routes: ['/dealer-login'] });
    await waitFor(() => expect(network.calls[0]?.url).toBe('/api/session'));
    network.respond(200, { admin: null, dealer: null, staffIdleMinutes: 10 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dealer-login'));
  });

  it('shows the tabs for a signed-in dealer, and LOGOUT ends the session and goes home', async () => {
    const network = stubNetwork();
    const { user, router } = renderWithRouter(<DealerDashboardPage />, { path: '/dealer-dashboard', routes: ['/'] });
    await waitFor(() => expect(network.calls).toHaveLength(1));
    network.respond(200, { admin: null, dealer: { username: 'sunset' }, staffIdleMinutes: 10 });
    expect(await screen.findByText('Total Inventory')).toBeVisible();
    expect(screen.getByText('Active')).toBeVisible();
    expect(screen.getByTestId('dealer-username')).toHaveTextContent('sunset');

    await user.click(screen.getByRole('tab', { name: 'INVENTORY' }));
    expect(screen.getByRole('button', { name: /Add Vehicle/ })).toBeVisible();
    await user.click(screen.getByRole('tab', { name: 'LEADS' }));
    expect(screen.getByRole('button', { name: /Export Leads/ })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'LOGOUT' }));
    expect(network.calls[1]).toMatchObject({ url: '/api/logout', method: 'POST' });
    network.respond(200, { ok: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
