import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../api/contract/chat';
import { AdminRoute } from './test/admin-route';
import { alertIntervalMs } from './lib/alerts';
import { chatMessage, chatSession, emptyCounts, fakeServer, type FakeServer } from './test/fake-server';
import { advance, fakeAudioContext, fakeNotification, freshDashboard, openChatTab, type ShownNotification } from './test/dashboard';
import type { FakeAdminSocket } from './test/fake-socket';

vi.mock('./api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

const knownSessionId = 'session_1732200000000_abcdef';
const newSessionId = 'session_1732200055555_newone';
let socket: FakeAdminSocket;
let server: FakeServer;

// The page keeps the first audio context a gesture made for the rest of this file: one sink for its tones.
const tones: number[] = [];
const FakeAudioContext = fakeAudioContext(tones);
const shown: ShownNotification[] = [];

beforeEach(() => {
  socket = freshDashboard();
  vi.stubGlobal('AudioContext', FakeAudioContext);
  vi.stubGlobal('Notification', fakeNotification(shown));
  shown.length = 0;
  server = fakeServer({ admin: 'staff@lotwise.example' });
  server.on('GET /api/admin/counts', () => ({ body: emptyCounts({ chatSessions: 1 }) }));
  server.on('GET /api/chat-sessions', () => ({
    body: [chatSession({ id: knownSessionId, unreadCount: 0, senderName: 'Pat', senderEmail: 'pat@lot.example', lastActivity: '2026-11-21T11:00:00.000Z' })],
  }));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The dashboard, after the gesture that lets it play sound. */
async function renderDashboard() {
  render(<AdminRoute />);
  await advance();
  fireEvent.mouseDown(document.body);
}

function push(event: string, ...args: unknown[]) {
  act(() => socket.serverPush(event, ...args));
}

/** The first message of a session a visitor just started. */
function firstMessage(fields: Partial<ChatMessage> = {}): ChatMessage {
  return chatMessage({ sessionId: newSessionId, seq: 1, ...fields });
}

/** What each push made: the tones played since `from`. */
function tonesSince(from: number): number[] {
  return tones.slice(from);
}

describe('a new conversation', () => {
  it('beeps and shows a notification naming the visitor, with the start of the message', async () => {
    await renderDashboard();
    const before = tones.length;
    const question = `Hi, I run a lot of 60 cars in Austin. ${'Do you do financing pages? '.repeat(10)}`;
    push('chat:message', firstMessage({ senderName: 'Dana', senderEmail: 'dana@austin.example', message: question }));
    expect(tonesSince(before)).toEqual([880, 1320]);
    expect(shown).toEqual([{ title: 'New chat from Dana', body: `${question.slice(0, 200).trimEnd()}…`, tag: `chat-${newSessionId}` }]);
  });

  it('says New chat for an anonymous visitor, and names one by email when no name was given', async () => {
    await renderDashboard();
    push('chat:message', firstMessage({ message: 'Anyone there?' }));
    await advance(alertIntervalMs * 2);
    push('chat:message', chatMessage({ sessionId: 'session_1732200066666_second', seq: 1, senderEmail: 'lee@lot.example', message: 'Pricing?' }));
    expect(shown).toEqual([
      { title: 'New chat', body: 'Anyone there?', tag: `chat-${newSessionId}` },
      { title: 'New chat from lee@lot.example', body: 'Pricing?', tag: 'chat-session_1732200066666_second' },
    ]);
  });

  it('names the visitor from the message itself while a search hides the new row', async () => {
    await renderDashboard();
    await openChatTab();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search Chat Messages' }), { target: { value: 'financing' } });
    await advance(400);
    push('chat:message', firstMessage({ senderName: 'Dana', message: 'Hello' }));
    expect(shown).toEqual([{ title: 'New chat from Dana', body: 'Hello', tag: `chat-${newSessionId}` }]);
  });

  it('shows no notification where the staff member denied them, and still beeps', async () => {
    vi.stubGlobal('Notification', fakeNotification(shown, 'denied'));
    await renderDashboard();
    const before = tones.length;
    push('chat:message', firstMessage({ senderName: 'Dana', message: 'Hello' }));
    expect(tonesSince(before)).toEqual([880, 1320]);
    expect(shown).toEqual([]);
  });

  it('asks for the permission on the first gesture, and notifies nothing while the answer is undecided', async () => {
    const undecided = fakeNotification(shown, 'default');
    vi.stubGlobal('Notification', undecided);
    await renderDashboard();
    // The gesture asked once; the browser's answer has not come.
    expect(undecided.requestPermission).toHaveBeenCalledTimes(1);
    push('chat:message', firstMessage({ message: 'Hello' }));
    expect(shown).toEqual([]);
  });
});

describe('a message in a conversation already under way', () => {
  it('beeps and notifies as a new message of that conversation, replacing its notification (one tag a conversation)', async () => {
    await renderDashboard();
    push('chat:message', firstMessage({ senderName: 'Dana', message: 'Hello' }));
    await advance(alertIntervalMs * 2);
    const before = tones.length;
    push('chat:message', chatMessage({ sessionId: newSessionId, seq: 2, senderName: 'Dana', message: 'Still there?' }));
    push('chat:message', chatMessage({ sessionId: knownSessionId, seq: 7, message: 'Back with a question' }));
    await advance(alertIntervalMs);
    expect(tonesSince(before)).toEqual([880, 1320]);
    expect(shown.slice(1)).toEqual([
      { title: 'New message from Dana', body: 'Still there?', tag: `chat-${newSessionId}` },
      // Within the interval after the first: shown at its end, without another beep.
      { title: 'New message from Pat', body: 'Back with a question', tag: `chat-${knownSessionId}` },
    ]);
  });

  it('neither beeps nor notifies for a message the staff member is reading in the open conversation', async () => {
    server.on(`GET /api/chat-messages/${knownSessionId}`, () => ({ body: [chatMessage({ sessionId: knownSessionId, seq: 1, message: 'Hi' })] }));
    server.on(`PATCH /api/chat-sessions/${knownSessionId}`, () => ({ body: chatSession({ id: knownSessionId, unreadCount: 0, senderName: 'Pat' }) }));
    await renderDashboard();
    await openChatTab();
    fireEvent.click(screen.getByRole('button', { name: /View & Reply/ }));
    await advance();
    const before = tones.length;
    push('chat:message', chatMessage({ sessionId: knownSessionId, seq: 2, message: 'Read as it comes' }));
    expect(tonesSince(before)).toEqual([]);
    expect(shown).toEqual([]);
  });
});
