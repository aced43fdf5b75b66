import type { FastifyInstance } from 'fastify';
import { io as connect, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import type { VisitorClientToServerEvents, VisitorServerToClientEvents } from '../../contract/socket';
import { sessionCookieName } from '../../plugins/session';
import { serverUrl, tracked } from '../../test/sockets';
import { hashPassword } from '../auth/password';

export type VisitorClient = Socket<VisitorServerToClientEvents, VisitorClientToServerEvents>;

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
