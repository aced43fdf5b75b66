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
 * WebSocket only, no long-polling: one connection is one request to one node, so several nodes behind
 * a load balancer need no sticky sessions. Where no WebSocket gets through, the widget polls REST.
 * A connection that opened but got no answer within 5 s (a proxy that closed it before the handshake,
 * say, which the client does not count as a failure) is given up and tried again, not awaited for 20 s.
 * Import this module only from lazily loaded code: socket.io-client is not on the first load.
 */
const options = { path: '/socket.io', transports: ['websocket'], withCredentials: true, reconnectionDelayMax: 5000, timeout: 5000 };

export function connectVisitorSocket(): VisitorSocket {
  return io(options);
}

export function connectStaffSocket(): StaffSocket {
  return io('/admin', options);
}
