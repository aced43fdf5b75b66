import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { AnonymousBudgetStatus } from '../contract/operations';
import type { Clock } from '../lib/clock';

/** The UTC day of an instant, `2026-12-23`: the budget starts afresh at midnight UTC. */
const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * A node's daily bound on anonymous traffic (new visitor conversations, visitor messages). Visitors
 * need no account, so nothing else bounds what strangers make the site do in a day. Past either
 * limit the node keeps taking every chat (a real customer is never turned away), but it is "over
 * today": mail caused by anonymous traffic is skipped until the day ends, and staff are told once.
 * Counted in this node's memory, from the committed messages' events: each node has its own budget
 * (a restart starts the day's count again, which only errs on the side of mailing).
 */
export class AnonymousBudget {
  private day = '';
  private conversations = 0;
  private messages = 0;
  private alertedDay = '';

  constructor(
    private readonly limits: { conversations: number; messages: number },
    private readonly clock: Clock,
    /** Called once per day, when the count first passes a limit. */
    private readonly crossed: (status: AnonymousBudgetStatus) => void,
  ) {}

  /** Counts a visitor message; `startsConversation` when it is a new conversation's first. */
  count(startsConversation: boolean): void {
    this.rollOver();
    if (startsConversation) this.conversations += 1;
    this.messages += 1;
    if (this.alertedDay !== this.day && this.isOver()) {
      this.alertedDay = this.day;
      this.crossed(this.status());
    }
  }

  /** True once today's anonymous traffic passed a limit: skip mail it causes (escalation, continuity, transcripts). */
  overToday(): boolean {
    this.rollOver();
    return this.isOver();
  }

  status(): AnonymousBudgetStatus {
    this.rollOver();
    return {
      day: this.day,
      conversations: this.conversations,
      messages: this.messages,
      dailyConversations: this.limits.conversations,
      dailyMessages: this.limits.messages,
      overToday: this.isOver(),
    };
  }

  private isOver(): boolean {
    return this.conversations > this.limits.conversations || this.messages > this.limits.messages;
  }

  private rollOver(): void {
    const today = utcDay(this.clock.now());
    if (today === this.day) return;
    this.day = today;
    this.conversations = 0;
    this.messages = 0;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This node's daily bound on anonymous traffic; `overToday()` says whether to skip mail it causes. */
    anonymousBudget: AnonymousBudget;
  }
}

/**
 * Counts each committed visitor message (a new conversation's first too); when a limit is first
 * passed in a day, every staff dashboard gets `alert:anonymous-budget` and the log a warning.
 * `/readyz` shows the day's figures, `/metrics` too.
 */
export default fp(
  async (app: FastifyInstance, options: { config: Config }) => {
    const budget = new AnonymousBudget(options.config.anonymousDaily, app.clock, (status) => {
      app.log.warn({ anonymousTraffic: status }, 'over the daily budget of anonymous traffic: mail caused by it stops until the day ends (UTC)');
      app.staffSockets.emit('alert:anonymous-budget', status);
    });
    app.decorate('anonymousBudget', budget);
    app.events.on('chat.message.created', ({ message, startedBy }) => {
      if (message.kind === 'visitor') budget.count(startedBy !== undefined);
    });
  },
  { name: 'anonymous-budget', dependencies: ['events', 'socket-io'] },
);
