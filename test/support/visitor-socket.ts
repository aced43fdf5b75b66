import type { FastifyInstance } from 'fastify';
import { io as connect, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import type { VisitorClientToServerEvents, VisitorServerToClientEvents } from '../../api/contract/socket';
import { serverUrl, tracked } from './sockets';

export type VisitorClient = Socket<VisitorServerToClientEvents, VisitorClientToServerEvents>;

/** A visitor identity's Cookie header, signed as the server signs it. */
export function visitorCookie(app: FastifyInstance): string {
  return app.issueVisitorCookie().setCookie.split(';')[0]!;
}

/**
 * A real socket.io-client on the websocket transport; `cookie` is sent in the handshake. `from` is the
 * loopback address it connects from (any of 127.0.0.0/8 on Linux), standing for a client address.
 */
export function visitorClient(app: FastifyInstance, cookie?: string, from?: { localAddress?: string; headers?: Record<string, string> }): VisitorClient {
  // engine.io-client hands `localAddress` to the websocket it opens; its types leave it out.
  const options: Partial<ManagerOptions & SocketOptions> & { localAddress?: string } = {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: { ...(cookie ? { cookie } : {}), ...from?.headers },
    ...(from?.localAddress ? { localAddress: from.localAddress } : {}),
  };
  return tracked<VisitorClient>(connect(serverUrl(app), options));
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
