import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage, ChatMessageInput } from '../../../api/contract/chat';
import { ChatController } from './controller';
import { chatRow, FakeTransport } from './test/fake-transport';

// Issue 24 part 6: an invalid optional email never blocks a message; messages written while the
// server cannot be reached wait, and go in the order written, once each, when the connection returns.

const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
/** Whether `POST /api/chat-message` reaches the server (else it fails as fetch does offline). */
let online = true;
const postBodies = () =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').map(([, init]) => JSON.parse(String(init!.body)) as ChatMessageInput);

/**
 * One server for both paths, numbering each session's messages 1, 2, 3 in the order they arrive and
 * storing a clientId once (a resend answers the row stored the first time), as chat.repository does.
 */
class FakeServer {
  rows: ChatMessage[] = [];
  private nextId = 200;
  store(input: ChatMessageInput): ChatMessage {
    const known = this.rows.find((row) => row.sessionId === input.sessionId && row.clientId === input.clientId);
    if (known) return known;
    const seq = this.rows.filter((row) => row.sessionId === input.sessionId).length + 1;
    const row = chatRow({ id: (this.nextId += 1), seq, sessionId: input.sessionId, message: input.message, clientId: input.clientId ?? null, senderEmail: input.senderEmail ?? null });
    this.rows.push(row);
    return row;
  }
}
let server: FakeServer;

const controllers: ChatController[] = [];
function startController(): { controller: ChatController; transport: FakeTransport } {
  const transport = new FakeTransport();
  transport.sendResult = async (message) => server.store(message);
  const controller = new ChatController(transport);
  controllers.push(controller);
  controller.start();
  return { controller, transport };
}

async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
}

const shown = (controller: ChatController) => controller.store.getState().entries.map((entry) => [entry.text, entry.status]);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  server = new FakeServer();
  online = true;
  fetchMock = vi.fn<typeof fetch>(async (_url, init) => {
    if (!online) throw new TypeError('Failed to fetch');
    if (init?.method === 'POST') return jsonResponse(server.store(JSON.parse(String(init.body)) as ChatMessageInput), 201);
    const afterSeq = Number(new URL(String(_url), 'http://localhost').searchParams.get('afterSeq') ?? 0);
    return jsonResponse({ messages: server.rows.filter((row) => row.seq > afterSeq), session: null });
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  for (const controller of controllers.splice(0)) controller.dispose();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('an invalid optional email', () => {
  it('is flagged and left out, and the message goes; a valid one goes with the next message', async () => {
    const { controller, transport } = startController();
    transport.connect();
    await advance(0);

    controller.setEmail('pat@dealer');
    controller.sendMessage('Please email me the price list');
    await advance(0);
    expect(transport.sent).toHaveLength(1);
    expect(transport.sent[0]).not.toHaveProperty('senderEmail');
    expect(shown(controller)).toEqual([['Please email me the price list', 'sent']]);
    expect(controller.store.getState().emailError).toMatch(/valid email address/);

    // Fixing it clears the flag; the next message carries it.
    controller.setEmail('pat@dealer.example');
    expect(controller.store.getState().emailError).toBe('');
    controller.sendMessage('Here is my address');
    await advance(0);
    expect(transport.sent[1]!.senderEmail).toBe('pat@dealer.example');
  });

  it('is flagged when the visitor leaves the field, and an empty one is no error', () => {
    const { controller } = startController();
    controller.setEmail('  ');
    controller.checkEmail();
    expect(controller.store.getState().emailError).toBe('');
    controller.setEmail('not an email');
    controller.checkEmail();
    expect(controller.store.getState().emailError).toMatch(/valid email address/);
  });
});

describe('messages written while the server cannot be reached', () => {
  it('wait as pending and go in the order written, once each, when the socket returns', async () => {
    const { controller, transport } = startController();
    transport.connect();
    controller.openPanel();
    await advance(0);
    controller.sendMessage('first, while connected');
    await advance(0);

    transport.drop();
    online = false;
    controller.sendMessage('one');
    controller.sendMessage('two');
    controller.sendMessage('three');
    await advance(0);
    expect(shown(controller)).toEqual([
      ['first, while connected', 'sent'],
      ['one', 'pending'],
      ['two', 'pending'],
      ['three', 'pending'],
    ]);
    // The later ones wait behind the first that could not go: one try, not three.
    expect(postBodies().map((body) => body.message)).toEqual(['one']);

    online = true;
    transport.connect();
    await advance(0);
    expect(transport.sent.map((message) => message.message)).toEqual(['first, while connected', 'one', 'two', 'three']);
    expect(server.rows.map((row) => [row.seq, row.message])).toEqual([
      [1, 'first, while connected'],
      [2, 'one'],
      [3, 'two'],
      [4, 'three'],
    ]);
    expect(shown(controller)).toEqual([
      ['first, while connected', 'sent'],
      ['one', 'sent'],
      ['two', 'sent'],
      ['three', 'sent'],
    ]);
    expect(controller.store.getState().entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
  });

  it('go by REST when the browser is back online before the socket is', async () => {
    const { controller } = startController();
    online = false;
    controller.sendMessage('one');
    controller.sendMessage('two');
    await advance(0);
    expect(shown(controller)).toEqual([
      ['one', 'pending'],
      ['two', 'pending'],
    ]);

    online = true;
    window.dispatchEvent(new Event('online'));
    await advance(0);
    expect(server.rows.map((row) => row.message)).toEqual(['one', 'two']);
    expect(shown(controller)).toEqual([
      ['one', 'sent'],
      ['two', 'sent'],
    ]);
  });

  it('are tried again on their own after a while, whatever brings the connection back', async () => {
    const { controller } = startController();
    online = false;
    controller.sendMessage('one');
    await advance(0);
    online = true;
    await advance(10_000);
    expect(shown(controller)).toEqual([['one', 'sent']]);
  });

  it('send one at a time: a message waits for the answer to the one before it', async () => {
    const { controller, transport } = startController();
    transport.connect();
    await advance(0);
    const acks: (() => void)[] = [];
    transport.sendResult = (message) => new Promise((resolve) => acks.push(() => resolve(server.store(message))));
    controller.sendMessage('one');
    controller.sendMessage('two');
    await advance(0);
    expect(transport.sent.map((message) => message.message)).toEqual(['one']);
    expect(shown(controller)).toEqual([
      ['one', 'sending'],
      ['two', 'sending'],
    ]);
    acks.shift()!();
    await advance(0);
    expect(transport.sent.map((message) => message.message)).toEqual(['one', 'two']);
    acks.shift()!();
    await advance(0);
    expect(server.rows.map((row) => row.message)).toEqual(['one', 'two']);
  });

  it('stored already though the answer was lost: the resend keeps its clientId and the message shows once', async () => {
    const { controller, transport } = startController();
    transport.connect();
    await advance(0);
    // The server stores the message, then the socket drops before the ack, and REST is down too.
    transport.sendResult = async (message) => {
      server.store(message);
      transport.drop();
      online = false;
      throw new Error('operation has timed out');
    };
    controller.sendMessage('did it go?');
    controller.sendMessage('and this?');
    await advance(0);
    expect(shown(controller)).toEqual([
      ['did it go?', 'pending'],
      ['and this?', 'pending'],
    ]);

    online = true;
    transport.sendResult = async (message) => server.store(message);
    transport.connect();
    await advance(0);
    expect(server.rows.map((row) => [row.seq, row.message])).toEqual([
      [1, 'did it go?'],
      [2, 'and this?'],
    ]);
    expect(shown(controller)).toEqual([
      ['did it go?', 'sent'],
      ['and this?', 'sent'],
    ]);
    const clientIds = [...postBodies(), ...transport.sent].filter((body) => body.message === 'did it go?').map((body) => body.clientId);
    expect(new Set(clientIds).size).toBe(1);
  });

  it('a message the server refused is set aside with its reason and does not hold the others', async () => {
    const { controller, transport } = startController();
    transport.connect();
    await advance(0);
    fetchMock.mockImplementationOnce(async () => jsonResponse({ message: 'Too many messages: please wait 40 seconds and try again' }, 429));
    transport.sendResult = async (message) => {
      if (message.message === 'refused') throw new Error('operation has timed out');
      return server.store(message);
    };
    controller.sendMessage('refused');
    controller.sendMessage('after it');
    await advance(0);
    // Stored messages go in the server's order; one not stored shows after them, where a retry would put it.
    expect(shown(controller)).toEqual([
      ['after it', 'sent'],
      ['refused', 'failed'],
    ]);
    expect(controller.store.getState().entries[1]!.error).toBe('Too many messages: please wait 40 seconds and try again');
  });
});
