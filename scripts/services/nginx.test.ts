import { request } from 'node:http';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../api/contract/paths';
import { teamPaths } from '../../api/contract/team';
import type { VisitorClientToServerEvents, VisitorServerToClientEvents } from '../../api/contract/socket';
import { connected } from '../../test/support/sockets';
import { type AppProcess, startAppProcess } from './app-process';
import { type NginxInstance, startNginx } from './nginx';

/** A POST through the balancer from a given loopback address (any of 127.0.0.0/8 stands for a client). */
function post(url: string, body: unknown, from: { localAddress: string; headers?: Record<string, string> }): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    request(url, { method: 'POST', localAddress: from.localAddress, headers: { 'content-type': 'application/json', ...from.headers } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    })
      .on('error', reject)
      .end(payload);
  });
}

/** The node ports named in nginx's access log lines for that URI. */
async function upstreamPortsOf(nginx: NginxInstance, uri: string): Promise<string[]> {
  return (await nginx.accessLog())
    .split('\n')
    .filter((line) => line.includes(` ${uri} `))
    .map((line) => line.split(' ').at(-1)!.split(':').at(-1)!);
}

describe('two app nodes behind the shipped deploy/nginx.conf', () => {
  let nodes: AppProcess[] = [];
  let nginx: NginxInstance | undefined;

  beforeAll(async () => {
    // Two nodes as the README's "Run on several hosts" starts them: one SESSION_SECRET, the balancer trusted.
    // LOG_LEVEL info: each node logs every request, as a deployment does.
    const env = { SESSION_SECRET: 'cluster-test-secret-of-at-least-32-characters', TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'info' };
    const started = await Promise.allSettled([startAppProcess(env), startAppProcess(env)]);
    nodes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    nginx = await startNginx({ upstreamPorts: nodes.map((node) => node.port) });
  }, 60_000);

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(nodes.map((node) => node.stop()));
  });

  it('spreads requests over both nodes', async () => {
    for (let i = 0; i < 6; i += 1) expect((await fetch(`${nginx!.url}${apiPaths.health}`)).status).toBe(200);
    const answeredBy = new Set(await upstreamPortsOf(nginx!, apiPaths.health));
    expect(answeredBy).toEqual(new Set(nodes.map((node) => String(node.port))));
  });

  it('carries a Socket.IO WebSocket through to a node, as a page of the site opens it', async () => {
    const visitor: Socket<VisitorServerToClientEvents, VisitorClientToServerEvents> = io(nginx!.url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      extraHeaders: { origin: nginx!.url },
    });
    try {
      await connected(visitor);
      const answer = await visitor.timeout(5000).emitWithAck('chat:join', { sessionId: crypto.randomUUID() });
      expect(answer).toMatchObject({ ok: true, messages: [] });
    } finally {
      visitor.disconnect();
    }
  });

  it('counts a client by the address nginx saw: a forged X-Forwarded-For does not dodge a limit per address', async () => {
    const forgotPassword = `${nginx!.url}${apiPaths.forgotPassword}`;
    const body = { email: 'nobody@example.com' };
    // 10 per 15 minutes per address on each node: two nodes let 20 through at most, whatever the header says.
    const statuses: (number | undefined)[] = [];
    for (let i = 1; i <= 25 && !statuses.includes(429); i += 1) {
      statuses.push(await post(forgotPassword, body, { localAddress: '127.0.0.5', headers: { 'x-forwarded-for': `198.51.100.${i}` } }));
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(20);
    // Another client is counted apart, on either node: the nodes see clients, not the balancer.
    expect([await post(forgotPassword, body, { localAddress: '127.0.0.6' }), await post(forgotPassword, body, { localAddress: '127.0.0.6' })]).toEqual([200, 200]);
  });

  it('refuses a body over the server limit itself, and both nodes stay in service', async () => {
    const answer = await fetch(`${nginx!.url}${apiPaths.forgotPassword}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${'a'.repeat(100 * 1024)}@example.com` }),
    });
    expect(answer.status).toBe(413);
    const uri = `${apiPaths.health}?after-oversized`;
    for (let i = 0; i < 6; i += 1) expect((await fetch(`${nginx!.url}${uri}`)).status).toBe(200);
    expect(new Set(await upstreamPortsOf(nginx!, uri))).toEqual(new Set(nodes.map((node) => String(node.port))));
  });

  it('logs no mailed link’s secret (reset, invite, conversation, rating, unsubscribe, a sign-in code) in its access log or the node’s', async () => {
    const read = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${nginx!.url}${path}`, { headers })).text();
    // Each page a mailed link opens, and the API call its page makes with the token, as a browser sends them.
    const secretRequests = [
      '/reset-password?token=resetpage1',
      `${apiPaths.resetPassword}?token=resetapi2`,
      '/admin/join?token=invitepage3',
      `${teamPaths.invite}?token=inviteapi4`,
      '/?chat=chatlink5',
      '/unsubscribe?token=unsubscribe6',
      '/rate?rating=good&token=rating7',
      '/admin/sso/callback?code=signincode8&state=signinstate9',
      '/?CHAT=shouting10',
    ];
    for (const path of secretRequests) await read(path);
    await read(`${apiPaths.health}?probe=kept`, { referer: `${nginx!.url}/admin/join?lang=en&token=referer11` });
    await expect.poll(() => nginx!.accessLog()).toContain(`${apiPaths.health}?probe=kept`);
    const log = await nginx!.accessLog();
    const secrets = /resetpage1|resetapi2|invitepage3|inviteapi4|chatlink5|unsubscribe6|rating7|signincode8|signinstate9|shouting10|referer11/;
    expect(log).not.toMatch(secrets);
    for (const node of nodes) expect(node.output()).not.toMatch(secrets);
    // The request line and the referrer, each without its query; the path stays, for whoever reads the log.
    expect(log).toContain('"GET /reset-password HTTP/1.1"');
    expect(log).toContain('"GET /admin/join HTTP/1.1"');
    expect(log).toContain(`"GET ${teamPaths.invite} HTTP/1.1"`);
    expect(log).toContain(`"${nginx!.url}/admin/join"`);
    expect(nodes.map((node) => node.output()).join('')).toContain('/reset-password?token=[redacted]');
  });

  it('passes GETs on to the node still up when one dies', async () => {
    nodes[1]!.kill('SIGKILL');
    await new Promise((resolve) => nodes[1]!.child.once('exit', resolve));
    for (let i = 0; i < 4; i += 1) expect((await fetch(`${nginx!.url}${apiPaths.health}`)).status).toBe(200);
  });
});
