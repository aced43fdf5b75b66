import { afterAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { buildTestServer } from '../../../test/support/helper';

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

const mail = (n: number) => ({ to: 'staff@lotwise.example', subject: `Lead ${n}`, text: `Mail ${n}` });

describe('SMTP connections', () => {
  it('sends mail after mail over one kept connection, not a new handshake for each', async () => {
    const smtp = await countingSmtpServer();
    const { app } = await buildTestServer({ SMTP_URL: smtp.url });
    for (let n = 1; n <= 3; n += 1) await app.mailer.send(mail(n));
    expect(smtp.seen).toEqual({ connections: 1, mails: 3 });
  });

  it('opens a connection per mail when SMTP_URL says pool=false', async () => {
    const smtp = await countingSmtpServer();
    const { app } = await buildTestServer({ SMTP_URL: `${smtp.url}?pool=false` });
    for (let n = 1; n <= 3; n += 1) await app.mailer.send(mail(n));
    expect(smtp.seen).toEqual({ connections: 3, mails: 3 });
  });
});
