import type { FastifyInstance } from 'fastify';
import { io, type Socket } from 'socket.io-client';
import type { StaffClientToServerEvents, StaffServerToClientEvents } from '../../api/contract/socket';
import { connected, serverUrl, tracked } from './sockets';

export type StaffClient = Socket<StaffServerToClientEvents, StaffClientToServerEvents>;

/**
 * A real socket.io-client on the `/admin` namespace of a listening test server, sending `cookie` in
 * its handshake. Resolves once connected; rejects with the server's refusal.
 */
export async function connectStaffSocket(app: FastifyInstance, cookie?: string): Promise<StaffClient> {
  const socket: StaffClient = io(`${serverUrl(app)}/admin`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: cookie ? { cookie } : {},
  });
  await connected(tracked(socket));
  return socket;
}
