import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/ui/toast';
import { storageKeys } from '../../lib/storage-keys';
import { AdminRoute } from './test/admin-route';
import { fakeServer, type FakeServer } from './test/fake-server';
import { advance, freshDashboard } from './test/dashboard';
import { idleWarningLeadMs } from './session-store';

vi.mock('./api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

beforeEach(() => {
  freshDashboard();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function renderDashboard(options: { staffIdleMinutes?: number } = {}): Promise<FakeServer> {
  const server = fakeServer({ admin: 'staff@lotwise.example', ...options });
  render(
    <>
      <AdminRoute />
      <Toaster />
    </>,
  );
  await advance();
  return server;
}

function warning(): HTMLElement | null {
  return screen.queryByRole('alertdialog', { name: 'Still there?' });
}

function sessionReads(server: FakeServer): number {
  return server.calls.filter((call) => call === 'GET /api/session').length;
}

function countdown(): string {
  return screen.getByTestId('session-countdown').textContent ?? '';
}

describe('"Still there?" before the idle limit', () => {
  it('opens one minute before the 10-minute limit and counts the time left down each second', async () => {
    await renderDashboard();
    await advance(9 * 60_000 - 1000);
    expect(warning()).toBeNull();
    await advance(1000);
    const dialog = warning()!;
    expect(dialog).toBeInTheDocument();
    expect(within(dialog).getByTestId('idle-warning-countdown')).toHaveTextContent('1:00');
    expect(dialog).toHaveAccessibleDescription(/Your session ends in 1:00/);
    await advance(1000);
    expect(within(dialog).getByTestId('idle-warning-countdown')).toHaveTextContent('0:59');
    await advance(30_000);
    expect(within(dialog).getByTestId('idle-warning-countdown')).toHaveTextContent('0:29');
    // The default answer is the one Enter gives.
    expect(within(dialog).getByRole('button', { name: 'Stay signed in' })).toHaveFocus();
  });

  it('for a limit of two minutes or less, opens at the last sixth of it', async () => {
    expect(idleWarningLeadMs(10)).toBe(60_000);
    expect(idleWarningLeadMs(3)).toBe(60_000);
    expect(idleWarningLeadMs(2)).toBe(20_000);
    await renderDashboard({ staffIdleMinutes: 1 });
    await advance(49_000);
    expect(warning()).toBeNull();
    await advance(1000);
    expect(within(warning()!).getByTestId('idle-warning-countdown')).toHaveTextContent('0:10');
  });

  it('Stay signed in keeps the session, refreshes the server idle clock at once and starts the countdown again', async () => {
    const server = await renderDashboard();
    await advance(9 * 60_000 + 20_000);
    const before = sessionReads(server);
    fireEvent.click(within(warning()!).getByRole('button', { name: 'Stay signed in' }));
    await advance();
    expect(sessionReads(server)).toBe(before + 1);
    expect(warning()).toBeNull();
    expect(countdown()).toBe('10:00');
    expect(Number(localStorage.getItem(storageKeys.adminLastActivity))).toBe(Date.now());
    await advance(8 * 60_000);
    expect(screen.getByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.queryByText('Session expired')).not.toBeInTheDocument();
  });

  it('Stay signed in reaches the server even when it was touched less than a minute before', async () => {
    // One minute: activity at 5 s leaves its server touch for the minute mark (60 s); the dialog opens at 55 s.
    const server = await renderDashboard({ staffIdleMinutes: 1 });
    await advance(5000);
    fireEvent.keyDown(document.body, { key: 'a' });
    await advance(50_000);
    const before = sessionReads(server);
    fireEvent.click(within(warning()!).getByRole('button', { name: 'Stay signed in' }));
    await advance();
    expect(sessionReads(server)).toBe(before + 1);
  });

  it('Stay signed in on a session the server has already ended says Session expired', async () => {
    const server = await renderDashboard();
    await advance(9 * 60_000);
    server.on('GET /api/session', () => ({ body: { admin: null, dealer: null, staffIdleMinutes: 10 } }));
    fireEvent.click(within(warning()!).getByRole('button', { name: 'Stay signed in' }));
    await advance();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByText('Session expired')).toBeInTheDocument();
  });

  it('with no answer, signs out when the countdown ends, with the Session expired toast', async () => {
    const server = await renderDashboard();
    await advance(9 * 60_000);
    expect(warning()).toBeInTheDocument();
    await advance(59_000);
    expect(within(warning()!).getByTestId('idle-warning-countdown')).toHaveTextContent('0:01');
    await advance(1000);
    expect(warning()).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByText('Session expired')).toBeInTheDocument();
    expect(server.calls).toContain('POST /api/admin-logout');
    expect(localStorage.getItem(storageKeys.adminAuthenticated)).toBeNull();
  });

  it('a key press, a click inside the dialog or on its backdrop, or a scroll does not answer it', async () => {
    await renderDashboard();
    await advance(9 * 60_000);
    const dialog = warning()!;
    const storedActivity = localStorage.getItem(storageKeys.adminLastActivity);
    fireEvent.keyDown(within(dialog).getByRole('button', { name: 'Stay signed in' }), { key: 'a' });
    fireEvent.mouseDown(within(dialog).getByText(/Your session ends in/));
    fireEvent.mouseDown(screen.getByTestId('idle-warning-backdrop'));
    fireEvent.scroll(document);
    fireEvent.touchStart(document.body, { touches: [{ clientX: 10, clientY: 10 }], changedTouches: [{ clientX: 10, clientY: 10 }] });
    await advance(2000);
    expect(warning()).toBe(dialog);
    expect(within(dialog).getByTestId('idle-warning-countdown')).toHaveTextContent('0:58');
    expect(localStorage.getItem(storageKeys.adminLastActivity)).toBe(storedActivity);
    expect(countdown()).toBe('0:58');
  });

  it('Escape counts as Stay signed in', async () => {
    const server = await renderDashboard();
    await advance(9 * 60_000);
    const before = sessionReads(server);
    fireEvent.keyDown(within(warning()!).getByRole('button', { name: 'Stay signed in' }), { key: 'Escape' });
    await advance();
    expect(warning()).toBeNull();
    expect(sessionReads(server)).toBe(before + 1);
    expect(countdown()).toBe('10:00');
  });

  it('closes when the staff member works in another tab of this browser', async () => {
    const server = await renderDashboard();
    await advance(9 * 60_000 + 10_000);
    expect(warning()).toBeInTheDocument();
    const before = sessionReads(server);
    // The other tab records its activity in the shared last-activity time (and touches the server itself).
    localStorage.setItem(storageKeys.adminLastActivity, String(Date.now()));
    window.dispatchEvent(new StorageEvent('storage', { key: storageKeys.adminLastActivity, newValue: String(Date.now()) }));
    await advance();
    expect(warning()).toBeNull();
    expect(countdown()).toBe('10:00');
    expect(sessionReads(server)).toBe(before);
    await advance(60_000);
    expect(screen.getByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
  });

  it('Sign out signs out at once, without the Session expired toast', async () => {
    const server = await renderDashboard();
    await advance(9 * 60_000);
    fireEvent.click(within(warning()!).getByRole('button', { name: 'Sign out' }));
    await advance();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(server.calls).toContain('POST /api/admin-logout');
    expect(screen.queryByText('Session expired')).not.toBeInTheDocument();
  });
});
