import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../../api/contract/chat';
import { chatRow, FakeTransport } from '../test/fake-transport';
import { ChatRefusedError } from '../transport';
import { ChatWidget, pendingText, welcomeText } from './chat-widget';

let sessionId = '';
const row = (fields: Partial<ChatMessage> & { id: number; message: string }): ChatMessage => chatRow({ sessionId, ...fields });

const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
const postCalls = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

async function renderWidget(transport: FakeTransport) {
  render(<ChatWidget transport={transport} />);
  sessionId = localStorage.getItem('chatSessionId') ?? '';
  await advance(0);
}

async function openPanel() {
  fireEvent.click(screen.getByRole('button', { name: /^Open chat/ }));
  await advance(0);
}

function typeAndEnter(text: string) {
  const input = screen.getByRole('textbox', { name: 'Message' });
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter' });
}

const shown = (text: string) => screen.queryAllByText(text).length;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  // Within business hours (Tuesday 10 AM in Chicago), so the live chat shows whatever the hour of the run.
  vi.setSystemTime(new Date('2026-11-24T16:00:00Z'));
  fetchMock = vi.fn<typeof fetch>(async () => jsonResponse({ message: 'Chat session not found' }, 404));
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('chat widget', () => {
  it('keeps a session id of the form session_<timestamp>_<random> in local storage', async () => {
    await renderWidget(new FakeTransport());
    expect(sessionId).toMatch(/^session_\d+_[a-z0-9]+$/);
  });

  it('shows "Loading messages..." and then the welcome message when the history is empty', async () => {
    let answer: (response: Response) => void = () => {};
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    await renderWidget(new FakeTransport());
    await openPanel();
    expect(screen.getByText('Loading messages...')).toBeInTheDocument();
    await act(async () => answer(jsonResponse({ messages: [], session: null })));
    await advance(0);
    expect(screen.queryByText('Loading messages...')).not.toBeInTheDocument();
    expect(screen.getByText(welcomeText)).toBeInTheDocument();
    expect(welcomeText).toBe("Hi! I'm here to help you learn more about Lotwise. How can I assist you today?");
  });

  it('shows the welcome message when the load fails, and logs the failure', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await renderWidget(new FakeTransport());
    await openPanel();
    expect(screen.getByText(welcomeText)).toBeInTheDocument();
    expect(console.error).toHaveBeenCalled();
  });

  it('shows the history instead of the welcome when there is one', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.history = [row({ id: 1, message: 'Earlier question' }), row({ id: 2, message: 'Earlier answer', isFromUser: false })];
    transport.connect();
    await openPanel();
    expect(screen.getByText('Earlier question')).toBeInTheDocument();
    expect(screen.getByText('Earlier answer')).toBeInTheDocument();
    expect(screen.queryByText(welcomeText)).not.toBeInTheDocument();
  });

  it('signs a staff reply with the name its author chose, from history and live, and an unnamed one as Support', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.history = [row({ id: 1, message: 'Earlier question' }), row({ id: 2, message: 'Earlier answer', isFromUser: false, kind: 'staff', staffName: 'Dana' })];
    transport.connect();
    await openPanel();
    await act(async () => transport.handlers.onMessage(row({ id: 3, message: 'Live answer', isFromUser: false, kind: 'staff', staffName: 'Sam' })));
    await act(async () => transport.handlers.onMessage(row({ id: 4, message: 'Unnamed answer', isFromUser: false, kind: 'staff' })));
    expect(screen.getByText('Dana, Lotwise')).toBeInTheDocument();
    expect(screen.getByText('Sam, Lotwise')).toBeInTheDocument();
    expect(screen.getByText('Dana, Lotwise said:')).toHaveClass('sr-only');
    expect(screen.getAllByText('Support said:').length).toBeGreaterThan(0);
  });

  it('shows http(s) addresses in messages as links opening in a new tab, and everything else as text', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.history = [
      row({ id: 1, message: 'Is www.joesauto.example on your plan? <img src=x onerror=alert(1)> javascript:alert(1)' }),
      row({ id: 2, message: 'Yes: see https://lotwise.example/pricing.', isFromUser: false }),
    ];
    transport.connect();
    await openPanel();
    const log = screen.getByRole('log', { name: 'Chat messages' });
    const links = within(log).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['www.joesauto.example', 'https://www.joesauto.example/'],
      ['https://lotwise.example/pricing', 'https://lotwise.example/pricing'],
    ]);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    }
    // What the visitor typed stays text: no element made of it, the sentence's period outside the link.
    expect(log.querySelector('img')).toBeNull();
    expect(screen.getByText(/<img src=x onerror=alert\(1\)> javascript:alert\(1\)$/)).toBeInTheDocument();
    expect(links[1]!.parentElement).toHaveTextContent('Yes: see https://lotwise.example/pricing.');
  });

  it('links an address in the message the visitor just sent', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.connect();
    await openPanel();
    typeAndEnter('My site: http://pats-cars.example/used');
    await advance(0);
    expect(screen.getByRole('link', { name: 'http://pats-cars.example/used' })).toHaveAttribute('href', 'http://pats-cars.example/used');
  });

  it('sends on Enter: the message shows at once, the input clears, and push + ack + poll show it once', async () => {
    const transport = new FakeTransport();
    let release: (message: ChatMessage) => void = () => {};
    transport.sendResult = () => new Promise((resolve) => (release = resolve));
    await renderWidget(transport);
    transport.connect();
    await openPanel();

    typeAndEnter('  Do you integrate with CarGurus?  ');
    expect(screen.getByText('Do you integrate with CarGurus?')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('');
    const clientId = transport.sent[0]!.clientId;
    expect(transport.sent[0]).toMatchObject({ sessionId, message: 'Do you integrate with CarGurus?' });

    const stored = row({ id: 7, message: 'Do you integrate with CarGurus?', clientId });
    await act(async () => transport.handlers.onMessage(stored)); // the push arrives before the ack
    await act(async () => release(stored));
    await act(async () => transport.handlers.onMessage(stored)); // and again, from a second path
    expect(shown('Do you integrate with CarGurus?')).toBe(1);
  });

  it('does not send a blank message', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.connect();
    await openPanel();
    typeAndEnter('    ');
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(transport.sent).toHaveLength(0);
    expect(postCalls()).toHaveLength(0);
  });

  it('sends by REST while disconnected, marks a send that could not go as waiting with Retry, and a retry stores it once with the same clientId', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    await openPanel();
    fetchMock.mockImplementation(async (_url, init) => {
      if (init?.method === 'POST') throw new TypeError('Failed to fetch');
      return jsonResponse({ messages: [], session: null });
    });
    typeAndEnter('Hello while offline');
    await advance(0);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByText(pendingText)).toBeInTheDocument();

    const firstBody = JSON.parse(String(postCalls()[0]![1]!.body)) as { clientId: string };
    fetchMock.mockImplementation(async (_url, init) => {
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { clientId: string; message: string };
        return jsonResponse(row({ id: 9, message: body.message, clientId: body.clientId }), 201);
      }
      return jsonResponse({ messages: [row({ id: 9, message: 'Hello while offline', clientId: firstBody.clientId })], session: null });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await advance(0);
    const retryBody = JSON.parse(String(postCalls().at(-1)![1]!.body)) as { clientId: string; isFromUser: boolean };
    expect(retryBody.clientId).toBe(firstBody.clientId);
    expect(retryBody.isFromUser).toBe(true);
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    await advance(3_000); // a poll brings the same row back
    expect(shown('Hello while offline')).toBe(1);
  });

  it('shows the server’s reason when it refuses a message', async () => {
    const transport = new FakeTransport();
    transport.sendResult = async () => {
      throw new ChatRefusedError('Too many messages: please wait 40 seconds and try again');
    };
    await renderWidget(transport);
    transport.connect();
    await openPanel();
    typeAndEnter('spam');
    await advance(0);
    expect(screen.getByText('Too many messages: please wait 40 seconds and try again')).toBeInTheDocument();
    expect(postCalls()).toHaveLength(0);
  });

  it('follows staff presence; with nobody online during a conversation it offers an email field sent as senderEmail', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.history = [row({ id: 1, message: 'Earlier question' })];
    transport.connect();
    await act(async () => transport.handlers.onPresence(true));
    await openPanel();
    expect(screen.getByText('Online now')).toBeInTheDocument();
    expect(screen.queryByLabelText(/Your email/)).not.toBeInTheDocument();

    await act(async () => transport.handlers.onPresence(false));
    expect(screen.getByText('We usually reply within a few minutes')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/Your email/), { target: { value: 'pat@dealer.example' } });
    typeAndEnter('Please email me');
    expect(transport.sent[0]!.senderEmail).toBe('pat@dealer.example');
  });

  it('shows a typing indicator while staff type', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.connect();
    await openPanel();
    await act(async () => transport.handlers.onTyping({ sessionId, typing: true }));
    expect(screen.getByText('Support is typing…')).toBeInTheDocument();
    await act(async () => transport.handlers.onTyping({ sessionId, typing: false }));
    expect(screen.queryByText('Support is typing…')).not.toBeInTheDocument();
  });

  it('counts staff replies on the closed bubble and clears them on open', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.connect();
    await advance(0);
    await act(async () => transport.handlers.onMessage(row({ id: 50, message: 'We replied', isFromUser: false })));
    await act(async () => transport.handlers.onMessage(row({ id: 51, message: 'Still there?', isFromUser: false })));
    await act(async () => transport.handlers.onMessage(row({ id: 51, message: 'Still there?', isFromUser: false })));
    expect(screen.getByRole('button', { name: 'Open chat, 2 unread messages' })).toBeInTheDocument();
    await openPanel();
    expect(screen.getByText('We replied')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    expect(screen.getByRole('button', { name: 'Open chat' })).toBeInTheDocument();
  });

  it('tells staff of each page the router shows once the conversation exists', async () => {
    const address = window.location.href;
    try {
      const transport = new FakeTransport();
      window.history.replaceState(null, '', '/inventory');
      const { rerender } = render(<ChatWidget transport={transport} pathname="/inventory" />);
      sessionId = localStorage.getItem('chatSessionId') ?? '';
      transport.history = [row({ id: 1, message: 'Earlier question' })];
      await act(async () => transport.connect());
      await advance(0);

      window.history.pushState(null, '', '/pricing?plan=pro');
      rerender(<ChatWidget transport={transport} pathname="/pricing" />);
      rerender(<ChatWidget transport={transport} pathname="/pricing" openRequests={1} />);
      expect(transport.pages).toEqual([{ sessionId, url: `${window.location.origin}/pricing` }]);
    } finally {
      window.history.replaceState(null, '', address);
    }
  });

  it('ignores messages of another session', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.connect();
    await openPanel();
    await act(async () => transport.handlers.onMessage({ ...row({ id: 60, message: 'not for you', isFromUser: false }), sessionId: 'session_other_1' }));
    expect(shown('not for you')).toBe(0);
  });
});
