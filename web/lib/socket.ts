import { io, type Socket } from 'socket.io-client';
import type {
  StaffClientToServerEvents,
  StaffServerToClientEvents,
  VisitorClientToServerEvents,
  VisitorServerToClientEvents,
} from '../../api/contract/socket';

type VisitorSocket = Socket<VisitorServerToClientEvents, VisitorClientToServerEvents>;
export type StaffSocket = Socket<StaffServerToClientEvents, StaffClientToServerEvents>;

/**
 * Socket.IO on the page's own origin (`/socket.io`), cookies included: the server knows the visitor
 * by the visitor cookie and staff by the session cookie. Reconnects on its own with backoff.
 * Import this module only from lazily loaded code: socket.io-client is not on the first load.
 */
export function connectVisitorSocket(): VisitorSocket {
  return io({ path: '/socket.io', withCredentials: true, reconnectionDelayMax: 5000 });
}

export function connectStaffSocket(): StaffSocket {
  return io('/admin', { path: '/socket.io', withCredentials: true, reconnectionDelayMax: 5000 });
}
