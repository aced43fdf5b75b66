import { io, type Socket } from 'socket.io-client';

/** One Socket.IO client on the WebSocket transport, as the site's clients connect; resolves once connected. */
export function connectSocket(url: string, cookie?: string): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders: cookie ? { cookie } : {} });
  return new Promise((done, fail) => {
    socket.once('connect', () => done(socket));
    socket.once('connect_error', fail);
  });
}

/** `count` visitor sockets, connected `batch` at a time. */
export async function connectMany(url: string, count: number, batch = 200): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let start = 0; start < count; start += batch) {
    const size = Math.min(batch, count - start);
    sockets.push(...(await Promise.all(Array.from({ length: size }, () => connectSocket(url)))));
  }
  return sockets;
}
