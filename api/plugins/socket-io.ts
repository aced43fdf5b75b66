import fp from 'fastify-plugin';
import { type Namespace, Server } from 'socket.io';
import { Adapter } from 'socket.io-adapter';
import type {
  StaffClientToServerEvents,
  StaffServerToClientEvents,
  VisitorClientToServerEvents,
  VisitorServerToClientEvents,
} from '../contract/socket';
import { socketLimits } from '../contract/socket';

export type VisitorNamespace = Namespace<VisitorClientToServerEvents, VisitorServerToClientEvents>;
export type StaffNamespace = Namespace<StaffClientToServerEvents, StaffServerToClientEvents>;

declare module 'fastify' {
  interface FastifyInstance {
    io: Server<VisitorClientToServerEvents, VisitorServerToClientEvents>;
    /** Namespace `/`: visitors. */
    visitorSockets: VisitorNamespace;
    /** Namespace `/admin`: staff only (the chat module installs the connect guard). */
    staffSockets: StaffNamespace;
  }
}

/**
 * Whether a broadcast to `room` (by default the whole namespace), leaving out the socket `except`,
 * could reach anyone. Socket.IO encodes a broadcast's packet before it looks for receivers. With the
 * in-memory adapter every receiver is a socket of this process, so an empty room means nobody and
 * the broadcast can be skipped; an adapter shared by several processes (the planned Redis step) may
 * have receivers elsewhere.
 */
export function hasReceivers(namespace: Namespace<any, any>, room?: string, except?: string): boolean {
  if (namespace.adapter.constructor !== Adapter) return true;
  const members = room === undefined ? namespace.sockets : namespace.adapter.rooms.get(room);
  if (!members) return false;
  return members.size - (except !== undefined && members.has(except) ? 1 : 0) > 0;
}

/**
 * Socket.IO on Fastify's own HTTP server: same port, path `/socket.io`. Modules add their handlers;
 * pushes go through rooms so a Redis adapter can later spread them over several processes.
 */
export default fp(
  async (app) => {
    const io = new Server<VisitorClientToServerEvents, VisitorServerToClientEvents>(app.server, {
      path: '/socket.io',
      serveClient: false,
      maxHttpBufferSize: socketLimits.maxPayloadBytes,
      // Same-origin only: the SPA is served by this server.
      cors: { origin: false },
    });
    app.decorate('io', io);
    app.decorate('visitorSockets', io.of('/'));
    app.decorate('staffSockets', io.of('/admin') as unknown as StaffNamespace);
    app.addHook('preClose', async () => {
      // Sockets go first so in-flight HTTP requests can finish while no new chat arrives.
      // io.close() would also close the HTTP server, which is Fastify's to close.
      io.disconnectSockets(true);
      io.engine.close();
    });
  },
  { name: 'socket-io' },
);
