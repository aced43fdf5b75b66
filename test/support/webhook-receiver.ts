import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanUpLater } from './cleanup';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status this receiver answered it with. */
  answered: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** The status the next requests get (200 by default). */
  answerWith(status: number): void;
  /** Closed after the test file (or sooner). */
  close(): Promise<void>;
}

/** A webhook receiver on loopback: keeps each request's headers and raw body, answers with a settable status. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  let status = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), answered: status });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'failed');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  };
  cleanUpLater(close);
  return { url: `http://127.0.0.1:${port}/hooks`, received, answerWith: (next) => (status = next), close };
}
