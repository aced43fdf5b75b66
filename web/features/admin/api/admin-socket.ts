import { connectStaffSocket, type StaffSocket } from '../../../lib/socket';

export type AdminSocket = StaffSocket;

/**
 * The staff socket on the `/admin` namespace. The handshake carries the session cookie; the server
 * refuses it without a live staff session. Loaded only with the /admin route.
 */
export function connectAdminSocket(): AdminSocket {
  return connectStaffSocket();
}

let currentSocket: AdminSocket | null = null;

/** The dashboard's socket while it is mounted, for components that emit (staff typing). */
export function setCurrentAdminSocket(socket: AdminSocket | null): void {
  currentSocket = socket;
}

export function emitStaffTyping(sessionId: string, typing: boolean): void {
  if (currentSocket?.connected) currentSocket.emit('chat:typing', { sessionId, typing });
}
