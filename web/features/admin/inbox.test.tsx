import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/ui/toast';
import { AdminRoute } from './test/admin-route';
import { advance, conversationPane, freshDashboard, queryConversationPane } from './test/dashboard';
import { chatContext, chatMessage, chatSession, contactRow, fakeServer, type FakeServer } from './test/fake-server';

vi.mock('./api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

const first = 'session_1732200000001_aaaaaaaa';
const earlier = 'session_1732100000002_bbbbbbbb';
const chromeOnWindows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

beforeEach(() => {
  freshDashboard();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function inboxServer(): FakeServer {
  const server = fakeServer({ admin: 'staff@lotwise.example' });
  server.on('GET /api/chat-sessions', () => ({
    body: [
      chatSession({ id: first, senderEmail: 'dana@lot.example', lastMessage: 'Do you do CarGurus?', unreadCount: 1 }),
      chatSession({ id: earlier, senderEmail: 'dana@lot.example', lastMessage: 'Thanks, bye', unreadCount: 0, lastActivity: '2026-11-20T10:00:00.000Z' }),
    ],
  }));
  server.on(`GET /api/chat-messages/${first}`, () => ({
    body: [chatMessage({ sessionId: first, message: 'Do you do CarGurus?', senderEmail: 'dana@lot.example' })],
  }));
  server.on(`GET /api/chat-messages/${earlier}`, () => ({
    body: [chatMessage({ sessionId: earlier, message: 'What does setup cost?', senderEmail: 'dana@lot.example' })],
  }));
  for (const id of [first, earlier]) {
    server.on(`PATCH /api/chat-sessions/${id}`, () => ({ body: chatSession({ id, senderEmail: 'dana@lot.example', unreadCount: 0 }) }));
  }
  server.on(`GET /api/chat-sessions/${first}/context`, () => ({
    body: chatContext({
      sessionId: first,
      pageUrl: 'http://localhost/pricing',
      referrer: 'https://www.google.com/',
      userAgent: chromeOnWindows,
      timeZone: 'America/Chicago',
      pages: [
        { url: 'http://localhost/', at: '2026-11-21T11:50:00.000Z' },
        { url: 'http://localhost/pricing', at: '2026-11-21T11:55:00.000Z' },
      ],
      earlierConversations: [{ id: earlier, lastMessage: 'Thanks, bye', lastActivity: '2026-11-20T10:00:00.000Z', status: 'resolved', messageCount: 4 }],
      leads: [
        { kind: 'contact', id: 7, name: 'Dana Lot', email: 'dana@lot.example', summary: 'Pricing', status: 'contacted', createdAt: '2026-11-19T09:00:00.000Z' },
      ],
    }),
  }));
  server.on('GET /api/contact-submissions', () => ({ body: [contactRow({ id: 7, name: 'Dana Lot', email: 'dana@lot.example' })] }));
  return server;
}

async function openAt(at: string): Promise<void> {
  render(
    <>
      <AdminRoute at={at} />
      <Toaster />
    </>,
  );
  await advance();
}

function address(): string {
  return screen.getByTestId('current-address').textContent ?? '';
}

async function press(testId: 'history-back' | 'history-forward'): Promise<void> {
  fireEvent.click(screen.getByTestId(testId));
  await advance();
}

function visitorContext(): HTMLElement {
  return screen.getByRole('region', { name: 'Visitor' });
}

/** The value shown under a term of the visitor's context. */
function contextValue(term: string): HTMLElement {
  return within(visitorContext()).getByText(term, { selector: 'dt' }).nextElementSibling as HTMLElement;
}

describe('the inbox: a conversation in the pane', () => {
  it('View & Reply opens it at /admin/chats/:sessionId beside the list, read; Back and Forward close and reopen it', async () => {
    const server = inboxServer();
    await openAt('/admin?tab=chat');
    fireEvent.click(screen.getByRole('button', { name: `View & Reply to chat ${first.slice(-8)}` }));
    await advance();

    expect(address()).toBe(`/admin/chats/${first}`);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const pane = conversationPane();
    expect(within(pane).getByRole('heading', { name: 'Chat with dana@lot.example' })).toBeInTheDocument();
    expect(within(pane).getByText('Do you do CarGurus?')).toBeInTheDocument();
    expect(pane).toHaveFocus();
    // The list stays beside it, the chat tab selected.
    expect(screen.getByRole('table', { name: 'Chat Messages' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Chat Messages/ })).toHaveAttribute('aria-selected', 'true');
    expect(server.bodies).toContainEqual({ call: `PATCH /api/chat-sessions/${first}`, body: { read: true } });

    await press('history-back');
    expect(address()).toBe('/admin?tab=chat');
    expect(queryConversationPane()).not.toBeInTheDocument();
    await press('history-forward');
    expect(address()).toBe(`/admin/chats/${first}`);
    expect(within(conversationPane()).getByText('Do you do CarGurus?')).toBeInTheDocument();
  });

  it('a deep link opens the conversation on the chat tab, also after signing in', async () => {
    let signedIn = false;
    const server = inboxServer();
    server.on('POST /api/admin-login', () => {
      signedIn = true;
      return { body: { message: 'ok', admin: { email: 'staff@lotwise.example' }, staffIdleMinutes: 10 } };
    });
    server.on('GET /api/session', () => ({ body: { admin: signedIn ? { email: 'staff@lotwise.example' } : null, dealer: null, staffIdleMinutes: 10 } }));
    await openAt(`/admin/chats/${first}`);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(server.calls).not.toContain(`GET /api/chat-messages/${first}`);

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'staff@lotwise.example' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'staff-password-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await advance();
    expect(address()).toBe(`/admin/chats/${first}`);
    expect(screen.getByRole('tab', { name: /Chat Messages/ })).toHaveAttribute('aria-selected', 'true');
    expect(within(conversationPane()).getByText('Do you do CarGurus?')).toBeInTheDocument();
  });

  it('an address that names no conversation says so, with the way back to the list', async () => {
    const server = inboxServer();
    await openAt('/admin/chats/not%20an%20id');
    expect(screen.getByRole('heading', { name: 'Conversation not found' })).toBeInTheDocument();
    expect(server.calls.some((call) => call.startsWith('GET /api/chat-messages/'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Back to Chat Messages' }));
    await advance();
    expect(address()).toBe('/admin?tab=chat');
  });

  it("on a phone, Back returns from the conversation to the list, with its View & Reply focused", async () => {
    inboxServer();
    await openAt('/admin?tab=chat');
    const view = screen.getByRole('button', { name: `View & Reply to chat ${first.slice(-8)}` });
    fireEvent.click(view);
    await advance();
    fireEvent.click(within(conversationPane()).getByRole('button', { name: 'Back' }));
    await advance();
    expect(address()).toBe('/admin?tab=chat');
    expect(queryConversationPane()).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: `View & Reply to chat ${first.slice(-8)}` })).toHaveFocus();
  });
});

describe("the inbox: the visitor's context", () => {
  it('shows the pages of this visit, the referrer, browser and device, and the local time now', async () => {
    inboxServer();
    await openAt(`/admin/chats/${first}`);
    // The fake clock says 12:00 UTC: 6:00 AM in Chicago.
    expect(contextValue('Local time')).toHaveTextContent('6:00 AM CST (America/Chicago)');
    const pages = within(contextValue('Pages this visit')).getAllByRole('listitem');
    expect(pages.map((page) => page.textContent)).toEqual([
      `/${new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }).format(new Date('2026-11-21T11:50:00.000Z'))}`,
      `/pricing${new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }).format(new Date('2026-11-21T11:55:00.000Z'))}`,
    ]);
    expect(contextValue('Referrer')).toHaveTextContent('https://www.google.com/');
    expect(contextValue('Browser and device')).toHaveTextContent('Chrome 131 on Windows · Desktop');
    await advance(60_000);
    expect(contextValue('Local time')).toHaveTextContent('6:01 AM CST');
  });

  it('folds below wide screens, behind a Visitor context toggle', async () => {
    inboxServer();
    await openAt(`/admin/chats/${first}`);
    const toggle = within(visitorContext()).getByRole('button', { name: 'Visitor context' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
  });

  it('an earlier conversation opens in the pane, and its own context is read', async () => {
    const server = inboxServer();
    await openAt(`/admin/chats/${first}`);
    fireEvent.click(within(contextValue('Earlier conversations')).getByRole('link', { name: /Thanks, bye/ }));
    await advance();
    expect(address()).toBe(`/admin/chats/${earlier}`);
    expect(within(conversationPane()).getByText('What does setup cost?')).toBeInTheDocument();
    expect(server.calls).toContain(`GET /api/chat-sessions/${earlier}/context`);
  });

  it('a lead with the same email opens its detail', async () => {
    inboxServer();
    await openAt(`/admin/chats/${first}`);
    const lead = within(contextValue('Leads with this email')).getByRole('link', { name: /Contact form: Pricing/ });
    expect(lead).toHaveTextContent('Contacted');
    fireEvent.click(lead);
    await advance();
    expect(address()).toBe('/admin/leads/contact/7');
    expect(screen.getByRole('heading', { level: 2, name: 'Dana Lot' })).toBeInTheDocument();
    expect(queryConversationPane()).not.toBeInTheDocument();
  });
});
