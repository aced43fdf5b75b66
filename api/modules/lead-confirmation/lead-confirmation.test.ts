import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { LeadKind } from '../../contract/leads';
import { leadPaths } from '../../contract/paths';
import { contactSubmission, getStartedRequest, validInput } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';
import { jobsSettled } from '../../../test/support/jobs';
import { type SinkMail, startSmtpSink } from '../../../test/support/smtp-sink';

const notifyEmail = 'leads@lotwise.example';

/** Every confirmation promised so far was sent or decided against (test/support/jobs.ts). */
const confirmationsSettled = (app: FastifyInstance) => jobsSettled(app.db, ['lead-confirmation-mail']);

const mailsTo = (mails: readonly SinkMail[], email: string) => mails.filter((mail) => mail.to === email);

describe('the confirmation mail to the submitter', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  const { app } = await buildTestServer({
    SMTP_URL: sink.url,
    NOTIFY_EMAIL: notifyEmail,
    RATE_LIMIT_ALLOWLIST: '127.0.0.1',
    JOBS_RETRY_BASE_SECONDS: '0.2',
    // Each staff notice mailed on its own (the tests look for them), however many leads a minute.
    NOTIFY_DIGEST_PER_MINUTE: '0',
  });
  const post = async (kind: LeadKind, payload: object) => {
    const response = await app.inject({ method: 'POST', url: leadPaths[kind].create, payload });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number; reference: string }>();
  };

  it('arrives once, text and HTML, with the reference, what happens next and the unsubscribe header', async () => {
    const email = 'carla.confirm@dealer.example';
    const { reference } = await post('contact', contactSubmission({ email, name: 'Carla Confirm' }));
    await sink.waitFor((accepted) => mailsTo(accepted, email).length > 0);
    await confirmationsSettled(app);
    const [mail, ...more] = mailsTo(sink.accepted, email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`We received your message (${reference})`);
    expect(mail!.text).toContain(`Your reference: ${reference}\n`);
    expect(mail!.text).toContain('Hi Carla Confirm,');
    expect(mail!.text).toContain('What happens next:\n- A dealership specialist reads your message');
    expect(mail!.html).toContain(`Your reference: ${reference}`);
    expect(mail!.html).toContain('Hi Carla Confirm,');
    expect(mail!.headers['list-unsubscribe']).toMatch(/^<http:\/\/localhost:3000\/unsubscribe\?token=[\w-]+\.[\w-]+>$/);
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail!.messageId).toMatch(/^<job-\d+@lotwise\.example>$/);
    // Staff still get their own notice, apart.
    await sink.waitFor((accepted) => mailsTo(accepted, notifyEmail).some((each) => each.text.includes('Name: Carla Confirm\n')));
  });

  it('greets nobody by a name with a link or markup: the address never asked for our mail, so no stranger’s words reach it', async () => {
    const cases = [
      ['winner.link@dealer.example', 'WINNER! Claim prize at https://claim.example/now'],
      ['winner.domain@dealer.example', 'Claim your prize at prizes.example'],
      ['winner.markup@dealer.example', 'Carla <b>Confirm</b>'],
    ] as const;
    for (const [email, name] of cases) await post('contact', contactSubmission({ email, name }));
    await sink.waitFor((accepted) => cases.every(([email]) => mailsTo(accepted, email).length > 0));
    for (const [email, name] of cases) {
      const [mail] = mailsTo(sink.accepted, email);
      expect(mail!.text.startsWith('Hello,\n')).toBe(true);
      for (const part of [mail!.text, mail!.html ?? '', mail!.subject]) {
        expect(part).not.toContain('WINNER');
        expect(part).not.toContain('prize');
        expect(part).not.toContain('Confirm</b>');
        expect(part).not.toContain('&#60;b&#62;');
      }
      // Staff see the name as given (escaped where it is HTML): it is their lead.
      await sink.waitFor((accepted) => mailsTo(accepted, notifyEmail).some((each) => each.text.includes(`Name: ${name}\n`)));
    }
  });

  it('names the plan of an application and its G reference', async () => {
    const email = 'gina.plan@dealer.example';
    const { reference } = await post('get-started', getStartedRequest({ email, firstName: 'Gina', lastName: 'Plan', plan: 'enterprise' }));
    expect(reference).toMatch(/^LW-G-\d+$/);
    await sink.waitFor((accepted) => mailsTo(accepted, email).length > 0);
    const [mail] = mailsTo(sink.accepted, email);
    expect(mail!.subject).toBe(`We received your application (${reference})`);
    expect(mail!.text).toContain(`Your reference: ${reference}\nPlan: Enterprise ($299/month)\n`);
    expect(mail!.text).toContain('Hi Gina Plan,');
  });

  it('mails one address at most once in 10 minutes, however many forms name it, in any case', async () => {
    const email = 'flooded.inbox@dealer.example';
    // The windows are fixed 10-minute spans: start well inside one, so the posts cannot straddle two.
    const windowMs = 10 * 60 * 1000;
    if (windowMs - (Date.now() % windowMs) < 20_000) await sleep(windowMs - (Date.now() % windowMs) + 100);
    const first = await post('contact', contactSubmission({ email }));
    // Sent before the next ones come: a finished confirmation still holds the window.
    await sink.waitFor((accepted) => accepted.some((mail) => mail.to === email));
    await confirmationsSettled(app);
    for (const kind of ['support', 'demo', 'contact'] as const) await post(kind, { ...validInput[kind](), email: kind === 'demo' ? email.toUpperCase() : email });
    const other = 'someone.else@dealer.example';
    await post('contact', contactSubmission({ email: other }));
    await sink.waitFor((accepted) => mailsTo(accepted, other).length > 0);
    await confirmationsSettled(app);
    const mails = sink.accepted.filter((mail) => mail.to.toLowerCase() === email);
    expect(mails.map((mail) => mail.subject)).toEqual([`We received your message (${first.reference})`]);
    // The job table keeps no address, even in its keys.
    const keys = await app.db.selectFrom('jobs').select('dedupeKey').where('kind', '=', 'lead-confirmation-mail').execute();
    expect(keys.some((row) => row.dedupeKey?.includes('dealer.example'))).toBe(false);
  }, 60_000);

  it.each(['support', 'demo'] as const)('confirms a %s too', async (kind) => {
    const email = `${kind}.confirm@dealer.example`;
    const { reference } = await post(kind, { ...validInput[kind](), email });
    await sink.waitFor((accepted) => mailsTo(accepted, email).length > 0);
    expect(mailsTo(sink.accepted, email)[0]!.text).toContain(`Your reference: ${reference}\n`);
  });

  it('keeps one Message-ID through an outage and arrives once when it ends', async () => {
    const email = 'olive.outage@dealer.example';
    sink.setMode('refuse');
    await post('contact', contactSubmission({ email, name: 'Olive Outage' }));
    const deadline = Date.now() + 10_000;
    while (mailsTo(sink.refused, email).length < 2) {
      if (Date.now() > deadline) throw new Error('the confirmation was not tried twice');
      await sleep(50);
    }
    sink.setMode('accept');
    await sink.waitFor((accepted) => mailsTo(accepted, email).length > 0);
    await confirmationsSettled(app);
    const [mail, ...more] = mailsTo(sink.accepted, email);
    expect(more).toEqual([]);
    expect(new Set(mailsTo(sink.refused, email).map((each) => each.messageId))).toEqual(new Set([mail!.messageId]));
  });

  it('is not sent to an address on the unsubscribe list', async () => {
    const email = 'una.unsubscribed@dealer.example';
    await post('contact', contactSubmission({ email, name: 'Una First' }));
    await sink.waitFor((accepted) => mailsTo(accepted, email).length > 0);
    const link = new URL(/^<(.+)>$/.exec(mailsTo(sink.accepted, email)[0]!.headers['list-unsubscribe']!)![1]!);
    const oneClick = await app.inject({
      method: 'POST',
      url: `${link.pathname}${link.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);

    await post('demo', { ...validInput.demo(), email: 'Una.Unsubscribed@dealer.example', name: 'Una Again' });
    await sink.waitFor((accepted) => mailsTo(accepted, notifyEmail).some((each) => each.text.includes('Name: Una Again\n')));
    await confirmationsSettled(app);
    expect(mailsTo(sink.accepted, email)).toHaveLength(1);
    expect(sink.accepted.filter((mail) => mail.to.toLowerCase() === email && mail.text.includes('Una Again'))).toEqual([]);
  });

  it('is not sent for a filled honeypot (nothing stored, nothing promised)', async () => {
    const email = 'bot@spam.example';
    await post('contact', { ...contactSubmission({ email }), _gotcha: 'http://spam.example' });
    await confirmationsSettled(app);
    expect(sink.accepted.filter((mail) => mail.to === email)).toEqual([]);
  });
});
