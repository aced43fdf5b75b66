// @scaled: notice jobs through SMTP outages, claims per dialect
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/support/clock';
import { onPostgres } from '../../../test/support/database';
import { contactSubmission } from '../../../test/support/factories';
import { buildTestServer, freshDatabaseEnv } from '../../../test/support/helper';
import { jobsSettled } from '../../../test/support/jobs';
import { type SinkMail, startSmtpSink } from '../../../test/support/smtp-sink';
import { waitUntil } from '../../../test/support/wait';

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

/** The mails to staff (NOTIFY_EMAIL): each lead's submitter gets a confirmation of their own besides. */
const staffMails = (mails: readonly SinkMail[]) => mails.filter((mail) => mail.to === notifyEmail);

/** How many mails name the lead `name`. */
const mailsAbout = (mails: readonly SinkMail[], name: string) => mails.filter((mail) => mail.text.includes(`Name: ${name}\n`));

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
    const ids = new Map<string, number>();
    for (const name of names) ids.set(name, await postLead(app, name));
    // Every notice was read whole and refused at least twice: the outage is real.
    await waitUntil(() => names.every((name) => mailsAbout(sink.refused, name).length >= 2), { timeoutMs: 10_000, intervalMs: 50 });
    sink.setMode('accept');
    await sink.waitFor((accepted) => names.every((name) => mailsAbout(accepted, name).length > 0));
    await jobsSettled(app.db, ['lead-notice']);

    for (const name of names) {
      const [mail, ...more] = mailsAbout(sink.accepted, name);
      expect(more).toEqual([]);
      expect(mail!.to).toBe(notifyEmail);
      expect(mail!.text).toContain(`\nOpen it in the staff dashboard: http://localhost:3000/admin/leads/contact/${ids.get(name)}\n`);
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
    await waitUntil(async () => (await pendingAttempts(app, 'lead-notice')).filter((attempts) => attempts >= 2).length === names.length, {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    expect(sink.accepted.length).toBe(before);
    await sink.up();
    await sink.waitFor((accepted) => names.every((name) => mailsAbout(accepted, name).length > 0));
    await jobsSettled(app.db, ['lead-notice']);
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
    // The held send gives up (SMTP timeouts are a third of the lease) and goes away. Had it waited
    // past the lease, a runner would have taken the job again: a second send held beside the first.
    await waitUntil(() => mailsAbout(sink.abandoned, 'Hung Ida').length > 0, { timeoutMs: 10_000, intervalMs: 20 });
    expect(sink.mostHeldAtOnce()).toBe(1);
    sink.setMode('accept');
    await sink.waitFor((accepted) => mailsAbout(accepted, 'Hung Ida').length > 0);
    await jobsSettled(app.db, ['lead-notice']);
    await app.jobs.runDue();
    expect(mailsAbout(sink.accepted, 'Hung Ida')).toHaveLength(1);
  });
});

/** The digests among `mails`. */
const digests = (mails: readonly SinkMail[]) => mails.filter((mail) => mail.subject.startsWith('Digest: '));
/** How many mails mention the lead `name`: its own notice, or a digest's line for it. */
const mentions = (mails: readonly SinkMail[], name: string, email: string) =>
  mailsAbout(mails, name).length + digests(mails).filter((mail) => mail.text.includes(`: ${name} <${email}>\n`)).length;

/**
 * More than NOTIFY_DIGEST_PER_MINUTE notices due in one minute: on SQLite one node, on PostgreSQL two
 * nodes sharing the database, each with its runner. Their clock is the test's, so a burst falls in
 * one minute however slowly the machine posts it, and the minute ends when the test says.
 */
describe('a burst of leads: the notices past the limit go out as one digest', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  const perWindow = 4;
  const windowMs = 60_000;
  /** The digest of a minute goes out this long after its end (api/modules/mail/mail.staff-notices.ts). */
  const gatherMs = 2000;
  const clock = manualClock(Math.floor(Date.now() / windowMs) * windowMs);
  const env = mailEnv(sink.url, { NOTIFY_DIGEST_PER_MINUTE: String(perWindow), ...(await freshDatabaseEnv()) });
  const first = await buildTestServer(env, { clock });
  const nodes = onPostgres ? [first.app, (await buildTestServer(env, { clock })).app] : [first.app];
  /** Every job due on every node, done. */
  const runDue = async () => {
    await Promise.all(nodes.map((node) => node.jobs.runDue()));
  };

  it('the first 4 alone, the other 9 in one digest listing kind, name, email and link; each lead in exactly one mail', async () => {
    const people = Array.from({ length: 13 }, (_, index) => ({ name: `Burst Person ${index}`, email: `burst${index}@dealer.example` }));
    const ids = new Map<string, number>();
    for (const [index, person] of people.entries()) {
      const app = nodes[index % nodes.length]!;
      const response = await app.inject({ method: 'POST', url: '/api/contact-submission', payload: contactSubmission(person) });
      expect(response.statusCode).toBe(201);
      ids.set(person.name, response.json<{ id: number }>().id);
    }
    await runDue();
    // The first four went out at once; the rest wait for the minute's end, in a digest.
    expect(staffMails(sink.accepted).map((mail) => mail.subject).sort()).toEqual(people.slice(0, perWindow).map((person) => `Contact form: ${person.name}`).sort());
    clock.advance(windowMs + gatherMs);
    await runDue();
    await jobsSettled(first.app.db, ['lead-notice', 'staff-digest']);

    for (const person of people) expect(mentions(sink.accepted, person.name, person.email)).toBe(1);
    // The first four by arrival alone (sent in any order by two runners), the rest in one digest.
    expect(staffMails(sink.accepted).filter((mail) => !mail.subject.startsWith('Digest: ')).map((mail) => mail.subject).sort()).toEqual(
      people.slice(0, perWindow).map((person) => `Contact form: ${person.name}`).sort(),
    );
    const [digest, ...more] = digests(sink.accepted);
    expect(more).toEqual([]);
    expect(digest!.to).toBe(notifyEmail);
    expect(digest!.subject).toBe('Digest: 9 new leads');
    expect(digest!.messageId).toMatch(/^<job-\d+@lotwise\.example>$/);
    for (const person of people.slice(perWindow)) {
      expect(digest!.text).toContain(`Contact form: ${person.name} <${person.email}>\n  http://localhost:3000/admin/leads/contact/${ids.get(person.name)}\n`);
    }
  });

  it('30 leads posted all at once across the nodes: each lead in exactly one mail, 4 alone and the rest in one digest', async () => {
    const before = sink.accepted.length;
    const people = Array.from({ length: 30 }, (_, index) => ({ name: `Rush Person ${index}`, email: `rush${index}@dealer.example` }));
    await Promise.all(
      people.map(async (person, index) => {
        const response = await nodes[index % nodes.length]!.inject({ method: 'POST', url: '/api/contact-submission', payload: contactSubmission(person) });
        expect(response.statusCode).toBe(201);
      }),
    );
    await runDue();
    clock.advance(windowMs + gatherMs);
    await runDue();
    await jobsSettled(first.app.db, ['lead-notice', 'staff-digest']);
    const mails = staffMails(sink.accepted.slice(before));
    for (const person of people) expect(mentions(mails, person.name, person.email)).toBe(1);
    expect(digests(mails).map((mail) => mail.subject)).toEqual([`Digest: ${people.length - perWindow} new leads`]);
    expect(mails).toHaveLength(perWindow + 1);
  });
});

describe('NOTIFY_DIGEST_PER_MINUTE=0', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  const { app } = await buildTestServer(mailEnv(sink.url, { NOTIFY_DIGEST_PER_MINUTE: '0' }));

  it('mails every notice of a burst on its own', async () => {
    const names = Array.from({ length: 15 }, (_, index) => `Undigested ${index}`);
    for (const name of names) await postLead(app, name);
    await sink.waitFor((accepted) => names.every((name) => mailsAbout(accepted, name).length > 0));
    await jobsSettled(app.db, ['lead-notice']);
    expect(digests(sink.accepted)).toEqual([]);
    for (const name of names) expect(mailsAbout(sink.accepted, name)).toHaveLength(1);
  });
});
