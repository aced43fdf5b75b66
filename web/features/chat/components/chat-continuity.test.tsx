import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../../api/contract/chat';
import { chatRow, FakeTransport } from '../test/fake-transport';
import { ChatWidget } from './chat-widget';

let sessionId = '';
const row = (fields: Partial<ChatMessage> & { id: number; message: string }): ChatMessage => chatRow({ sessionId, ...fields });
const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Route = (url: string, init: RequestInit | undefined) => Response | Promise<Response> | undefined;
let routes: Route[] = [];
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
const posts = (path: string) =>
  fetchMock.mock.calls.filter(([url, init]) => init?.method === 'POST' && String(url) === path).map(([, init]) => (init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined));

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

async function renderWidget(transport: FakeTransport) {
  render(<ChatWidget transport={transport} />);
  await advance(0);
  sessionId = localStorage.getItem('chatSessionId') ?? '';
}

async function openPanel() {
  fireEvent.click(screen.getByRole('button', { name: /^Open chat/ }));
  await advance(0);
}

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  // Within business hours, as the other widget tests: after hours the widget shows its away state instead.
  vi.setSystemTime(new Date('2026-11-24T16:00:00Z'));
  routes = [];
  fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    for (const route of routes) {
      const answer = route(String(input), init);
      if (answer) return answer;
    }
    return jsonResponse({ message: 'Chat session not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => {});
  setVisibility('visible');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('seen receipts from the widget', () => {
  it('over the socket: the highest seq on screen once staff replies are shown with the panel open, and again only for a newer reply', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.history = [row({ id: 1, message: 'Question' }), row({ id: 2, message: 'Answer', isFromUser: false }), row({ id: 3, message: 'Thanks' })];
    transport.connect();
    await advance(0);
    // Joined with the panel closed: nothing is on screen yet.
    expect(transport.seens).toEqual([]);
    await openPanel();
    expect(transport.seens).toEqual([{ sessionId, upTo: 3 }]);

    // A visitor's own message is nothing new to see; a staff reply is.
    await act(async () => transport.handlers.onMessage(row({ id: 4, message: 'One more thing' })));
    expect(transport.seens).toHaveLength(1);
    await act(async () => transport.handlers.onMessage(row({ id: 5, message: 'Sure', isFromUser: false })));
    expect(transport.seens).toEqual([
      { sessionId, upTo: 3 },
      { sessionId, upTo: 5 },
    ]);

    // Closed panel: a reply is not seen until it is opened again.
    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    await act(async () => transport.handlers.onMessage(row({ id: 6, message: 'Still there?', isFromUser: false })));
    expect(transport.seens).toHaveLength(2);
    await openPanel();
    expect(transport.seens.at(-1)).toEqual({ sessionId, upTo: 6 });
  });

  it('not while the tab is hidden; told when it shows again', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.connect();
    await openPanel();
    setVisibility('hidden');
    await act(async () => transport.handlers.onMessage(row({ id: 1, message: 'Reply in a hidden tab', isFromUser: false })));
    expect(transport.seens).toEqual([]);
    await act(async () => setVisibility('visible'));
    expect(transport.seens).toEqual([{ sessionId, upTo: 1 }]);
  });

  it('by REST while the socket is down (the poll path)', async () => {
    // The widget's REST catch-up (the resync's REST twin): the messages after its cursor.
    routes.push((url, init) =>
      (init?.method ?? 'GET') === 'GET' && url.includes('/api/chat-visitor/sessions/')
        ? jsonResponse({ messages: new URL(url, 'http://x').searchParams.get('afterSeq') === '2' ? [] : [row({ id: 1, message: 'Q' }), row({ id: 2, message: 'A', isFromUser: false })], session: null })
        : undefined,
    );
    routes.push((url, init) => (init?.method === 'POST' && url.endsWith('/seen') ? jsonResponse({ visitorSeenSeq: 2 }) : undefined));
    const transport = new FakeTransport();
    await renderWidget(transport);
    await openPanel();
    expect(posts(`/api/chat-sessions/${sessionId}/seen`)).toEqual([{ upTo: 2 }]);
    // The next poll brings nothing new: no second receipt.
    await advance(3000);
    expect(posts(`/api/chat-sessions/${sessionId}/seen`)).toHaveLength(1);
  });
});

describe('email me this conversation', () => {
  it('shows once the conversation exists, and says where it went', async () => {
    routes.push((url, init) => (init?.method === 'POST' && url.endsWith('/transcript') ? jsonResponse({ email: 'dana@reyes.example', confirmationSent: false }, 202) : undefined));
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.connect();
    await openPanel();
    expect(screen.queryByRole('button', { name: 'Email me this conversation' })).not.toBeInTheDocument();
    await act(async () => transport.handlers.onMessage(row({ id: 1, message: 'Hello' })));
    fireEvent.click(screen.getByRole('button', { name: 'Email me this conversation' }));
    await advance(0);
    expect(posts(`/api/chat-sessions/${sessionId}/transcript`)).toEqual([undefined]);
    expect(screen.getByRole('status')).toHaveTextContent('Sent to dana@reyes.example. It should arrive in a minute or two.');
  });

  it('to an address that never confirmed it wants our mail: says a confirmation link went first', async () => {
    routes.push((url, init) => (init?.method === 'POST' && url.endsWith('/transcript') ? jsonResponse({ email: 'dana@reyes.example', confirmationSent: true }, 202) : undefined));
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.connect();
    await openPanel();
    await act(async () => transport.handlers.onMessage(row({ id: 1, message: 'Hello' })));
    fireEvent.click(screen.getByRole('button', { name: 'Email me this conversation' }));
    await advance(0);
    expect(screen.getByRole('status')).toHaveTextContent('We sent a confirmation link to dana@reyes.example. Open it and the conversation will follow in a minute or two.');
  });

  it('shows the server’s refusal (too soon), and asks for an email when the conversation has none', async () => {
    const refusals = [
      jsonResponse({ message: 'A transcript of this conversation was sent a moment ago: please wait 10 minutes before asking again.' }, 429),
      jsonResponse({ message: 'We have no email for this conversation yet: add yours to a message, then ask again.' }, 400),
    ];
    routes.push((url, init) => (init?.method === 'POST' && url.endsWith('/transcript') ? refusals.shift() : undefined));
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.connect();
    transport.handlers.onPresence(true);
    await openPanel();
    await act(async () => transport.handlers.onMessage(row({ id: 1, message: 'Hello' })));
    const button = screen.getByRole('button', { name: 'Email me this conversation' });
    fireEvent.click(button);
    await advance(0);
    expect(screen.getByRole('status')).toHaveTextContent('please wait 10 minutes');
    expect(screen.queryByLabelText(/Your email/)).not.toBeInTheDocument();
    fireEvent.click(button);
    await advance(0);
    expect(screen.getByRole('status')).toHaveTextContent('We have no email for this conversation yet');
    expect(screen.getByLabelText(/Your email/)).toBeInTheDocument();
  });
});

describe('the mailed link', () => {
  it('opens its conversation: the widget opens on it, keeps it, and takes the token out of the address', async () => {
    const linked = 'session_1766000000000_linked';
    window.history.replaceState(null, '', '/pricing?chat=the-token&utm=x');
    routes.push((url, init) => (init?.method === 'POST' && url === '/api/chat-links' ? jsonResponse({ sessionId: linked }) : undefined));
    const transport = new FakeTransport();
    transport.history = [chatRow({ id: 1, sessionId: linked, message: 'From my desk' }), chatRow({ id: 2, sessionId: linked, message: 'Our answer', isFromUser: false })];
    // As the launcher does: the widget mounts, then its open request comes.
    const { rerender } = render(<ChatWidget transport={transport} />);
    rerender(<ChatWidget transport={transport} openRequests={1} />);
    await advance(0);
    expect(posts('/api/chat-links')).toEqual([{ token: 'the-token' }]);
    expect(window.location.pathname + window.location.search).toBe('/pricing?utm=x');
    expect(localStorage.getItem('chatSessionId')).toBe(linked);
    transport.connect();
    await advance(0);
    expect(screen.getByText('Our answer')).toBeInTheDocument();
    expect(transport.seens).toEqual([{ sessionId: linked, upTo: 2 }]);
  });

  it('with no socket yet, the conversation loads by REST once the link has opened (a load begun before it is not the one shown)', async () => {
    const linked = 'session_1766000000000_slowlink';
    window.history.replaceState(null, '', '/?chat=slow-token');
    let release: () => void = () => {};
    const opened = new Promise<Response>((resolve) => (release = () => resolve(jsonResponse({ sessionId: linked }))));
    routes.push((url, init) => (init?.method === 'POST' && url === '/api/chat-links' ? opened : undefined));
    routes.push((url) =>
      url.startsWith(`/api/chat-visitor/sessions/${linked}`)
        ? jsonResponse({ messages: [chatRow({ id: 1, sessionId: linked, message: 'From my desk' }), chatRow({ id: 2, sessionId: linked, message: 'Our answer', isFromUser: false })], session: null })
        : undefined,
    );
    const transport = new FakeTransport();
    const { rerender } = render(<ChatWidget transport={transport} />);
    rerender(<ChatWidget transport={transport} openRequests={1} />);
    await advance(0);
    // The panel is open and the link still opening: nothing of the conversation is read yet.
    release();
    await advance(0);
    expect(screen.getByText('Our answer')).toBeInTheDocument();
  });

  it('a link that does not open says why, and leaves the visitor’s own conversation', async () => {
    window.history.replaceState(null, '', '/?chat=expired');
    routes.push((url, init) =>
      init?.method === 'POST' && url === '/api/chat-links'
        ? jsonResponse({ message: 'This conversation link has expired (links last 30 days). Start a new chat and we will pick it up from there.' }, 410)
        : undefined,
    );
    const transport = new FakeTransport();
    const { rerender } = render(<ChatWidget transport={transport} />);
    rerender(<ChatWidget transport={transport} openRequests={1} />);
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent('This conversation link has expired');
    expect(localStorage.getItem('chatSessionId')).toMatch(/^session_\d+_[a-z0-9]+$/);
  });
});
