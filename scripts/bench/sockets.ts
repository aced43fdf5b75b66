import { io, type Socket } from 'socket.io-client';

/**
 * One Socket.IO client on the WebSocket transport, as the site's clients connect; resolves once
 * connected. `localAddress`: the loopback address it connects from (any of 127.0.0.0/8 on Linux).
 */
export function connectSocket(url: string, cookie?: string, localAddress?: string): Promise<Socket> {
  // engine.io-client hands `localAddress` to the websocket it opens; its types leave it out.
  const options: Parameters<typeof io>[1] & { localAddress?: string } = {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: cookie ? { cookie } : {},
    ...(localAddress ? { localAddress } : {}),
  };
  const socket = io(url, options);
  return new Promise((done, fail) => {
    socket.once('connect', () => done(socket));
    socket.once('connect_error', fail);
  });
}

/** `count` visitor sockets, connected `batch` at a time; `addressOf(i)` is the address socket `i` connects from. */
export async function connectMany(url: string, count: number, batch = 200, addressOf?: (index: number) => string): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let start = 0; start < count; start += batch) {
    const size = Math.min(batch, count - start);
    sockets.push(...(await Promise.all(Array.from({ length: size }, (_, offset) => connectSocket(url, undefined, addressOf?.(start + offset))))));
  }
  return sockets;
}
