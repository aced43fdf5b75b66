import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { io as connect, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import type {
  StaffClientToServerEvents,
  StaffServerToClientEvents,
  VisitorClientToServerEvents,
  VisitorServerToClientEvents,
} from '../../contract/socket';
import { sessionCookieName } from '../../plugins/session';
import { hashPassword } from '../auth/password';

export type VisitorClient = Socket<VisitorServerToClientEvents, VisitorClientToServerEvents>;
export type StaffClient = Socket<StaffServerToClientEvents, StaffClientToServerEvents>;

let staffCount = 0;

/**
 * A staff sign-in through the real `POST /api/admin-login`, for a fresh staff account. Returns the
 * Cookie header and the session id (the room `rooms.staffSession(sid)`).
 */
export async function signInStaff(app: FastifyInstance): Promise<{ cookie: string; sid: string }> {
  staffCount += 1;
  const email = `staff${staffCount}@lotwise.example`;
  const password = 'staff-password-for-tests';
  await app.db
    .insertInto('admins')
    .values({ email, passwordHash: await hashPassword(password), createdAt: new Date().toISOString() })
    .execute();
  // Each sign-in from its own address, so the per-IP sign-in limit never trips a test.
  const remoteAddress = `10.77.${Math.floor(staffCount / 250)}.${(staffCount % 250) + 1}`;
  const response = await app.inject({ method: 'POST', url: '/api/admin-login', remoteAddress, payload: { username: email, password } });
  const session = response.cookies.find((cookie) => cookie.name === sessionCookieName);
  if (response.statusCode !== 200 || !session) throw new Error(`admin-login failed: ${response.statusCode} ${response.body}`);
  const signed = decodeURIComponent(session.value);
  const unsigned = app.unsignCookie(signed);
  if (!unsigned.valid || !unsigned.value) throw new Error('admin-login set an invalid session cookie');
  return { cookie: `${sessionCookieName}=${encodeURIComponent(signed)}`, sid: unsigned.value };
}

/** A visitor identity's Cookie header, signed as the server signs it. */
export function visitorCookie(app: FastifyInstance): string {
  return app.issueVisitorCookie().setCookie.split(';')[0]!;
}

export function serverUrl(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${address.port}`;
}

const openClients: Socket[] = [];

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
  const socket: VisitorClient = connect(serverUrl(app), options);
  openClients.push(socket);
  return socket;
}

export function staffClient(app: FastifyInstance, cookie?: string): StaffClient {
  const socket: StaffClient = connect(`${serverUrl(app)}/admin`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: cookie ? { cookie } : {},
  });
  openClients.push(socket);
  return socket;
}

export function closeClients(): void {
  for (const socket of openClients.splice(0)) socket.disconnect();
}

/** Resolves once connected, rejects with the server's refusal. */
export function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.connected) return resolve();
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
}

/** The next event of that name, or a rejection after `ms`. */
export function nextEvent<T>(socket: Socket, event: string, ms = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** Collects every event of that name from now on. */
export function collect<T>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
