import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';
import { type Namespace, Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Adapter, type BroadcastOptions } from 'socket.io-adapter';
import type {
  StaffClientToServerEvents,
  StaffServerToClientEvents,
  VisitorClientToServerEvents,
  VisitorServerToClientEvents,
} from '../contract/socket';
import { socketLimits } from '../contract/socket';
import type { Config } from '../config';
import type { SharedRedis } from './redis';
import { addressKey, isAllowlisted, perAddressLimits } from './rate-limits';

export type VisitorNamespace = Namespace<VisitorClientToServerEvents, VisitorServerToClientEvents>;
export type StaffNamespace = Namespace<StaffClientToServerEvents, StaffServerToClientEvents>;

declare module 'fastify' {
  interface FastifyInstance {
    io: Server<VisitorClientToServerEvents, VisitorServerToClientEvents>;
    /** Namespace `/`: visitors. */
    visitorSockets: VisitorNamespace;
    /** Namespace `/admin`: staff only (the chat module installs the connect guard). */
    staffSockets: StaffNamespace;
    /** Socket events refused by a rate limit: handlers report them, metrics observes (the HTTP 429s have their own hook). */
    socketRefusals: SocketRefusals;
  }
}

/** An event a client sends, on either namespace. */
export type ClientEventName = keyof VisitorClientToServerEvents | keyof StaffClientToServerEvents;

export interface SocketRefusals {
  refused(event: ClientEventName): void;
  observe(observer: (event: ClientEventName) => void): void;
}

/**
 * Socket.IO's in-memory adapter, minus the work of a broadcast that reaches no one. Socket.IO encodes
 * a broadcast's packet before it looks for receivers; with this adapter every receiver is a socket of
 * this process, so an empty room (no staff online, a visitor alone in their session) costs nothing.
 * With Redis, the streams adapter replaces this one (see `sharedAdapter`).
 */
class LocalAdapter extends Adapter {
  override broadcast(packet: unknown, opts: BroadcastOptions): void {
    if (this.reachesAnyone(opts)) super.broadcast(packet, opts);
  }

  // Runs for every push: plain loops, nothing allocated.
  private reachesAnyone({ rooms, except }: BroadcastOptions): boolean {
    if (rooms.size === 0) {
      for (const id of this.sids.keys()) if (!this.excluded(id, except)) return true;
      return false;
    }
    for (const room of rooms) {
      const members = this.rooms.get(room);
      if (members) for (const id of members) if (!this.excluded(id, except)) return true;
    }
    return false;
  }

  private excluded(id: string, except: Set<string> | undefined): boolean {
    if (except) for (const room of except) if (this.rooms.get(room)?.has(id)) return true;
    return false;
  }
}

/** The refusal past the cap (at the handshake): the chat widget carries on by polling REST. */
export const tooManySocketsMessage = 'Too many connections from your network: close some tabs and try again';

/**
 * Open connections per client address: a live count, not a window, held here alone. A new
 * connection past the cap is refused at its handshake; a closed one frees its place at once.
 *
 * Each process counts its own connections, Redis or not: with several processes an address may hold
 * the cap on each. The cap guards a process's own sockets and memory, which are per process anyway;
 * a count shared in Redis would need the counts of a process that dies cleaned up by the others,
 * and a check on every handshake that engine.io makes synchronously.
 */
class OpenConnections {
  private readonly open = new Map<string, number>();

  constructor(private readonly cap: number) {}

  admits(key: string): boolean {
    return (this.open.get(key) ?? 0) < this.cap;
  }

  opened(key: string): void {
    this.open.set(key, (this.open.get(key) ?? 0) + 1);
  }

  closed(key: string): void {
    const left = (this.open.get(key) ?? 1) - 1;
    if (left > 0) this.open.set(key, left);
    else this.open.delete(key);
  }
}

/**
 * The adapter that carries broadcasts, room changes, `fetchSockets` and `disconnectSockets` to every
 * process through Redis: a stream (a short Redis outage loses no packet) plus pub/sub for requests
 * that expect answers. Stream and channels sit under the key prefix, so processes of one deployment
 * find each other and nobody else.
 */
function sharedAdapter(redis: SharedRedis) {
  const name = `${redis.keyPrefix}socket.io`;
  return createAdapter(redis.client, {
    streamName: name,
    channelPrefix: name,
    // Each process blocks on the stream this long per read; closing waits for the read under way.
    blockTimeInMs: 1000,
    // Chat payloads are JSON: skip the search for binary in every broadcast.
    onlyPlaintext: true,
  });
}

/**
 * Socket.IO on Fastify's own HTTP server: same port, path `/socket.io`. Modules add their handlers;
 * pushes go through rooms so a Redis adapter can later spread them over several processes.
 */
export default fp(
  async (app, options: { config: Config }) => {
    const allowlist = options.config.rateLimitAllowlist;
    const openConnections = new OpenConnections(perAddressLimits.openSockets);
    /** The address a connection is counted under; allowlisted addresses are not counted. */
    const countedAs = (request: IncomingMessage) => {
      const address = app.clientAddress(request);
      return isAllowlisted(allowlist, address) ? undefined : addressKey(address);
    };
    const io = new Server<VisitorClientToServerEvents, VisitorServerToClientEvents>(app.server, {
      path: '/socket.io',
      serveClient: false,
      // WebSocket only: a long-polling handshake on one node and its next poll or upgrade on another
      // would fail without sticky sessions. Clients that cannot open one use the REST chat instead.
      transports: ['websocket'],
      maxHttpBufferSize: socketLimits.maxPayloadBytes,
      adapter: app.redis ? sharedAdapter(app.redis) : LocalAdapter,
      // Same-origin only: the SPA is served by this server.
      cors: { origin: false },
      // Runs at each new connection's handshake only. Nothing between it and engine.io's "connection"
      // event waits on I/O, so a flood of handshakes cannot slip past the cap before it is counted.
      allowRequest: (request, callback) => {
        const key = countedAs(request);
        if (key === undefined || openConnections.admits(key)) return callback(null, true);
        callback(tooManySocketsMessage, false);
      },
    });
    io.engine.on('connection', (connection: { request: IncomingMessage; once(event: 'close', listener: () => void): void }) => {
      const key = countedAs(connection.request);
      if (key === undefined) return;
      openConnections.opened(key);
      connection.once('close', () => openConnections.closed(key));
    });
    app.decorate('io', io);
    app.decorate('visitorSockets', io.of('/'));
    app.decorate('staffSockets', io.of('/admin') as unknown as StaffNamespace);
    const refusalObservers: ((event: ClientEventName) => void)[] = [];
    app.decorate('socketRefusals', {
      refused: (event) => refusalObservers.forEach((observe) => observe(event)),
      observe: (observer) => void refusalObservers.push(observer),
    } satisfies SocketRefusals);
    app.addHook('preClose', async () => {
      // Sockets go first so in-flight HTTP requests can finish while no new chat arrives.
      // io.close() would also close the HTTP server, which is Fastify's to close.
      // `local`: this process's sockets only; a shared adapter would carry a plain call to every process.
      io.local.disconnectSockets(true);
      io.engine.close();
    });
    app.addHook('onClose', async () => {
      // Stops the shared adapter's reads of Redis before the redis plugin quits its client.
      for (const namespace of [io.of('/'), io.of('/admin')]) await namespace.adapter.close();
    });
  },
  { name: 'socket-io', dependencies: ['client-address', 'redis'] },
);
