import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { freePort } from '../../scripts/services/free-port';
import { waitUntil } from './wait';

/** A message the sink accepted (or refused after reading it whole). */
export interface SinkMail {
  messageId: string;
  to: string;
  subject: string;
  /** The text body, quoted-printable decoded (a multipart mail's text/plain part). */
  text: string;
  /** A multipart mail's text/html part, decoded. */
  html?: string;
  /** Every header, by lower-case name. */
  headers: Record<string, string>;
}

/**
 * How the sink answers a message's DATA: `accept` (250), `refuse` (451 after reading it whole: the
 * sender must try again later), or `hold` (no answer at all, as a server that hangs: the message is
 * accepted or refused only when the mode changes, and dropped if its sender goes away meanwhile).
 */
export type SinkMode = 'accept' | 'refuse' | 'hold';

export interface SmtpSink {
  port: number;
  /** `SMTP_URL` for the app. */
  url: string;
  /** What was accepted, in order. */
  readonly accepted: SinkMail[];
  /** What was read whole and then refused. */
  readonly refused: SinkMail[];
  /** What was held (`hold`) until its sender gave up and went away: never accepted. */
  readonly abandoned: SinkMail[];
  /** The most copies of one message (by Message-ID) held at one time (`hold`): 2 is a mail sent twice at once. */
  mostHeldAtOnce(): number;
  setMode(mode: SinkMode): void;
  /** Listens again on the same port (after `down`). */
  up(): Promise<void>;
  /** Stops listening and cuts every connection: a server that is gone. */
  down(): Promise<void>;
  /** Waits until `check` holds of the accepted mail, or fails after `timeoutMs`. */
  waitFor(check: (accepted: SinkMail[]) => boolean, timeoutMs?: number): Promise<void>;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = new Map<string, string>();
  for (const line of raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: raw.slice(split).replace(/^\r?\n\r?\n/, '').replace(/\r\n/g, '\n') };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = headers.get('content-transfer-encoding') ?? '';
  if (/quoted-printable/i.test(encoding)) return decodeQuotedPrintable(body);
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** The text/plain and text/html parts of a (possibly multipart) body. */
function partsOf(headers: Map<string, string>, body: string): { text?: string; html?: string } {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const found: { text?: string; html?: string } = {};
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const inner = splitHeaders(part.replace(/^\n/, ''));
      const parts = partsOf(inner.headers, inner.body.replace(/\n$/, ''));
      found.text ??= parts.text;
      found.html ??= parts.html;
    }
    return found;
  }
  const decoded = decodeBody(headers, body);
  return /^text\/html/i.test(type) ? { html: decoded } : { text: decoded };
}

function parseMail(raw: string): SinkMail {
  const { headers, body } = splitHeaders(raw);
  const { text, html } = partsOf(headers, body);
  return {
    messageId: headers.get('message-id') ?? '',
    to: headers.get('to') ?? '',
    subject: headers.get('subject') ?? '',
    text: text ?? '',
    ...(html === undefined ? {} : { html }),
    headers: Object.fromEntries(headers),
  };
}

function refusal(): Error {
  return Object.assign(new Error('Try again later'), { responseCode: 451 });
}

/**
 * A real SMTP server on a loopback port for a test (smtp-server, nodemailer's sibling): the app's
 * `SMTP_URL` points at it and every mail the app sends is read back with its Message-ID. It can be
 * down, refuse, or hang, to play an outage.
 */
export async function startSmtpSink(mode: SinkMode = 'accept'): Promise<SmtpSink> {
  const port = await freePort();
  const accepted: SinkMail[] = [];
  const refused: SinkMail[] = [];
  const abandoned: SinkMail[] = [];
  let mostHeld = 0;
  const held = new Map<string, { mail: SinkMail; answer: (error?: Error | null) => void }>();
  let current = mode;
  let server: SMTPServer | undefined;

  const answer = (sessionId: string, mail: SinkMail, respond: (error?: Error | null) => void) => {
    if (current === 'hold') {
      held.set(sessionId, { mail, answer: respond });
      mostHeld = Math.max(mostHeld, [...held.values()].filter((each) => each.mail.messageId === mail.messageId).length);
      return;
    }
    if (current === 'refuse') {
      refused.push(mail);
      respond(refusal());
      return;
    }
    accepted.push(mail);
    respond();
  };

  const onData = (stream: SMTPServerDataStream, session: SMTPServerSession, respond: (error?: Error | null) => void) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => answer(session.id, parseMail(Buffer.concat(chunks).toString('utf8')), respond));
  };

  const up = async () => {
    if (server) return;
    const next = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 100,
      onData,
      // A held message whose sender went away was never accepted: a real server would not deliver it.
      onClose: (session) => {
        const gone = held.get(session.id);
        if (!gone) return;
        held.delete(session.id);
        abandoned.push(gone.mail);
      },
    });
    // A client cut off by `down` is not an error of the test.
    next.on('error', () => undefined);
    await new Promise<void>((resolve) => next.listen(port, '127.0.0.1', () => resolve()));
    server = next;
  };

  const down = async () => {
    const stopping = server;
    if (!stopping) return;
    server = undefined;
    held.clear();
    for (const connection of stopping.connections as Set<{ close(): void }>) connection.close();
    await new Promise<void>((resolve) => stopping.close(() => resolve()));
  };

  await up();
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    refused,
    abandoned,
    mostHeldAtOnce: () => mostHeld,
    setMode(mode) {
      current = mode;
      if (mode === 'hold') return;
      const waiting = [...held];
      held.clear();
      for (const [sessionId, { mail, answer: respond }] of waiting) answer(sessionId, mail, respond);
    },
    up,
    down,
    async waitFor(check, timeoutMs = 20_000) {
      await waitUntil(() => check(accepted), { timeoutMs, intervalMs: 50 }).catch(() => {
        throw new Error(`the SMTP sink did not get the mail expected; it has ${accepted.length}: ${accepted.map((mail) => mail.subject).join(' | ')}`);
      });
    },
  };
}
