import type { APIRequestContext } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import type { StaffClientToServerEvents, StaffServerToClientEvents } from '../../api/contract/socket';

/** The staff account each worker's server is started with (e2e/support/admin.ts) (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const staffEmail = 'staff@lotwise.example';
export const staffPassword = 'staff-password-123';

export type StaffSocket = Socket<StaffServerToClientEvents, StaffClientToServerEvents>;

/** The Cookie header of a staff sign-in through the real `POST /api/admin-login`. */
export async function loginCookie(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/admin-login', { data: { username: staffEmail, password: staffPassword } });
  if (!response.ok()) throw new Error(`admin-login failed: ${response.status()} ${await response.text()}`);
  const session = response.headersArray().find((header) => header.name.toLowerCase() === 'set-cookie' && header.value.startsWith('lw_session='));
  if (!session) throw new Error('admin-login set no session cookie');
  return session.value.split(';')[0]!;
}

/** A connected staff socket on `/admin`, as the staff dashboard holds one. */
export async function connectStaff(request: APIRequestContext, baseURL: string): Promise<StaffSocket> {
  const cookie = await loginCookie(request);
  const socket: StaffSocket = io(`${baseURL}/admin`, { transports: ['websocket'], extraHeaders: { cookie }, forceNew: true });
  await new Promise<void>((done, fail) => {
    socket.once('connect', done);
    socket.once('connect_error', fail);
  });
  return socket;
}
