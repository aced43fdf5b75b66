import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { contactSubmission } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';
import { type SinkMail, startSmtpSink } from '../../../test/support/smtp-sink';
import { createDealer } from '../auth';
import { addressHash, checkUnsubscribeToken, unsubscribeToken } from './mail.addresses';
import type { MailPurpose } from './mail.policy';

const notifyEmail = 'team@lotwise.example';
let jobIds = 800_000;
/** A job's context as the runner hands it to a mail job: each send here is its own job. */
const contextOf = (app: FastifyInstance, job: { jobId?: number; attempt?: number; dueAt?: number } = {}) => ({
  jobId: job.jobId ?? (jobIds += 1),
  attempt: job.attempt ?? 1,
  dueAt: job.dueAt ?? Date.now(),
  log: app.log,
  signal: new AbortController().signal,
});
const mailsTo = (mails: readonly SinkMail[], email: string) => mails.filter((mail) => mail.to === email);

describe('the outbound-mail policy every mail passes', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  const { app, config } = await buildTestServer({
    SMTP_URL: sink.url,
    NOTIFY_EMAIL: notifyEmail,
    NOTIFY_DIGEST_PER_MINUTE: '0',
    RATE_LIMIT_ALLOWLIST: '127.0.0.1',
    MAIL_PER_ADDRESS_PER_HOUR: '3',
    MAIL_UNVERIFIED_PER_HOUR: '12',
  });
  const send = (purpose: MailPurpose, to: string, options: { carriesVisitorText?: boolean; job?: { jobId: number; attempt: number; dueAt: number } } = {}) =>
    app.mail.send({ purpose, to, carriesVisitorText: options.carriesVisitorText, about: { sessions: ['session_policy'] }, compose: () => ({ subject: `A ${purpose} mail`, text: `About ${purpose}` }) }, contextOf(app, options.job));

  it('List-Unsubscribe on every mail but security mail (a password reset, through its own flow)', async () => {
    await createDealer(app.db, app.write, { username: 'policy-cars', email: 'pat@policy-cars.example', password: 'old-password-1' });
    expect((await app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'pat@policy-cars.example' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/contact-submission', payload: contactSubmission({ email: 'cora@policy.example', name: 'Cora Policy' }) })).statusCode).toBe(201);
    await sink.waitFor((mails) => mailsTo(mails, 'pat@policy-cars.example').length > 0 && mailsTo(mails, 'cora@policy.example').length > 0 && mailsTo(mails, notifyEmail).length > 0);
    const [reset] = mailsTo(sink.accepted, 'pat@policy-cars.example');
    expect(reset!.subject).toBe('Reset your Lotwise password');
    expect(reset!.headers['list-unsubscribe']).toBeUndefined();
    for (const mail of [...mailsTo(sink.accepted, 'cora@policy.example'), ...mailsTo(sink.accepted, notifyEmail)]) {
      expect(mail.headers['list-unsubscribe'], mail.subject).toMatch(/^<http:\/\/localhost:3000\/unsubscribe\?token=[\w-]+\.[\w-]+>$/);
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    }
    // Each recorded, with whom to and why: what data requests read.
    const recorded = await app.db.selectFrom('sentMails').select(['recipient', 'purpose']).where('recipient', 'in', ['pat@policy-cars.example', 'cora@policy.example']).orderBy('recipient').execute();
    expect(recorded).toEqual([
      { recipient: 'cora@policy.example', purpose: 'confirmation' },
      { recipient: 'pat@policy-cars.example', purpose: 'security' },
    ]);
  });

  it('an unsubscribed address gets no mail of any purpose but security mail', async () => {
    const email = 'una@policy.example';
    const link = new URL(app.mail.unsubscribeLinkFor(email));
    const unsubscribed = await app.inject({ method: 'POST', url: `${link.pathname}${link.search}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(unsubscribed.statusCode).toBe(200);
    for (const purpose of ['reply', 'confirmation', 'transcript', 'staff-notice'] as const) expect(await send(purpose, email.toUpperCase())).toEqual({ sent: false, reason: 'suppressed' });
    expect(await send('security', email)).toEqual({ sent: true });
    await sleep(200);
    expect(mailsTo(sink.accepted, email).map((mail) => mail.subject)).toEqual(['A security mail']);
  });

  it('a visitor’s words go only to an address that proved it wants our mail', async () => {
    const email = 'vera@policy.example';
    expect(await send('transcript', email, { carriesVisitorText: true })).toEqual({ sent: false, reason: 'unverified' });
    await app.write((tx) => app.mail.markVerified(tx, email));
    expect(await send('transcript', email, { carriesVisitorText: true })).toEqual({ sent: true });
    await sink.waitFor((mails) => mailsTo(mails, email).length > 0);
    expect(mailsTo(sink.accepted, email)).toHaveLength(1);
  });

  it('caps the mails to one address an hour, and a retry of a sent mail is not sent again', async () => {
    const email = 'cap@policy.example';
    const first = { jobId: (jobIds += 1), attempt: 1, dueAt: Date.now() };
    for (let index = 0; index < 3; index += 1) expect(await send('reply', email, index === 0 ? { job: first } : {})).toEqual({ sent: true });
    // The first job tried again (an unknown outcome): its record shows it went, so it is not sent twice.
    expect(await send('reply', email, { job: { ...first, attempt: 2 } })).toEqual({ sent: true });
    expect(await send('confirmation', email)).toEqual({ sent: false, reason: 'capped' });
    // Staff notices and security mail are not the public's: not counted, not capped.
    expect(await send('security', email)).toEqual({ sent: true });
    await sleep(200);
    expect(mailsTo(sink.accepted, email)).toHaveLength(4);
  });

  it('caps the mails to addresses that never proved themselves, site-wide', async () => {
    const sentBefore = Number((await app.db.selectFrom('sentMails').select((eb) => eb.fn.countAll<number>().as('count')).where('toVerified', '=', 0).executeTakeFirstOrThrow()).count);
    const outcomes = [];
    for (let index = 0; index < 14 - sentBefore; index += 1) outcomes.push(await send('confirmation', `stranger${index}@policy.example`));
    expect(outcomes.filter((outcome) => outcome.sent)).toHaveLength(12 - sentBefore);
    expect(outcomes.at(-1)).toEqual({ sent: false, reason: 'capped' });
    // A proven address is not held back by strangers' mail.
    await app.write((tx) => app.mail.markVerified(tx, 'known@policy.example'));
    expect(await send('reply', 'known@policy.example')).toEqual({ sent: true });
  });

  it('hashes an address as the migration that moved the unsubscribe list did (db/migrations.test.ts), in any case', () => {
    expect(addressHash(' Dana@Example.com ')).toBe(addressHash('dana@example.com'));
    expect(addressHash('dana@example.com')).toBe('GJOuazaj0JYLUp6v-IHamcO92RcLS_GFAbKZI2gPGiQ');
  });

  it('an unsubscribe token names its own address only, in any case; an old mail’s token still works', async () => {
    const secret = config.sessionSecret;
    const token = unsubscribeToken(secret, 'Dana@Example.com');
    expect(checkUnsubscribeToken(secret, token)).toBe('dana@example.com');
    expect(token).toBe(unsubscribeToken(secret, 'dana@example.com'));
    expect(token).not.toBe(unsubscribeToken(secret, 'dan@example.com'));
    expect(checkUnsubscribeToken(secret, `${token.slice(0, -2)}xx`)).toBeUndefined();
    expect(checkUnsubscribeToken('another secret that is long enough to sign', token)).toBeUndefined();
    // Signed as the chat module once did (`<address, base64url>.<HMAC-SHA256 of "unsubscribe\n" + address>`).
    const { createHmac } = await import('node:crypto');
    const legacy = `${Buffer.from('old@example.com').toString('base64url')}.${createHmac('sha256', secret).update('unsubscribe\nold@example.com').digest('base64url')}`;
    expect(checkUnsubscribeToken(secret, legacy)).toBe('old@example.com');
  });
});
