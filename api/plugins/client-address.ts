import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import fp from 'fastify-plugin';
import type { Config } from '../config';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The client address of a raw request (a Socket.IO handshake), by the same `TRUST_PROXY` rule as
     * Fastify's `request.ip`: the REST and socket paths count one client as one address.
     */
    clientAddress(request: IncomingMessage): string;
  }
}

/** Which hops of a request's path are proxies to believe; `false` believes none. */
export type ProxyTrust = false | ((address: string, hop: number) => boolean);

/**
 * `TRUST_PROXY` as Fastify's `trustProxy`. A hop count is given as a function: Fastify 5 turns a bare
 * number into "trust no one". `true` and a hop count believe whatever the nearest peers say, so they
 * are safe only when the server can be reached through the proxy alone (`HOST=127.0.0.1`).
 */
export function proxyTrust(setting: Config['trustProxy']): ProxyTrust {
  if (setting === false) return false;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting);
}

/** The client address under `trust`: what Fastify's `request.ip` answers for the same request. */
export function clientAddressOf(request: IncomingMessage, trust: ProxyTrust): string {
  if (!trust) return request.socket.remoteAddress ?? '';
  return proxyAddr(request, trust);
}

export default fp(
  async (app, options: { trust: ProxyTrust }) => {
    const { trust } = options;
    app.decorate('clientAddress', (request: IncomingMessage) => clientAddressOf(request, trust));
  },
  { name: 'client-address' },
);
