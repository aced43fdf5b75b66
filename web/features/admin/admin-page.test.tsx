import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/ui/toast';
import { AdminRoute } from './test/admin-route';
import { countsRecheckMs } from './api/live-cache';
import { storageKeys } from '../../lib/storage-keys';
import { chatMessage, chatSession, contactRow, emptyCounts, fakeServer } from './test/fake-server';
import { advance, chatTab, freshDashboard, openChatTab } from './test/dashboard';
import type { FakeAdminSocket } from './test/fake-socket';

vi.mock('./api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

let socket: FakeAdminSocket;

beforeEach(() => {
  socket = freshDashboard();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});


function renderPage() {
  return render(
    <>
      <AdminRoute />
      <Toaster />
    </>,
  );
}

function countdown(): string {
  return screen.getByTestId('session-countdown').textContent ?? '';
}

describe('staff session on /admin', () => {
  it('restores a live staff session on reload and shows the dashboard with a 10:00 countdown', async () => {
    fakeServer({ admin: 'staff@lotwise.example' });
    localStorage.setItem(storageKeys.adminAuthenticated, 'true');
    localStorage.setItem(storageKeys.adminLastActivity, String(Date.now()));
    renderPage();
    await advance();
    expect(screen.getByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('staff@lotwise.example')).toBeInTheDocument();
    expect(countdown()).toBe('10:00');
  });

  it('keeps the time already spent idle across a reload', async () => {
    fakeServer({ admin: 'staff@lotwise.example' });
    localStorage.setItem(storageKeys.adminAuthenticated, 'true');
    localStorage.setItem(storageKeys.adminLastActivity, String(Date.now() - 4 * 60_000));
    renderPage();
    await advance();
    expect(countdown()).toBe('6:00');
  });

  it('shows the sign-in card and clears the stored flags when the server has no staff session', async () => {
    fakeServer({ admin: null });
    localStorage.setItem(storageKeys.adminAuthenticated, 'true');
    localStorage.setItem(storageKeys.adminLastActivity, String(Date.now()));
    renderPage();
    await advance();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(localStorage.getItem(storageKeys.adminAuthenticated)).toBeNull();
  });

  it('counts down every second, and activity starts the countdown again', async () => {
    fakeServer({ admin: 'staff@lotwise.example' });
    renderPage();
    await advance();
    expect(countdown()).toBe('10:00');
    await advance(61_000);
    expect(countdown()).toBe('8:59');
    fireEvent.keyDown(document.body, { key: 'a' });
    await advance(1000);
    expect(countdown()).toBe('9:59');
    expect(Number(localStorage.getItem(storageKeys.adminLastActivity))).toBe(Date.now() - 1000);
  });

  it('logs out after 10 idle minutes, as the countdown ends, with the Session expired toast', async () => {
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    renderPage();
    await advance();
    await advance(15_000);
    fireEvent.keyDown(document.body, { key: 'a' });
    // Idle since t=15 s: the limit passes at 10:15 ("Still there?" ends it then, before the 30 s check at 10:30).
    await advance(9 * 60_000 + 50_000);
    expect(countdown()).toBe('0:10');
    await advance(9_000);
    expect(countdown()).toBe('0:01');
    expect(screen.getByRole('alertdialog', { name: 'Still there?' })).toBeInTheDocument();
    await advance(1_000);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByText('Session expired')).toBeInTheDocument();
    expect(screen.getByText("You've been logged out due to inactivity.")).toBeInTheDocument();
    expect(localStorage.getItem(storageKeys.adminAuthenticated)).toBeNull();
    expect(server.calls).toContain('POST /api/admin-logout');
    expect(socket.connected).toBe(false);
  });

  it('stays signed in past 10 minutes when the staff member keeps working', async () => {
    fakeServer({ admin: 'staff@lotwise.example' });
    renderPage();
    await advance();
    for (let minute = 0; minute < 12; minute++) {
      await advance(60_000);
      fireEvent.mouseDown(document.body);
    }
    await advance(30_000);
    expect(screen.getByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
  });

  it('follows the idle limit the server announces', async () => {
    fakeServer({ admin: 'staff@lotwise.example', staffIdleMinutes: 2 });
    renderPage();
    await advance();
    expect(countdown()).toBe('2:00');
    await advance(2 * 60_000 + 30_000);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('refreshes the server idle clock at most once a minute while the staff member is active', async () => {
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    renderPage();
    await advance();
    const sessionCalls = () => server.calls.filter((call) => call === 'GET /api/session').length;
    const before = sessionCalls();
    for (let second = 0; second < 90; second += 2) {
      fireEvent.keyDown(document.body, { key: 'x' });
      await advance(2000);
    }
    expect(sessionCalls() - before).toBe(1);
  });

  it("touches the server within a minute of any activity, so its idle clock never lags the countdown", async () => {
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    renderPage();
    await advance();
    const sessionCalls = () => server.calls.filter((call) => call === 'GET /api/session').length;
    const before = sessionCalls();
    await advance(30_000);
    fireEvent.mouseDown(document.body);
    await advance(29_000);
    expect(sessionCalls()).toBe(before);
    await advance(2_000);
    expect(sessionCalls()).toBe(before + 1);
  });

  it('returns to the sign-in card when the socket says the session expired', async () => {
    fakeServer({ admin: 'staff@lotwise.example' });
    renderPage();
    await advance();
    act(() => socket.serverPush('session:expired'));
    await advance();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByText('Session expired')).toBeInTheDocument();
  });

  it('returns to the sign-in card when a staff call answers 401', async () => {
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    server.on('GET /api/contact-submissions', () => ({ status: 401, body: { message: 'Not authenticated' } }));
    renderPage();
    await advance();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.queryByText('Error loading data')).not.toBeInTheDocument();
  });

  it('logs out with the Logout button', async () => {
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    renderPage();
    await advance();
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await advance();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(server.calls).toContain('POST /api/admin-logout');
    expect(localStorage.getItem(storageKeys.adminAuthenticated)).toBeNull();
  });
});

describe('sign-in card', () => {
  it('shows the contract messages for a bad email and an empty password', async () => {
    fakeServer({ admin: null });
    renderPage();
    await advance();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await advance();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it('ties each field only to descriptions that exist, with and without an error shown', async () => {
    fakeServer({ admin: null });
    renderPage();
    await advance();
    const form = screen.getByRole('button', { name: 'Sign In' }).closest('form')!;
    const missingDescriptions = () =>
      [...form.querySelectorAll('[aria-describedby]')].flatMap((element) =>
        (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id && !document.getElementById(id)),
      );
    expect(missingDescriptions()).toEqual([]);

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await advance();
    expect(missingDescriptions()).toEqual([]);
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Please enter a valid email address');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required');
    expect(screen.getByLabelText('Email')).toBeInvalid();

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'staff@lotwise.example' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    await advance();
    expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument();
    expect(missingDescriptions()).toEqual([]);
  });

  it('says Login failed on wrong credentials and stays on the card', async () => {
    const server = fakeServer({ admin: null });
    server.on('POST /api/admin-login', () => ({ status: 401, body: { message: 'Invalid username or password' } }));
    renderPage();
    await advance();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'staff@lotwise.example' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await advance();
    expect(screen.getByText('Login failed')).toBeInTheDocument();
    expect(screen.getByText('Please check your credentials and try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('signs in, welcomes the staff member and loads counts and lists', async () => {
    let signedIn = false;
    const server = fakeServer({ admin: null });
    server.on('POST /api/admin-login', ({ body }) => {
      signedIn = (body as { username: string }).username === 'staff@lotwise.example';
      return { body: { message: 'ok', admin: { email: 'staff@lotwise.example' }, staffIdleMinutes: 10 } };
    });
    server.on('GET /api/session', () => ({
      body: { admin: signedIn ? { email: 'staff@lotwise.example' } : null, dealer: null, staffIdleMinutes: 10 },
    }));
    server.on('GET /api/admin/counts', () => ({ body: emptyCounts({ contact: 12 }) }));
    server.on('GET /api/contact-submissions', () => ({ body: [contactRow({ name: 'Jane Doe' })] }));
    renderPage();
    await advance();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'staff@lotwise.example' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'staff-password-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await advance();
    expect(screen.getByText('Login successful')).toBeInTheDocument();
    expect(screen.getByText('Welcome to the admin dashboard.')).toBeInTheDocument();
    expect(localStorage.getItem(storageKeys.adminAuthenticated)).toBe('true');
    expect(within(screen.getByTestId('count-contact')).getByText('12')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Contact Forms' })).toHaveTextContent('Jane Doe');
    expect(server.calls).toContain('GET /api/contact-submissions?limit=100');
  });

  it('reads "Signing in..." while the sign-in is under way', async () => {
    const server = fakeServer({ admin: null });
    server.on('POST /api/admin-login', () => ({ status: 401, body: { message: 'Invalid username or password' } }));
    let release: () => void = () => {};
    const pending = new Promise<void>((resolve) => (release = resolve));
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      if (String(args[0]).includes('admin-login')) await pending;
      return realFetch(...args);
    });
    renderPage();
    await advance();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'staff@lotwise.example' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await advance();
    expect(screen.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
    release();
    await advance();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it('shows "Error loading data" when the lists fail to load', async () => {
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    server.on('GET /api/support-tickets', () => ({ status: 500, body: { message: 'Internal Server Error' } }));
    renderPage();
    await advance();
    expect(screen.getByText('Error loading data')).toBeInTheDocument();
    expect(screen.getByText('Failed to load dashboard data.')).toBeInTheDocument();
  });
});

describe('status filters and count cards', () => {
  let newSessions = 0;
  async function signedInDashboard() {
    newSessions = 0;
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    server.on('GET /api/admin/counts', () => ({
      body: emptyCounts({
        chatSessions: 3 + newSessions,
        byStatus: { ...emptyCounts().byStatus, chatSessions: { open: 1 + newSessions, resolved: 2 } },
      }),
    }));
    server.on('GET /api/chat-sessions', () => ({
      body: [
        chatSession({ id: 'session_open_000001', status: 'open', lastActivity: '2026-11-21T11:00:00.000Z' }),
        chatSession({ id: 'session_done_000001', status: 'resolved', lastActivity: '2026-11-21T10:00:00.000Z' }),
      ],
    }));
    localStorage.setItem(storageKeys.adminAuthenticated, 'true');
    localStorage.setItem(storageKeys.adminLastActivity, String(Date.now()));
    renderPage();
    await advance();
    return server;
  }

  it('filters the chat list to Resolved with its count; a new visitor conversation stays out of it but is counted', async () => {
    const server = await signedInDashboard();
    await openChatTab();
    const filter = screen.getByRole('group', { name: 'Filter Chat Messages by status' });
    expect(within(filter).getByRole('button', { name: 'Resolved 2' })).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(within(filter).getByRole('button', { name: 'Resolved 2' }));
    await advance();
    expect(server.calls).toContain('GET /api/chat-sessions?limit=100&status=resolved');
    const shownIds = () =>
      [...screen.getByRole('table', { name: 'Chat Messages' }).querySelectorAll('[data-row-key]')].map((row) => row.getAttribute('data-row-key'));
    expect(shownIds()).toEqual(['session_done_000001']);

    newSessions = 1;
    act(() => socket.serverPush('chat:message', chatMessage({ sessionId: 'session_brand_new01', message: 'Hi there' })));
    await advance(100);
    expect(shownIds()).toEqual(['session_done_000001']);
    // Hidden by the filter, so the screen cannot tell a new conversation from a hidden one: the server's figures come.
    await advance(countsRecheckMs);
    expect(shownIds()).toEqual(['session_done_000001']);
    expect(within(filter).getByRole('button', { name: 'Open 2' })).toBeInTheDocument();
    expect(within(screen.getByTestId('count-chatSessions')).getByText('4')).toBeInTheDocument();
  });

  it('a count card is a button that shows its tab with the filter back on All', async () => {
    const server = await signedInDashboard();
    await openChatTab();
    fireEvent.click(screen.getByRole('button', { name: /^Resolved/ }));
    await advance();
    fireEvent.click(screen.getByRole('button', { name: 'Show Contact Forms' }));
    await advance();
    expect(screen.getByRole('tab', { name: 'Contact Forms' })).toHaveAttribute('aria-selected', 'true');

    const before = server.calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Show Chat Sessions' }));
    await advance();
    expect(chatTab()).toHaveAttribute('aria-selected', 'true');
    expect(within(screen.getByRole('group', { name: 'Filter Chat Messages by status' })).getByRole('button', { name: /^All/ })).toHaveAttribute('aria-pressed', 'true');
    expect(server.calls.slice(before)).toContain('GET /api/chat-sessions?limit=100');
    expect(screen.getByRole('button', { name: 'Show Support Tickets' })).toHaveAccessibleDescription('0');
  });
});
