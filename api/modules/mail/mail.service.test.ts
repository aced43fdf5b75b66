import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTestServer } from '../../../test/support/helper';
import { Mailer } from './mail.service';
import { decodeHeader, readOutbox } from '../../../test/support/outbox';

/** Every mail goes through `Mailer.send`, so its subject rules hold for mail that is not a lead notice too. */
describe('mail headers', async () => {
  const { app, dir } = await buildTestServer();
  // The transport under the mail policy (the policy itself is tested in mail.policy.test.ts).
  const mailer = new Mailer({ smtpUrl: undefined, mailFrom: 'Lotwise <no-reply@lotwise.example>', outboxDir: join(dir, 'outbox'), smtpTimeoutMs: 5000, log: app.log });
  const sendAndRead = async (subject: string, text: string) => {
    await mailer.send({ to: 'staff@lotwise.example', subject, text });
    const mail = (await readOutbox(dir)).find((each) => each.text.includes(text));
    if (!mail) throw new Error('mail not written');
    return mail;
  };

  it('breaks the opener of an encoded-word, so the subject shows what was typed', async () => {
    const mail = await sendAndRead('Lead: =?utf-8?B?SW52b2ljZQ==?= and =?iso-8859-1?q?caf=E9?=', 'encoded-word mail');
    const subject = decodeHeader(mail.headers.subject!);
    // Every `=?` is broken, a base64 pad's before the closer too.
    expect(subject).toBe('Lead: = ?utf-8?B?SW52b2ljZQ== ?= and = ?iso-8859-1?q?caf=E9?=');
  });

  it('keeps line breaks and other control characters out of the headers', async () => {
    const mail = await sendAndRead('Lead: Sam\r\nBcc: victim@example.com\u2028X-Extra: 1\u0085\u0000end', 'line-break mail');
    expect(mail.headers.bcc).toBeUndefined();
    expect(mail.headers['x-extra']).toBeUndefined();
    expect(decodeHeader(mail.headers.subject!)).toBe('Lead: Sam Bcc: victim@example.com X-Extra: 1 end');
  });
});
