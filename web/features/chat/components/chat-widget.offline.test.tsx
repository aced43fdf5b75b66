import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage, ChatMessageInput } from '../../../../api/contract/chat';
import { chatRow, FakeTransport } from '../test/fake-transport';
import { ChatWidget, pendingText } from './chat-widget';

// Issue 24 part 6 in the panel: the flagged email, and messages waiting for the connection.

const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let sessionId = '';
let online = true;
/** What the server stored, numbered per session in the order it arrived (the same clientId once). */
let stored: ChatMessage[] = [];
function store(input: ChatMessageInput): ChatMessage {
  const known = stored.find((row) => row.clientId === input.clientId);
  if (known) return known;
  const row = chatRow({ id: 300 + stored.length, seq: stored.length + 1, sessionId: input.sessionId, message: input.message, clientId: input.clientId ?? null });
  stored.push(row);
  return row;
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

async function openWidget(transport: FakeTransport) {
  render(<ChatWidget transport={transport} />);
  sessionId = localStorage.getItem('chatSessionId') ?? '';
  await advance(0);
  fireEvent.click(screen.getByRole('button', { name: /^Open chat/ }));
  await advance(0);
}

function type(text: string) {
  fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: text } });
}

function typeAndEnter(text: string) {
  type(text);
  fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message' }), { key: 'Enter' });
}

const bubbles = () =>
  within(screen.getByRole('log', { name: 'Chat messages' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(new Date('2026-11-24T16:00:00Z'));
  online = true;
  stored = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (_url, init) => {
      if (!online) throw new TypeError('Failed to fetch');
      if (init?.method === 'POST') return jsonResponse(store(JSON.parse(String(init.body)) as ChatMessageInput), 201);
      return jsonResponse({ messages: stored, session: null });
    }),
  );
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the optional email of the live chat', () => {
  it('is flagged at its field when invalid, and the message goes without it by the Send button', async () => {
    const transport = new FakeTransport();
    transport.sendResult = async (message) => store(message);
    await openWidget(transport);
    transport.history = [chatRow({ id: 1, sessionId, message: 'Earlier question' })];
    transport.connect();
    await act(async () => transport.handlers.onPresence(false));
    await advance(0);

    const email = screen.getByLabelText(/Your email/);
    fireEvent.change(email, { target: { value: 'pat@dealer' } });
    fireEvent.blur(email);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Please enter a valid email address. Your messages still go, without it.');

    type('Please send me the price list');
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await advance(0);
    expect(transport.sent).toHaveLength(1);
    expect(transport.sent[0]!.message).toBe('Please send me the price list');
    expect(transport.sent[0]).not.toHaveProperty('senderEmail');
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('');
    expect(email).toHaveAttribute('aria-invalid', 'true');

    // Corrected: the flag goes at once, and the next message carries the address.
    fireEvent.change(email, { target: { value: 'pat@dealer.example' } });
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(email).not.toHaveAccessibleDescription();
    typeAndEnter('My address is fixed');
    await advance(0);
    expect(transport.sent[1]!.senderEmail).toBe('pat@dealer.example');
  });
});

describe('messages written offline', () => {
  it('show as waiting with Retry, then go in order, once each, when the connection returns', async () => {
    const transport = new FakeTransport();
    transport.sendResult = async (message) => store(message);
    await openWidget(transport);
    online = false;
    typeAndEnter('First offline');
    typeAndEnter('Second offline');
    typeAndEnter('Third offline');
    await advance(0);
    expect(screen.getAllByText(pendingText)).toHaveLength(3);
    expect(screen.getAllByRole('button', { name: 'Retry' })).toHaveLength(3);

    online = true;
    transport.connect();
    await advance(0);
    expect(stored.map((row) => row.message)).toEqual(['First offline', 'Second offline', 'Third offline']);
    expect(screen.queryByText(pendingText)).not.toBeInTheDocument();
    expect(bubbles().filter((text) => text.includes('offline'))).toEqual([
      expect.stringContaining('First offline'),
      expect.stringContaining('Second offline'),
      expect.stringContaining('Third offline'),
    ]);

    // A poll or resync bringing the same rows back changes nothing.
    await act(async () => {
      for (const row of stored) transport.handlers.onMessage(row);
    });
    expect(screen.getAllByText(/offline$/)).toHaveLength(3);
  });
});
