import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContactTimeline } from '../../../../api/contract/contacts';
import { Toaster } from '../../../components/ui/toast';
import { AdminRoute } from '../test/admin-route';
import { advance, freshDashboard } from '../test/dashboard';
import { chatContext, chatSession, contactRow, fakeServer } from '../test/fake-server';

vi.mock('../api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('../api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

beforeEach(() => {
  freshDashboard();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const sessionId = 'session_1732200000000_timeln';
const email = 'Ann@Dealer.example';

/** Ann's timeline as the server answers it: newest first, a chat between two leads. */
const annTimeline: ContactTimeline = {
  items: [
    { type: 'lead', kind: 'demo', id: 9, name: 'Ann Lee', email: 'ann@dealer.example', summary: 'Lee Motors', status: 'new', at: '2026-11-21T10:00:00.000Z' },
    {
      type: 'conversation',
      id: sessionId,
      email,
      status: 'resolved',
      startedAt: '2026-11-20T09:00:00.000Z',
      at: '2026-11-20T09:30:00.000Z',
      lastMessage: 'Thanks, talk soon',
      messageCount: 4,
    },
    { type: 'lead', kind: 'contact', id: 7, name: 'Ann Lee', email, summary: 'Pricing Information', status: 'contacted', at: '2026-11-19T08:00:00.000Z' },
  ],
  more: false,
};

function timelineServer(answer: ContactTimeline = annTimeline) {
  const server = fakeServer({ admin: 'staff@lotwise.example' });
  server.on('GET /api/contacts/timeline', () => ({ body: answer }));
  server.on('GET /api/contact-submissions', () => ({ body: [contactRow({ id: 7, name: 'Ann Lee', email })] }));
  server.on('GET /api/chat-sessions', () => ({ body: [chatSession({ id: sessionId, senderEmail: email })] }));
  server.on(`GET /api/chat-sessions/${sessionId}/context`, () => ({ body: chatContext({ sessionId, email }) }));
  return server;
}

async function openAt(address: string): Promise<void> {
  render(
    <>
      <AdminRoute at={address} />
      <Toaster />
    </>,
  );
  await advance();
}

const address = () => screen.getByTestId('current-address').textContent ?? '';
const timeline = () => screen.getByRole('list', { name: `Timeline of ${email}` });
const entries = () => within(timeline()).getAllByRole('listitem');

describe('one contact, one timeline', () => {
  it('under a lead: every lead and conversation of its email, newest first, the lead itself marked and not a link', async () => {
    const server = timelineServer();
    await openAt('/admin/leads/contact/7');
    expect(server.calls).toContain(`GET /api/contacts/timeline?email=${encodeURIComponent(email)}`);
    expect(entries().map((entry) => entry.textContent)).toEqual([
      expect.stringMatching(/^Demo request: Lee Motors.*New$/),
      expect.stringMatching(/^Conversation: Thanks, talk soon.*4 messages · Resolved$/),
      expect.stringMatching(/^Contact form: Pricing InformationThis lead · .*Contacted$/),
    ]);
    const here = entries()[2]!;
    expect(within(here).queryByRole('link')).toBeNull();
    expect(here.firstElementChild).toHaveAttribute('aria-current', 'true');
    expect(within(entries()[0]!).getByRole('link')).toHaveAttribute('href', '/admin/leads/demo/9');

    fireEvent.click(within(entries()[1]!).getByRole('link'));
    await advance();
    expect(address()).toBe(`/admin/chats/${sessionId}`);
  });

  it('beside a conversation: the same timeline, the conversation marked, a lead a link to its detail', async () => {
    timelineServer();
    await openAt(`/admin/chats/${sessionId}`);
    expect(within(entries()[1]!).queryByRole('link')).toBeNull();
    expect(entries()[1]).toHaveTextContent('This conversation');
    fireEvent.click(within(entries()[2]!).getByRole('link', { name: /Contact form: Pricing Information/ }));
    await advance();
    expect(address()).toBe('/admin/leads/contact/7');
  });

  it.each([
    ['nothing yet', { body: { items: [], more: false } }, 'Nothing yet'],
    ['older items left out', { body: { items: annTimeline.items, more: true } }, 'Showing the newest 3.'],
    ['a failed read', { status: 500, body: { message: 'Internal Server Error' } }, 'Could not load the timeline. Try again'],
  ])('says so for %s', async (_case, answer, text) => {
    const server = timelineServer();
    server.on('GET /api/contacts/timeline', () => answer);
    await openAt('/admin/leads/contact/7');
    expect(screen.getByRole('region', { name: 'Timeline' })).toHaveTextContent(text);
  });

  it('beside a conversation without an email: none asked for', async () => {
    const server = timelineServer();
    server.on(`GET /api/chat-sessions/${sessionId}/context`, () => ({ body: chatContext({ sessionId }) }));
    await openAt(`/admin/chats/${sessionId}`);
    expect(screen.getByText('No email given')).toBeInTheDocument();
    expect(server.calls.some((call) => call.startsWith('GET /api/contacts/timeline'))).toBe(false);
  });
});
