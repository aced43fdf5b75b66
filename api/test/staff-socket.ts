import type { FastifyInstance } from 'fastify';
import { io, type Socket } from 'socket.io-client';
import type { StaffClientToServerEvents, StaffServerToClientEvents } from '../contract/socket';

export type StaffClient = Socket<StaffServerToClientEvents, StaffClientToServerEvents>;

/** A real socket.io-client on the `/admin` namespace of a listening test server, with the staff cookie. */
export async function connectStaffSocket(app: FastifyInstance, cookie: string): Promise<StaffClient> {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the test server is not listening');
  const socket: StaffClient = io(`http://127.0.0.1:${address.port}/admin`, {
    transports: ['websocket'],
    extraHeaders: { cookie },
    reconnection: false,
    forceNew: true,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** The next event of that name, or a rejection after `timeoutMs`. */
export function nextEvent<E extends keyof StaffServerToClientEvents>(
  socket: StaffClient,
  event: E,
  timeoutMs = 5000,
): Promise<Parameters<StaffServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${String(event)} within ${timeoutMs} ms`)), timeoutMs);
    const listener = (payload: Parameters<StaffServerToClientEvents[E]>[0]) => {
      clearTimeout(timer);
      resolve(payload);
    };
    (socket.once as (event: string, listener: (payload: unknown) => void) => void)(event, listener as (payload: unknown) => void);
  });
}
