import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { contactSubmission } from '../../test/factories';
import { buildTestServer } from '../../test/helper';
import { type SinkMail, startSmtpSink } from '../../test/smtp-sink';

const notifyEmail = 'leads@lotwise.example';

/** Mail environment of a node sending to the sink, retrying quickly. */
const mailEnv = (smtpUrl: string, env: Record<string, string> = {}) => ({
  SMTP_URL: smtpUrl,
  NOTIFY_EMAIL: notifyEmail,
  RATE_LIMIT_ALLOWLIST: '127.0.0.1',
  JOBS_RETRY_BASE_SECONDS: '0.2',
  ...env,
});

const postLead = async (app: FastifyInstance, name: string) => {
  const response = await app.inject({ method: 'POST', url: '/api/contact-submission', payload: contactSubmission({ name }) });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: number }>().id;
};

/** How many mails name the lead `name`. */
const mailsAbout = (mails: readonly SinkMail[], name: string) => mails.filter((mail) => mail.text.includes(`Name: ${name}\n`));

/** Resolves once no job of these kinds is pending: every promise kept (or given up). */
async function jobsSettled(app: FastifyInstance, kinds: string[], timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = await app.db.selectFrom('jobs').select('id').where('kind', 'in', kinds).where('state', '=', 'pending').execute();
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${pending.length} jobs still pending`);
    await sleep(50);
  }
}

/** The attempts of each pending job of `kind`. */
async function pendingAttempts(app: FastifyInstance, kind: string): Promise<number[]> {
  const rows = await app.db.selectFrom('jobs').select('attempts').where('kind', '=', kind).where('state', '=', 'pending').execute();
  return rows.map((row) => row.attempts);
}

describe('lead notices through an SMTP outage, without a restart', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  const { app } = await buildTestServer(mailEnv(sink.url));

  it('a server refusing every mail for a while (451): each notice arrives once when it ends, with the Message-ID of its first try', async () => {
    sink.setMode('refuse');
    const names = ['Refused Ada', 'Refused Ben', 'Refused Cy', 'Refused Dee', 'Refused Eli'];
    for (const name of names) await postLead(app, name);
    // Every notice was read whole and refused at least twice: the outage is real.
    const deadline = Date.now() + 10_000;
    while (!names.every((name) => mailsAbout(sink.refused, name).length >= 2)) {
      if (Date.now() > deadline) throw new Error('the notices were not tried');
      await sleep(50);
    }
    sink.setMode('accept');
    await sink.waitFor((accepted) => names.every((name) => mailsAbout(accepted, name).length > 0));
    await jobsSettled(app, ['lead-notice']);

    for (const name of names) {
      const [mail, ...more] = mailsAbout(sink.accepted, name);
      expect(more).toEqual([]);
      expect(mail!.to).toBe(notifyEmail);
      // One mail: every refused try carried the Message-ID that finally went through.
      const tries = mailsAbout(sink.refused, name);
      expect(mail!.messageId).toMatch(/^<job-\d+@lotwise\.example>$/);
      expect(new Set(tries.map((each) => each.messageId))).toEqual(new Set([mail!.messageId]));
    }
  });

  it('a server gone for a while: each notice arrives once when it is back', async () => {
    await sink.down();
    const before = sink.accepted.length;
    const names = ['Down Fay', 'Down Gus', 'Down Hal'];
    for (const name of names) await postLead(app, name);
    // Tried and failed more than once while it was gone.
    const deadline = Date.now() + 10_000;
    while ((await pendingAttempts(app, 'lead-notice')).filter((attempts) => attempts >= 2).length < names.length) {
      if (Date.now() > deadline) throw new Error('the notices were not tried');
      await sleep(50);
    }
    expect(sink.accepted.length).toBe(before);
    await sink.up();
    await sink.waitFor((accepted) => names.every((name) => mailsAbout(accepted, name).length > 0));
    await jobsSettled(app, ['lead-notice']);
    for (const name of names) expect(mailsAbout(sink.accepted, name)).toHaveLength(1);
  });
});

describe('lead notices to an SMTP server that hangs', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  // A lease of 1.5 s, looked at every 0.2 s: a send still waiting after it would be claimed again.
  const { app } = await buildTestServer(mailEnv(sink.url, { JOBS_LEASE_SECONDS: '1.5', JOBS_POLL_MS: '200' }));

  it('gives up on a send before its lease ends, so the notice is never sent twice at once', async () => {
    sink.setMode('hold');
    await postLead(app, 'Hung Ida');
    // Held well past the lease: a runner still waiting then would see its job taken again.
    await sleep(3500);
    sink.setMode('accept');
    await sink.waitFor((accepted) => mailsAbout(accepted, 'Hung Ida').length > 0);
    await jobsSettled(app, ['lead-notice']);
    await sleep(300);
    expect(mailsAbout(sink.accepted, 'Hung Ida')).toHaveLength(1);
  });
});
