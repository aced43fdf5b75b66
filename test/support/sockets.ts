import { randomBytes } from 'node:crypto';
import { type IncomingHttpHeaders, request } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Socket, SocketReservedEvents } from 'socket.io-client';

/** The base URL of a test server built with `{ listen: true }`. */
export function serverUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the test server is not listening');
  return `http://127.0.0.1:${address.port}`;
}

const openClients: Socket[] = [];

/** Registers a client for `closeClients`. */
export function tracked<S extends Socket>(socket: S): S {
  openClients.push(socket);
  return socket;
}

/** Disconnects every client opened since the last call (an `afterEach` of socket tests). */
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

/** The events a client socket hears: its namespace's, and connect/disconnect. */
type Heard<S> = S extends Socket<infer Listen, infer _Emit> ? Listen & SocketReservedEvents : never;
type PayloadOf<S, E extends keyof Heard<S>> = Heard<S>[E] extends (...args: infer Args) => unknown ? Args[0] : never;

/** The next event of that name (its first argument), or a rejection after `ms`. */
export function nextEvent<S extends Socket, E extends keyof Heard<S> & string>(socket: S, event: E, ms = 5000): Promise<PayloadOf<S, E>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    const listener = (payload: PayloadOf<S, E>) => {
      clearTimeout(timer);
      resolve(payload);
    };
    // The event map is the socket's own; the emitter's overloads cannot see that through the generics.
    (socket.once as (event: string, listener: (payload: PayloadOf<S, E>) => void) => void).call(socket, event, listener);
  });
}

/** Collects every event of that name from now on. */
export function collect<T>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}

export interface HandshakeAnswer {
  status: number | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A raw engine.io handshake, as a browser's first request sees it: a WebSocket upgrade by default
 * (status 101 when accepted; the socket is closed at once), or a long-polling GET.
 */
export function rawHandshake(baseUrl: string, options: { transport?: 'websocket' | 'polling'; localAddress?: string } = {}): Promise<HandshakeAnswer> {
  const transport = options.transport ?? 'websocket';
  const upgrade = transport === 'websocket' ? { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64') } : {};
  return new Promise((resolve, reject) => {
    const handshake = request(`${baseUrl}/socket.io/?EIO=4&transport=${transport}`, { localAddress: options.localAddress, headers: upgrade });
    handshake.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode, headers: response.headers, body: '' });
    });
    handshake.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body }));
    });
    handshake.on('error', reject).end();
  });
}
