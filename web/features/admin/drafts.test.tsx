import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/ui/toast';
import { AdminRoute } from './test/admin-route';
import { chatMessage, chatSession, contactRow, fakeServer, type FakeServer } from './test/fake-server';
import { advance, conversationPane, freshDashboard, openChatTab, queryConversationPane } from './test/dashboard';

vi.mock('./api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

const first = 'session_1732200000000_firstaa';
const second = 'session_1732200000001_second';
const staffEmail = 'staff@lotwise.example';
const lead = contactRow({ name: 'Jane Doe', note: 'Wants 80 cars' });

let server: FakeServer;
/** Who the fake server holds signed in; the sign-in card signs in whoever it is given. */
let signedIn: string | null;

beforeEach(() => {
  freshDashboard();
  signedIn = staffEmail;
  server = fakeServer();
  const session = () => ({ body: { admin: signedIn ? { email: signedIn } : null, dealer: null, staffIdleMinutes: 10 } });
  server.on('GET /api/session', session);
  server.on('POST /api/admin-login', ({ body }) => {
    signedIn = (body as { username: string }).username;
    return { body: { message: 'Login successful', admin: { email: signedIn }, staffIdleMinutes: 10 } };
  });
  server.on('POST /api/admin-logout', () => {
    signedIn = null;
    return { body: { ok: true } };
  });
  server.on('GET /api/chat-sessions', () => ({
    body: [
      chatSession({ id: second, lastActivity: '2026-11-21T11:00:00.000Z', unreadCount: 0 }),
      chatSession({ id: first, lastActivity: '2026-11-21T10:00:00.000Z', unreadCount: 0 }),
    ],
  }));
  for (const id of [first, second]) {
    server.on(`GET /api/chat-messages/${id}`, () => ({ body: [chatMessage({ sessionId: id, message: `Hello from ${id}` })] }));
    server.on(`PATCH /api/chat-sessions/${id}`, () => ({ body: chatSession({ id, unreadCount: 0 }) }));
  }
  server.on('GET /api/contact-submissions', () => ({ body: [lead] }));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function renderPage(): Promise<void> {
  render(
    <>
      <AdminRoute />
      <Toaster />
    </>,
  );
  await advance();
}

async function openConversation(sessionId: string): Promise<HTMLElement> {
  await openChatTab();
  fireEvent.click(screen.getByRole('button', { name: `View & Reply to chat ${sessionId.slice(-8)}` }));
  await advance();
  return conversationPane();
}

async function closeConversation(): Promise<void> {
  fireEvent.click(within(conversationPane()).getByRole('button', { name: 'Close' }));
  await advance();
}

function replyBox(pane: HTMLElement): HTMLElement {
  return within(pane).getByRole('textbox', { name: 'Reply' });
}

async function logout(): Promise<void> {
  // The open conversation is modal: the header's Logout is behind it.
  if (queryConversationPane()) await closeConversation();
  fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
  await advance();
  expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
}

async function signInAs(email: string): Promise<void> {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'staff-password-123' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
  await advance();
  expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
}

function storedDraftKeys(): string[] {
  return Object.keys(localStorage).filter((key) => key.startsWith('adminDraft:'));
}

describe('reply drafts', () => {
  it('keeps each conversation its own unsent reply when switching between them', async () => {
    await renderPage();
    let pane = await openConversation(first);
    fireEvent.change(replyBox(pane), { target: { value: 'Draft for the first visitor' } });
    await closeConversation();
    pane = await openConversation(second);
    expect(replyBox(pane)).toHaveValue('');
    fireEvent.change(replyBox(pane), { target: { value: 'Draft for the second visitor' } });
    await closeConversation();
    pane = await openConversation(first);
    expect(replyBox(pane)).toHaveValue('Draft for the first visitor');
    expect(within(pane).getByRole('button', { name: 'Send' })).toBeEnabled();
    await closeConversation();
    pane = await openConversation(second);
    expect(replyBox(pane)).toHaveValue('Draft for the second visitor');
  });

  it('finds the draft again after Logout and signing back in, and not under another staff email', async () => {
    await renderPage();
    const pane = await openConversation(first);
    fireEvent.change(replyBox(pane), { target: { value: 'We can do $199 a month' } });
    await logout();

    await signInAs('other@lotwise.example');
    expect(replyBox(await openConversation(first))).toHaveValue('');
    await closeConversation();
    await logout();

    await signInAs(staffEmail);
    expect(replyBox(await openConversation(first))).toHaveValue('We can do $199 a month');
  });

  it('finds the draft again after the idle sign-out', async () => {
    await renderPage();
    const pane = await openConversation(first);
    fireEvent.change(replyBox(pane), { target: { value: 'Let me check with the team' } });
    await advance(10 * 60_000);
    expect(screen.getByText('Session expired')).toBeInTheDocument();
    signedIn = null;
    await signInAs(staffEmail);
    expect(replyBox(await openConversation(first))).toHaveValue('Let me check with the team');
  });

  it('clears the draft once the reply is sent', async () => {
    server.on('POST /api/admin-chat-reply', ({ body }) => ({
      status: 201,
      body: chatMessage({ sessionId: first, isFromUser: false, message: (body as { message: string }).message }),
    }));
    await renderPage();
    let pane = await openConversation(first);
    fireEvent.change(replyBox(pane), { target: { value: 'Yes, month to month' } });
    expect(storedDraftKeys()).toHaveLength(1);
    fireEvent.click(within(pane).getByRole('button', { name: 'Send' }));
    await advance();
    expect(screen.getByText('Reply sent')).toBeInTheDocument();
    expect(replyBox(pane)).toHaveValue('');
    expect(storedDraftKeys()).toEqual([]);
    await closeConversation();
    pane = await openConversation(first);
    expect(replyBox(pane)).toHaveValue('');
  });

  it('keeps the draft when the send fails', async () => {
    server.on('POST /api/admin-chat-reply', () => ({ status: 500, body: { message: 'Internal Server Error' } }));
    await renderPage();
    let pane = await openConversation(first);
    fireEvent.change(replyBox(pane), { target: { value: 'Are you there?' } });
    fireEvent.keyDown(replyBox(pane), { key: 'Enter' });
    await advance();
    expect(screen.getByText('Failed to send reply.')).toBeInTheDocument();
    await closeConversation();
    pane = await openConversation(first);
    expect(replyBox(pane)).toHaveValue('Are you there?');
  });

  it('drops a draft left for more than 7 days, and keeps a younger one', async () => {
    await renderPage();
    let pane = await openConversation(first);
    fireEvent.change(replyBox(pane), { target: { value: 'An old thought' } });
    await logout();
    vi.setSystemTime(Date.now() + 2 * 24 * 60 * 60_000);
    await signInAs(staffEmail);
    pane = await openConversation(second);
    fireEvent.change(replyBox(pane), { target: { value: 'A newer thought' } });
    await logout();
    // A week and a minute after the first draft, five days after the second.
    vi.setSystemTime(Date.now() + 5 * 24 * 60 * 60_000 + 60_000);
    await signInAs(staffEmail);
    expect(storedDraftKeys()).toHaveLength(1);
    expect(replyBox(await openConversation(first))).toHaveValue('');
    await closeConversation();
    expect(replyBox(await openConversation(second))).toHaveValue('A newer thought');
  });
});

describe('lead note drafts', () => {
  function noteBox(): HTMLElement {
    return screen.getByRole('textbox', { name: 'Note for Jane Doe' });
  }

  it('keeps a note typed but not saved across a sign-out, shown as unsaved, and saves it with Enter', async () => {
    await renderPage();
    act(() => noteBox().focus());
    fireEvent.change(noteBox(), { target: { value: 'Wants 80 cars, call Friday' } });
    // The session ends before the field is left.
    await logout();
    await signInAs(staffEmail);
    expect(noteBox()).toHaveValue('Wants 80 cars, call Friday');
    expect(noteBox()).toHaveAccessibleDescription('Unsaved: Enter saves it, Escape discards it.');
    server.on(`PATCH /api/leads/contact/${lead.id}`, ({ body }) => ({ body: { ...lead, ...(body as object) } }));
    act(() => noteBox().focus());
    fireEvent.keyDown(noteBox(), { key: 'Enter' });
    await advance();
    expect(server.bodies).toContainEqual({ call: `PATCH /api/leads/contact/${lead.id}`, body: { note: 'Wants 80 cars, call Friday' } });
    expect(noteBox()).not.toHaveAccessibleDescription();
    expect(storedDraftKeys()).toEqual([]);
  });

  it('keeps the note when its save finds the session ended, for after the next sign-in', async () => {
    server.on(`PATCH /api/leads/contact/${lead.id}`, () => {
      signedIn = null;
      return { status: 401, body: { message: 'Not authenticated' } };
    });
    await renderPage();
    act(() => noteBox().focus());
    fireEvent.change(noteBox(), { target: { value: 'Sent the quote' } });
    act(() => noteBox().blur());
    await advance();
    expect(screen.getByText('Session expired')).toBeInTheDocument();
    await signInAs(staffEmail);
    expect(noteBox()).toHaveValue('Sent the quote');
  });

  it('Escape discards the unsaved note and shows the saved one', async () => {
    await renderPage();
    act(() => noteBox().focus());
    fireEvent.change(noteBox(), { target: { value: 'Never mind' } });
    fireEvent.keyDown(noteBox(), { key: 'Escape' });
    await advance();
    expect(noteBox()).toHaveValue('Wants 80 cars');
    expect(storedDraftKeys()).toEqual([]);
  });
});
