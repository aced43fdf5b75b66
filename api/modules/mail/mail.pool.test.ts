import { pino } from 'pino';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { Mailer } from './mail.service';

/** A real SMTP server on loopback that counts the connections it was opened and the mails it took. */
async function countingSmtpServer() {
  const seen = { connections: 0, mails: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    // A client still connected when the test ends is cut off at once.
    closeTimeout: 100,
    onConnect(_session, callback) {
      seen.connections += 1;
      callback();
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.once('end', () => {
        seen.mails += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `smtp://127.0.0.1:${address.port}/`, seen };
}

/** The transport under the mail policy, as the app builds it (api/modules/mail/index.ts). */
function transport(smtpUrl: string): Mailer {
  const mailer = new Mailer({ smtpUrl, mailFrom: 'Lotwise <no-reply@lotwise.example>', outboxDir: '/nonexistent', smtpTimeoutMs: 5000, log: pino({ level: 'silent' }) });
  onTestFinished(() => mailer.close());
  return mailer;
}

const mail = (n: number) => ({ to: 'staff@lotwise.example', subject: `Lead ${n}`, text: `Mail ${n}` });

describe('SMTP connections', () => {
  it('sends mail after mail over one kept connection, not a new handshake for each', async () => {
    const smtp = await countingSmtpServer();
    const mailer = transport(smtp.url);
    for (let n = 1; n <= 3; n += 1) await mailer.send(mail(n));
    expect(smtp.seen).toEqual({ connections: 1, mails: 3 });
  });

  it('opens a connection per mail when SMTP_URL says pool=false', async () => {
    const smtp = await countingSmtpServer();
    const mailer = transport(`${smtp.url}?pool=false`);
    for (let n = 1; n <= 3; n += 1) await mailer.send(mail(n));
    expect(smtp.seen).toEqual({ connections: 3, mails: 3 });
  });
});
