/**
 * bench:jobs's mailbox: an SMTP server on loopback (`smtp-server`, plain SMTP, no auth) run as its own
 * process, so its work neither slows the bench's form posts nor delays its clock. For every message
 * it accepts it records when the DATA ended (epoch ms, sub-millisecond) with its Subject and
 * Message-ID, and sends them to the parent over IPC every 50 ms. Its first message is `{ port }`.
 */
import { SMTPServer } from 'smtp-server';

export interface Arrival {
  /** `performance.timeOrigin + performance.now()` when the message was accepted. */
  at: number;
  subject: string;
  messageId: string;
}

export type SinkMessage = { port: number } | { arrivals: Arrival[] };

const send = (message: SinkMessage) => process.send?.(message);
let pending: Arrival[] = [];

/** Subject and Message-ID from the header block (folded lines joined). */
function headersOf(raw: string): { subject: string; messageId: string } {
  const end = raw.search(/\r?\n\r?\n/);
  const lines = (end < 0 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/);
  const header = (name: string) => lines.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim() ?? '';
  return { subject: header('subject'), messageId: header('message-id') };
}

const server = new SMTPServer({
  authOptional: true,
  // Plain SMTP on loopback: nodemailer would otherwise upgrade to TLS with the server's self-signed certificate.
  disabledCommands: ['AUTH', 'STARTTLS'],
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      pending.push({ at, ...headersOf(Buffer.concat(chunks).toString('utf8')) });
      callback();
    });
  },
});

setInterval(() => {
  if (pending.length === 0) return;
  send({ arrivals: pending });
  pending = [];
}, 50);

server.listen(0, '127.0.0.1', () => {
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('smtp sink has no port');
  send({ port: address.port });
});

// The parent going away ends the sink too.
process.on('disconnect', () => process.exit(0));
