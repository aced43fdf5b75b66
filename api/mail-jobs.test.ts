// @scaled: a job through a kill -9 of the process
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Db } from '../db/client';
import { connectDatabase } from '../db/open';
import { freshPostgresUrl, onPostgres } from '../test/support/database';
import { type AppProcess, startAppProcess } from '../scripts/services/app-process';
import { crashHarness } from '../test/support/crash-harness';
import { contactSubmission } from '../test/support/factories';
import { type SinkMail, startSmtpSink, type SmtpSink } from '../test/support/smtp-sink';

const notifyEmail = 'leads@lotwise.example';
const redisUrl = inject('redisUrl') as string | undefined;

const postLead = async (node: AppProcess, name: string) => {
  const response = await fetch(`${node.url}/api/contact-submission`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(contactSubmission({ name })),
  });
  expect(response.status).toBe(201);
};

/** The mails to staff (NOTIFY_EMAIL): each lead's submitter gets a confirmation of their own besides. */
const staffMails = (mails: readonly SinkMail[]) => mails.filter((mail) => mail.to === notifyEmail);

/** The mails that name the lead `name`. */
const mailsAbout = (mails: readonly SinkMail[], name: string) => mails.filter((mail) => mail.text.includes(`Name: ${name}\n`));

/** Waits until `check` holds, or fails naming `what`. */
async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const leadNotices = (db: Db) => db.selectFrom('jobs').selectAll().where('kind', '=', 'lead-notice').execute();

/** The real server process, as `npm start` runs it, on a database that outlives it; mail to a real SMTP server. */
describe('a lead notice through a kill -9 while the SMTP server is down', async () => {
  const { db, sink, start } = await crashHarness('mail-crash', {
    NOTIFY_EMAIL: notifyEmail,
    JOBS_RETRY_BASE_SECONDS: '0.2',
  });

  it('arrives once when the SMTP server and a new process are back', async () => {
    await sink.down();
    const first = await start();
    await postLead(first, 'Crash Carla');
    // The process tried to send and failed: the notice lives in the database only now.
    await until('a failed try', async () => (await leadNotices(db)).some((job) => job.attempts >= 1 && job.lastError !== null));
    first.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    expect(sink.accepted).toEqual([]);

    await sink.up();
    await start();
    await sink.waitFor((accepted) => mailsAbout(accepted, 'Crash Carla').length > 0);
    await until('the notice job done', async () => (await leadNotices(db)).every((job) => job.state === 'done'));
    // A moment more for a second copy, if there were one to come.
    await sleep(300);
    expect(mailsAbout(sink.accepted, 'Crash Carla')).toHaveLength(1);
    expect(staffMails(sink.accepted)).toHaveLength(1);
  }, 60_000);
});

/**
 * Two real server processes on one PostgreSQL and one Redis, as the README's "Run on several hosts"
 * sets them up, sending to one SMTP server.
 */
describe.skipIf(!onPostgres || !redisUrl)('lead notices from two nodes on PostgreSQL and Redis', () => {
  let sink: SmtpSink;
  let env: Record<string, string>;
  let db: Db;
  let nodeA: AppProcess;
  let nodeB: AppProcess;

  beforeAll(async () => {
    sink = await startSmtpSink();
    env = {
      DATABASE_URL: await freshPostgresUrl(),
      REDIS_URL: redisUrl!,
      REDIS_KEY_PREFIX: `mail-jobs-${randomBytes(4).toString('hex')}:`,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      SMTP_URL: sink.url,
      NOTIFY_EMAIL: notifyEmail,
      // Forty leads in a minute, each mailed on its own: this is about once, not about the digest.
      NOTIFY_DIGEST_PER_MINUTE: '0',
      JOBS_RETRY_BASE_SECONDS: '0.2',
      JOBS_LEASE_SECONDS: '3',
    };
    [nodeA, nodeB] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
    db = connectDatabase({ url: env.DATABASE_URL, path: '', poolSize: 1 });
  }, 120_000);

  afterEach((context) => {
    if (context.task.result?.state === 'fail') console.log(`node A:\n${nodeA.output()}\nnode B:\n${nodeB.output()}`);
  });

  afterAll(async () => {
    await Promise.all([nodeA?.stop(), nodeB?.stop()]);
    await db?.destroy();
    await sink?.down();
  });

  it('40 leads posted across both nodes at once, the SMTP server refusing a while: each notified once, none twice', async () => {
    const names = Array.from({ length: 40 }, (_, index) => `Pair Lead ${index}`);
    // Every first try is refused, so the retries are claimed by both runners again.
    sink.setMode('refuse');
    await Promise.all(names.map((name, index) => postLead(index % 2 ? nodeB : nodeA, name)));
    await until('every notice tried', () => names.every((name) => mailsAbout(sink.refused, name).length > 0));
    sink.setMode('accept');
    await sink.waitFor((accepted) => names.every((name) => mailsAbout(accepted, name).length > 0));
    await until('every notice job done', async () => (await leadNotices(db)).every((job) => job.state === 'done'));
    await sleep(300);
    for (const name of names) expect(mailsAbout(sink.accepted, name)).toHaveLength(1);
    expect(staffMails(sink.accepted)).toHaveLength(names.length);
    expect(new Set(staffMails(sink.accepted).map((mail) => mail.messageId)).size).toBe(names.length);
  }, 60_000);

  it('a node killed -9 in the middle of sending: the other node sends its notices, once each', async () => {
    const before = staffMails(sink.accepted).length;
    // The SMTP server takes each message and does not answer: the sends hang, their jobs claimed.
    sink.setMode('hold');
    const names = ['Held Hana', 'Held Ivo', 'Held Jo'];
    for (const name of names) await postLead(nodeA, name);
    const claimed = async () => (await leadNotices(db)).filter((job) => job.state === 'pending' && job.lockedBy !== null);
    await until('the notices claimed', async () => (await claimed()).length === names.length);
    const claimedByA = (await claimed()).filter((job) => job.lockedBy!.includes(`:${nodeA.pid}:`));
    expect(claimedByA.length).toBeGreaterThan(0);

    nodeA.kill('SIGKILL');
    await nodeA.exited;
    // The dead node's connections are closed, so what it was sending was never accepted.
    await sleep(300);
    sink.setMode('accept');
    await sink.waitFor((accepted) => names.every((name) => mailsAbout(accepted, name).length > 0));
    await until('every notice job done', async () => (await leadNotices(db)).every((job) => job.state === 'done'));
    await sleep(300);
    for (const name of names) expect(mailsAbout(sink.accepted, name)).toHaveLength(1);
    expect(staffMails(sink.accepted).length - before).toBe(names.length);
    // Node A's claims were taken over after their lease and done by node B.
    const doneByB = await db.selectFrom('jobs').select('id').where('id', 'in', claimedByA.map((job) => job.id)).where('state', '=', 'done').execute();
    expect(doneByB).toHaveLength(claimedByA.length);
  }, 60_000);
});
