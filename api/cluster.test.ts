// @scaled: several app processes on one PostgreSQL and Redis
import { randomBytes } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshPostgresUrl, onPostgres } from '../test/support/database';
import { type AppProcess, startAppProcess } from '../scripts/services/app-process';
import { type NginxInstance, startNginx } from '../scripts/services/nginx';
import type { ChatMessage } from './contract/chat';
import { apiPaths, leadPaths, pathTo } from './contract/paths';
import type {
  AckAnswer,
  StaffClientToServerEvents,
  StaffServerToClientEvents,
  VisitorClientToServerEvents,
  VisitorServerToClientEvents,
} from './contract/socket';
import { collect, nextEvent } from '../test/support/sockets';

type VisitorSocket = Socket<VisitorServerToClientEvents, VisitorClientToServerEvents>;
type StaffSocket = Socket<StaffServerToClientEvents, StaffClientToServerEvents>;

const redisUrl = inject('redisUrl');

const staffEmail = 'cluster-admin@lotwise.example';
const staffPassword = 'cluster-test-password-5b2e';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two real server processes (`node api/server.ts`) on one PostgreSQL and one Redis, behind nginx
 * rendered from deploy/nginx.conf: what the README's "Run on several hosts" sets up. The visitor
 * talks only to nginx, as the widget does; the staff member's browser is on the other node.
 */
describe.skipIf(!onPostgres || !redisUrl)('two nodes behind nginx on PostgreSQL and Redis', () => {
  let nodeA: AppProcess;
  let nodeB: AppProcess;
  let nginx: NginxInstance;
  let env: Record<string, string>;
  let staffCookie: string;
  let visitorCookie: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    env = {
      DATABASE_URL: await freshPostgresUrl(),
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: `multi-node-${randomBytes(4).toString('hex')}:`,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: staffEmail,
      ADMIN_PASSWORD: staffPassword,
      // nginx on loopback is the balancer: only it may say who the client is.
      TRUST_PROXY: '127.0.0.1',
    };
    // Both nodes start at once on an empty database: the migrations and the staff account must cope.
    [nodeA, nodeB] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
    nginx = await startNginx({ upstreamPorts: [nodeA.port, nodeB.port] });
  }, 120_000);

  afterEach((context) => {
    // What the nodes said, for a failure's report.
    if (context.task.result?.state === 'fail') console.log(`node A:\n${nodeA.output()}\nnode B:\n${nodeB.output()}`);
  });

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await nginx?.stop();
    await Promise.all([nodeA?.stop(), nodeB?.stop()]);
  });

  const connect = <S extends Socket>(url: string, cookie: string, reconnection = false): S => {
    const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection, reconnectionDelay: 200, reconnectionDelayMax: 1000, extraHeaders: { cookie } });
    sockets.push(socket);
    return socket as S;
  };
  const connectedNow = (socket: Socket) =>
    socket.connected ? Promise.resolve() : new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });

  it('both nodes started together on one empty database, with one staff account', async () => {
    for (const node of [nodeA, nodeB]) expect((await fetch(`${node.url}${apiPaths.health}`)).status).toBe(200);
    // The bootstrap account works on either node: one row, whichever node created it.
    for (const node of [nodeA, nodeB]) {
      const response = await fetch(`${node.url}${apiPaths.staffLogin}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: staffEmail, password: staffPassword }),
      });
      expect(response.status).toBe(200);
      staffCookie = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');
    }
    // A visitor identity, issued with the widget's first look for its history (none yet). It is asked
    // of node B directly, so the visitor's socket below is the first connection nginx balances.
    const history = await fetch(`${nodeB.url}${pathTo(apiPaths.chatHistory, { sessionId: 'session_cluster_probe' })}`);
    expect(history.status).toBe(404);
    visitorCookie = history.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');
    expect(visitorCookie).toMatch(/^lw_visitor=/);
  });

  let visitor: VisitorSocket;
  let staff: StaffSocket;
  const sessionId = `session_cluster_${randomBytes(6).toString('hex')}`;

  it('a visitor on node A and staff on node B chat both ways, with presence and typing', async () => {
    // The staff member's dashboard is on node B; the session cookie works on any node.
    staff = connect<StaffSocket>(`${nodeB.url}/admin`, staffCookie);
    await connectedNow(staff);
    // The first connection through a fresh nginx (one worker; least connections, ties in turn) goes to
    // the first upstream, node A; the kill -9 below checks it.
    visitor = connect<VisitorSocket>(nginx.url, visitorCookie, true);
    const presence = nextEvent(visitor, 'staff:presence');
    await connectedNow(visitor);
    expect(await presence).toEqual({ online: true });

    const joined = await visitor.timeout(5000).emitWithAck('chat:join', { sessionId });
    expect(joined).toEqual({ ok: true, messages: [] });

    const atStaff = nextEvent(staff, 'chat:message');
    const sent = await visitor.timeout(5000).emitWithAck('chat:send', { sessionId, message: 'Hi, do you do inventory feeds?', clientId: 'c-first' });
    expect(sent.ok).toBe(true);
    expect(await atStaff).toMatchObject({ sessionId, message: 'Hi, do you do inventory feeds?', isFromUser: true, clientId: 'c-first' });

    const visitorTyping = nextEvent(staff, 'chat:typing');
    visitor.emit('chat:typing', { sessionId, typing: true });
    expect(await visitorTyping).toMatchObject({ sessionId, typing: true });
    const staffTyping = nextEvent(visitor, 'chat:typing');
    staff.emit('chat:typing', { sessionId, typing: true });
    expect(await staffTyping).toMatchObject({ sessionId, typing: true });

    const atVisitor = nextEvent(visitor, 'chat:message');
    const reply = await staff.timeout(5000).emitWithAck('chat:reply', { sessionId, message: 'We do: every major marketplace.', clientId: 's-first' });
    expect(reply.ok).toBe(true);
    expect(await atVisitor).toMatchObject({ sessionId, message: 'We do: every major marketplace.', isFromUser: false });
  });

  it('a lead posted through nginx reaches the staff socket live, whichever node took it', async () => {
    const pushed = nextEvent(staff, 'submission:new');
    const response = await fetch(`${nginx.url}${leadPaths.contact.create}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Rosa Diaz',
        email: 'rosa@diaz-motors.example',
        company: 'Diaz Motors',
        phone: '(512) 555-0188',
        subject: 'pricing',
        message: 'Two lots, 140 cars.',
      }),
    });
    expect(response.status).toBe(201);
    expect(await pushed).toMatchObject({ kind: 'contact' });
  });

  it('signing out on node A closes that sign-in’s dashboard on node B at once, and it cannot come back', async () => {
    const signIn = await fetch(`${nodeA.url}${apiPaths.staffLogin}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: staffEmail, password: staffPassword }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
    const dashboard = connect<StaffSocket>(`${nodeB.url}/admin`, cookie);
    await connectedNow(dashboard);

    const closed = nextEvent(dashboard, 'disconnect', 5000);
    const signOut = await fetch(`${nodeA.url}${apiPaths.staffLogout}`, { method: 'POST', headers: { cookie } });
    expect(signOut.status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    // The session is gone from the shared store: node B refuses the cookie now.
    await expect(connectedNow(connect<StaffSocket>(`${nodeB.url}/admin`, cookie))).rejects.toThrow();
    // The other staff member, signed in separately, is still connected.
    expect(staff.connected).toBe(true);
  });

  it('kill -9 of the visitor node mid-conversation: the visitor reconnects through nginx, nothing acknowledged is lost or shown twice', async () => {
    const staffSaw = collect<ChatMessage>(staff, 'chat:message');
    const acked = new Set<string>();
    const unacked = new Map<string, string>();
    let count = 0;
    // Within the per-visitor limit (30 a minute) even if every one of them has to be sent twice.
    const sends = 12;
    let sentWhileDown = 0;
    const send = async (clientId: string, message: string) => {
      unacked.set(clientId, message);
      if (!visitor.connected) sentWhileDown += 1;
      try {
        const answer = await visitor.timeout(3000).emitWithAck('chat:send', { sessionId, message, clientId });
        if (answer.ok) {
          acked.add(clientId);
          unacked.delete(clientId);
        }
      } catch {
        // No answer before the node died: the widget keeps it and sends it again once reconnected.
      }
    };
    // The visitor types away; staff answer now and then.
    const chatting = (async () => {
      for (; count < sends; count += 1) {
        void send(`c-${count}`, `Message ${count} from the visitor`);
        if (count % 4 === 2) await staff.timeout(5000).emitWithAck('chat:reply', { sessionId, message: `Reply ${count}`, clientId: `s-${count}` });
        await pause(60);
      }
    })();
    await pause(400);
    const disconnected = nextEvent(visitor, 'disconnect', 5000);
    nodeA.kill('SIGKILL');
    // Proves the visitor was on node A: its socket dropped with the node.
    await disconnected;
    await chatting;
    // Some of the conversation happened while the visitor had no node.
    expect(sentWhileDown).toBeGreaterThan(0);
    await connectedNow(visitor);
    // Back through nginx on node B: rejoin for the history, then resend what had no answer, as the widget does.
    const rejoined = await visitor.timeout(5000).emitWithAck('chat:join', { sessionId });
    expect(rejoined.ok).toBe(true);
    const resent = [...unacked.keys()];
    for (const [clientId, message] of [...unacked]) await send(clientId, message);
    expect(unacked.size).toBe(0);

    const history = (await visitor.timeout(5000).emitWithAck('chat:join', { sessionId })) as AckAnswer<{ messages: ChatMessage[] }>;
    if (!history.ok) throw new Error(history.error);
    const visitorIds = history.messages.filter((message) => message.isFromUser).map((message) => message.clientId);
    // Every message the visitor sent is stored exactly once (one sent into the dying node is stored
    // when the visitor sends it again, so after the ones sent later).
    expect(visitorIds[0]).toBe('c-first');
    expect([...visitorIds].sort()).toEqual(['c-first', ...Array.from({ length: sends }, (_, index) => `c-${index}`)].sort());
    expect(history.messages.filter((message) => !message.isFromUser).map((message) => message.message)).toEqual([
      'We do: every major marketplace.',
      'Reply 2',
      'Reply 6',
      'Reply 10',
    ]);
    // The session's order has no holes or repeats.
    const seqs = history.messages.map((message) => message.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);

    // Staff, on the node that lived, got no visitor message twice, and every one node B stored (those sent
    // again) live. A push is live, after commit: one node A committed in the instant before the kill may
    // have died with it; staff read that one with the conversation, whose view matches below.
    await pause(300);
    const pushedIds = staffSaw.filter((message) => message.isFromUser).map((message) => message.clientId);
    expect(new Set(pushedIds).size).toBe(pushedIds.length);
    const sentIds = Array.from({ length: sends }, (_, index) => `c-${index}`);
    expect(pushedIds.filter((id) => !sentIds.includes(id!))).toEqual([]);
    expect(resent.filter((id) => !pushedIds.includes(id))).toEqual([]);
    const staffHistory = await fetch(`${nodeB.url}${pathTo(apiPaths.chatHistory, { sessionId })}`, { headers: { cookie: staffCookie } });
    expect(staffHistory.status).toBe(200);
    const staffMessages = (await staffHistory.json()) as ChatMessage[];
    expect(staffMessages.map((message) => message.id)).toEqual(history.messages.map((message) => message.id));
  }, 60_000);

  it('when the last staff member leaves, the visitor sees nobody online', async () => {
    const offline = nextEvent(visitor, 'staff:presence');
    staff.disconnect();
    expect(await offline).toEqual({ online: false });
  });

  it('the sign-in limit is one total across the nodes, not one per node', async () => {
    const fromAddress = '203.0.113.77';
    const attempt = (node: AppProcess, password: string) =>
      fetch(`${node.url}${apiPaths.staffLogin}`, {
        method: 'POST',
        // Each node trusts the balancer's address (loopback) to name the client.
        headers: { 'content-type': 'application/json', 'x-forwarded-for': fromAddress },
        body: JSON.stringify({ username: staffEmail, password }),
      });
    // Node A died above; a third process joins, as a replaced node would.
    const nodeC = await startAppProcess(env);
    try {
      for (let index = 0; index < 10; index += 1) {
        expect((await attempt(index % 2 ? nodeB : nodeC, 'wrong-password')).status).toBe(401);
      }
      // The 11th guess from that address is refused on either node, even with the right password.
      expect((await attempt(nodeB, staffPassword)).status).toBe(429);
      expect((await attempt(nodeC, staffPassword)).status).toBe(429);
    } finally {
      await nodeC.stop();
    }
  }, 60_000);
});
