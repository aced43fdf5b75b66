import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { JobContext, JobKind } from '../../jobs';
import type { MailAbout, MailPolicy } from './mail.policy';

/** How long a digest waits after its minute (or its opening, when later) for the last notices to join it. */
const digestGatherMs = 2000;

/** One notice's own mail to the team. */
export interface StaffNotice {
  subject: string;
  text: string;
  html?: string;
  about: MailAbout;
  /** After the mail went (an escalation records it). */
  afterSend?: () => Promise<void>;
}

/** One notice's lines in a digest. */
export interface DigestEntry {
  lines: string[];
  about: MailAbout;
  afterSend?: () => Promise<void>;
}

export interface StaffNoticeDefinition<P extends Record<string, unknown>> {
  payload: z.ZodType<P>;
  /** Caused by anonymous chat traffic (an escalation): withheld, alone or in a digest, past the node's daily budget of it. */
  fromAnonymousChat?: boolean;
  /** The notice's own mail, or undefined when there is nothing to tell (the row is gone, all read by now). */
  compose(payload: P, context: JobContext): Promise<StaffNotice | undefined>;
  /** Its entry in a digest, read when the digest goes; undefined leaves it out. */
  digestEntry(payload: P): Promise<DigestEntry | undefined>;
  /** How a digest counts notices of this kind: `9 new leads`. */
  digestCount(count: number): string;
}

/** `2026-12-11 14:03` (UTC). */
function minuteText(at: number): string {
  return new Date(at).toISOString().slice(0, 16).replace('T', ' ');
}

interface Registered {
  definition: StaffNoticeDefinition<Record<string, unknown>>;
}

/**
 * Staff notices (DESIGN.md 17): every mail to NOTIFY_EMAIL about something that happened (a new lead,
 * a chat waiting for a reply, anything later) shares one budget of NOTIFY_DIGEST_PER_MINUTE. A
 * notice first due in a minute whose earlier notices (of any kind, by job id) fill the budget is not
 * mailed but added to that minute's digest: a batch job (api/jobs) sent a moment after the minute's
 * end, listing each. Which notices go alone is the order of their jobs in the table, the same on every
 * node and every retry, so each notice is in exactly one mail: its own or one digest.
 */
export class StaffNotices {
  private readonly kinds = new Map<string, Registered>();
  private readonly digest: JobKind<{ window: number; items: Record<string, unknown>[] }>;

  constructor(
    private readonly app: FastifyInstance,
    private readonly policy: MailPolicy,
    private readonly options: { notifyEmail: string | undefined; perWindow: number; windowMs: number },
  ) {
    this.digest = app.jobs.define('staff-digest', {
      class: 'mail',
      payload: z.object({ window: z.number().int(), items: z.array(z.record(z.string(), z.unknown())) }),
      handle: (payload, context) => this.sendDigest(payload, context),
    });
  }

  /** Defines the job of a kind of staff notice (defined even without NOTIFY_EMAIL: jobs promised before a restart that dropped it end quietly). */
  define<P extends Record<string, unknown>>(kind: string, definition: StaffNoticeDefinition<P>): JobKind<P> {
    this.kinds.set(kind, { definition });
    return this.app.jobs.define(kind, {
      class: 'mail',
      payload: definition.payload,
      handle: async (payload, context) => {
        const { notifyEmail, windowMs } = this.options;
        if (!notifyEmail) return;
        const notice = await definition.compose(payload, context);
        if (!notice) return;
        const window = Math.floor(context.dueAt / windowMs) * windowMs;
        if (await this.pastTheBudget(context.jobId, window)) {
          // Due a moment after the minute's end, so the notices of its last moment join it too; one
          // opened later (a backlog, an outage) waits the same moment for the rest.
          await this.app.jobs.addToBatch({
            kind: this.digest.kind,
            key: `staff-digest:${window}`,
            payload: { window },
            item: { notice: kind, ...payload },
            runAt: Math.max(window + windowMs, this.app.clock.now()) + digestGatherMs,
          });
          return;
        }
        const sent = await this.policy.send(
          { purpose: 'staff-notice', to: notifyEmail, about: notice.about, fromAnonymousChat: definition.fromAnonymousChat, compose: () => notice },
          context,
        );
        if (sent.sent) await notice.afterSend?.();
      },
    });
  }

  /** True when this notice is past its window's budget: the staff notices of its window before it (by job id) fill it. */
  private async pastTheBudget(jobId: number, window: number): Promise<boolean> {
    const { perWindow, windowMs } = this.options;
    if (perWindow === 0) return false;
    const earlier = await this.app.jobs.countDueBefore({ kinds: [...this.kinds.keys()], from: window, to: window + windowMs, beforeId: jobId });
    return earlier >= perWindow;
  }

  private async sendDigest({ window, items }: { window: number; items: Record<string, unknown>[] }, context: JobContext): Promise<void> {
    const { notifyEmail, perWindow, windowMs } = this.options;
    if (!notifyEmail) return;
    const counts = new Map<string, number>();
    const entries: DigestEntry[] = [];
    for (const { notice, ...rest } of items) {
      const registered = typeof notice === 'string' ? this.kinds.get(notice) : undefined;
      const payload = registered?.definition.payload.safeParse(rest);
      if (!registered || !payload?.success) continue;
      if (registered.definition.fromAnonymousChat && this.policy.withholdsAnonymousChatMail()) continue;
      // Rows deleted since are left out; a digest of none is not sent.
      const entry = await registered.definition.digestEntry(payload.data);
      if (!entry) continue;
      entries.push(entry);
      counts.set(notice as string, (counts.get(notice as string) ?? 0) + 1);
    }
    if (entries.length === 0) return;
    const subject = `Digest: ${[...counts].map(([kind, count]) => this.kinds.get(kind)!.definition.digestCount(count)).join(', ')}`;
    const text = [
      `More than ${perWindow} notices for the team came in between ${minuteText(window)} and ${minuteText(window + windowMs).slice(11)} (UTC).`,
      `The first ${perWindow} were mailed one by one; these ${entries.length} come in this one mail.`,
      '',
      ...entries.flatMap((entry) => [...entry.lines, '']),
    ].join('\n');
    const about: MailAbout = {
      sessions: entries.flatMap((entry) => entry.about.sessions ?? []),
      leads: entries.flatMap((entry) => entry.about.leads ?? []),
    };
    const sent = await this.policy.send({ purpose: 'staff-notice', to: notifyEmail, about, compose: () => ({ subject, text }) }, context);
    if (sent.sent) for (const entry of entries) await entry.afterSend?.();
  }
}
