import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config';
import {
  type CreatedWebhook,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
  webhookEventTypes,
  type WebhookInput,
  webhookTestEventType,
} from '../../contract/admin-operations';
import { leadKindSchema } from '../../contract/leads';
import { JobDeferral, retryDelayMs } from '../../jobs';
import { HttpError } from '../../plugins/errors';
import { recordAudit } from '../audit';
import { findLead } from '../leads';
import { checkWebhookUrl, WebhookAddressError } from './webhooks.address';
import * as repository from './webhooks.repository';
import { sendWebhook, succeeded } from './webhooks.send';

/** Which event types have a subscriber: read by the durable listeners, which cannot wait for a query. */
class SubscribedTypes {
  private types = new Set<string>();
  has(type: WebhookEventType): boolean {
    return this.types.has(type);
  }
  async refresh(app: FastifyInstance): Promise<void> {
    const rows = await repository.listWebhooks(app.db);
    this.types = new Set(rows.flatMap((row) => eventsOf(row.events)));
  }
}

function eventsOf(text: string): WebhookEventType[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((each): each is WebhookEventType => (webhookEventTypes as readonly unknown[]).includes(each)) : [];
  } catch {
    return [];
  }
}

const iso = (at: number) => new Date(at).toISOString();

function toWebhook(row: repository.WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: eventsOf(row.events),
    createdAt: iso(row.createdAt),
    receiver: {
      failingSince: row.failingSince === null ? null : iso(row.failingSince),
      pausedUntil: row.pausedUntil === null ? null : iso(row.pausedUntil),
      failures: row.failures,
      lastFailure: row.lastFailure,
    },
  };
}

/** Past a try's time limit, before another delivery to a failing receiver may take the next try. */
const tryMarginMs = 1000;

const fanOutPayload = z.object({
  eventId: z.string().min(1),
  type: z.enum(webhookEventTypes),
  subjectKind: z.string().min(1),
  subjectId: z.string().min(1),
  at: z.number().int(),
});
type FanOut = z.infer<typeof fanOutPayload>;

/** The cross-node nudge: "the subscriptions changed, read them again". */
const subscriptionsChangedEvent = 'webhooks-changed';
/** Deliveries listed per subscription. */
const deliveriesListed = 50;

/**
 * Webhooks (DESIGN.md 12): a durable listener of each subscribable event promises a fan-out job in
 * the event's own write; the fan-out adds one delivery row per subscription and one delivery job per
 * row in one write; a delivery job reads what the event is about, signs and POSTs it, and records
 * the attempt. A failure (non-2xx, no answer in time, a refused address) is thrown, so the job
 * runner retries it with backoff for 24 hours. A receiver may get a delivery twice (a node dying
 * mid-send): the `X-Lotwise-Delivery` id is the same on every try.
 */
export function createWebhooks(app: FastifyInstance, config: Config) {
  const options = config.webhooks;
  const subscribed = new SubscribedTypes();

  const deliver = app.jobs.define('webhook-delivery', {
    class: 'webhook',
    payload: z.object({ deliveryId: z.string().min(1) }),
    async handle({ deliveryId }, { signal }) {
      const delivery = await repository.findDelivery(app.db, deliveryId);
      if (!delivery || delivery.deliveredAt !== null) return;
      const webhook = await repository.findWebhook(app.db, delivery.webhookId);
      if (!webhook) return;
      const data = await dataOf(delivery);
      // What the event was about is gone (erased): nothing to send.
      if (data === undefined) return;
      const at = Date.now();
      if (webhook.failingSince !== null) {
        // A failing receiver gets one try at a time, once its pause is over; the other deliveries
        // to it wait for the pause without spending a try of theirs (DESIGN 17).
        const took = await app.write((tx) => repository.takeTry(tx.db, webhook.id, at, at + options.timeoutMs + tryMarginMs));
        if (!took) {
          const pausedUntil = (await repository.findWebhook(app.db, webhook.id))?.pausedUntil ?? at;
          // Another delivery's try is under way (the pause is no longer than a try): look again soon,
          // so the others go out shortly after it succeeds. Else wait out the pause.
          const trying = pausedUntil - at <= options.timeoutMs + tryMarginMs;
          throw new JobDeferral(trying ? at + tryMarginMs : pausedUntil, `receiver of webhook ${webhook.id} paused after failing`);
        }
      }
      const body = JSON.stringify({ id: delivery.eventId, type: delivery.eventType, createdAt: iso(delivery.eventAt), data });
      const result = await sendWebhook(webhook, { id: delivery.id, eventType: delivery.eventType, body }, { ...options, signal });
      const ok = succeeded(result);
      const failureClass = result.error ?? `http-status ${result.statusCode}`;
      await app.write(async (tx) => {
        await repository.recordAttempt(tx.db, { deliveryId, at, ...result }, ok ? Date.now() : null);
        if (ok) await repository.markReceiverHealthy(tx.db, webhook.id);
        else {
          const pausedUntil = Date.now() + retryDelayMs(webhook.failures + 1, config.jobs.retryBaseMs);
          await repository.markReceiverFailing(tx.db, webhook.id, { at, pausedUntil, failureClass });
        }
      });
      if (!ok) throw new Error(`the receiver failed: ${failureClass}`);
    },
  });

  const fanOut = app.jobs.define('webhook-event', {
    class: 'webhook',
    payload: fanOutPayload,
    async handle(event) {
      const webhooks = (await repository.listWebhooks(app.db)).filter((row) => eventsOf(row.events).includes(event.type));
      if (webhooks.length === 0) return;
      await app.write(async (tx) => {
        const added = await repository.addDeliveries(
          tx.db,
          webhooks.map((webhook) => deliveryRow(webhook.id, event)),
        );
        for (const delivery of added) tx.enqueue(deliver.request({ deliveryId: delivery.id }));
      });
    },
  });

  function deliveryRow(webhookId: number, event: FanOut): repository.DeliveryRow {
    const { eventId, type, subjectKind, subjectId, at } = event;
    return { id: `dlv_${randomUUID()}`, webhookId, eventId, eventType: type, subjectKind, subjectId, eventAt: at, deliveredAt: null };
  }

  /** The `data` of a delivery's body, read now; undefined when its subject is gone. */
  async function dataOf(delivery: repository.DeliveryRow): Promise<unknown> {
    if (delivery.subjectKind === 'test') return { message: 'A test event from Lotwise: your endpoint is reachable and the signature verifies.' };
    if (delivery.subjectKind === 'chat-message') {
      const message = await repository.findChatMessage(app.db, Number(delivery.subjectId));
      return message && { message };
    }
    const kind = leadKindSchema.safeParse(delivery.subjectKind.replace(/^lead:/, ''));
    if (!kind.success) return undefined;
    const lead = await findLead(app.db, kind.data, Number(delivery.subjectId));
    return lead && { kind: kind.data, lead };
  }

  const promise = (type: WebhookEventType, subjectKind: string, subjectId: string | number) =>
    subscribed.has(type) ? fanOut.request({ eventId: `evt_${randomUUID()}`, type, subjectKind, subjectId: String(subjectId), at: Date.now() }) : undefined;
  app.events.react('lead.created', ({ kind, lead }) => promise('lead.created', `lead:${kind}`, lead.id));
  app.events.react('lead.updated', ({ kind, lead }) => promise('lead.updated', `lead:${kind}`, lead.id));
  app.events.react('chat.message.created', ({ message }) => promise('chat.message', 'chat-message', message.id));

  /**
   * After a subscription changed: this node reads them again, and so does every other (through the
   * Socket.IO adapter), which answers once it has. The change's request answers after that, so an
   * event committed on any node after it is seen by the new subscription (or no longer by a removed one).
   */
  const changed = async () => {
    await subscribed.refresh(app);
    if (!app.redis) return;
    try {
      await app.visitorSockets.serverSideEmitWithAck(subscriptionsChangedEvent);
    } catch (error) {
      // A node too slow to answer (the adapter waits 5 s) still reads them when it gets the message.
      app.log.warn({ err: error }, 'not every node confirmed reading the webhook subscriptions in time');
    }
  };
  if (app.redis) {
    app.visitorSockets.on(subscriptionsChangedEvent, (answer: (read: boolean) => void) => {
      subscribed.refresh(app).then(
        () => answer(true),
        (error: unknown) => {
          app.log.error({ err: error }, 'webhook subscriptions not read');
          answer(false);
        },
      );
    });
  }
  app.addHook('onReady', () => subscribed.refresh(app));

  async function checkUrl(url: string): Promise<void> {
    try {
      await checkWebhookUrl(new URL(url), options.allowPrivate);
    } catch (error) {
      if (error instanceof WebhookAddressError) throw new HttpError(400, error.message, { url: error.message });
      throw error;
    }
  }

  return {
    async list(): Promise<Webhook[]> {
      return (await repository.listWebhooks(app.db)).map(toWebhook);
    },

    async create(actorId: number, input: { url: string; events: WebhookInput['events'] }): Promise<CreatedWebhook> {
      await checkUrl(input.url);
      const secret = `whsec_${randomBytes(32).toString('hex')}`;
      const row = await app.write(async (tx) => {
        const created = await repository.insertWebhook(tx.db, { url: input.url, events: JSON.stringify(input.events), secret, createdAt: Date.now() });
        await recordAudit(tx, { actorId, action: 'webhook.changed', subject: { kind: 'webhook', id: created.id }, detail: 'subscribed' });
        return created;
      });
      await changed();
      return { ...toWebhook(row), secret };
    },

    async remove(actorId: number, id: number): Promise<void> {
      const removed = await app.write(async (tx) => {
        const done = await repository.deleteWebhook(tx.db, id);
        if (done) await recordAudit(tx, { actorId, action: 'webhook.changed', subject: { kind: 'webhook', id }, detail: 'removed' });
        return done;
      });
      if (!removed) throw new HttpError(404, 'Webhook not found');
      await changed();
    },

    /** Sends a test event to one subscription, as a delivery of its own (listed, retried, like any). */
    async sendTest(actorId: number, id: number): Promise<{ deliveryId: string }> {
      return app.write(async (tx) => {
        const webhook = await repository.findWebhook(tx.db, id);
        if (!webhook) throw new HttpError(404, 'Webhook not found');
        const eventId = `evt_${randomUUID()}`;
        const row: repository.DeliveryRow = {
          ...deliveryRow(id, { eventId, type: 'lead.created', subjectKind: 'test', subjectId: eventId, at: Date.now() }),
          eventType: webhookTestEventType,
        };
        await repository.addDeliveries(tx.db, [row]);
        await recordAudit(tx, { actorId, action: 'webhook.test-sent', subject: { kind: 'webhook', id } });
        tx.enqueue(deliver.request({ deliveryId: row.id }));
        return { deliveryId: row.id };
      });
    },

    async deliveries(id: number): Promise<WebhookDelivery[]> {
      if (!(await repository.findWebhook(app.db, id))) throw new HttpError(404, 'Webhook not found');
      const rows = await repository.listDeliveries(app.db, id, deliveriesListed);
      return rows.map((row) => ({
        id: row.id,
        eventId: row.eventId,
        eventType: row.eventType,
        eventAt: iso(row.eventAt),
        deliveredAt: row.deliveredAt === null ? null : iso(row.deliveredAt),
        attempts: row.attempts.map((attempt) => ({ at: iso(attempt.at), statusCode: attempt.statusCode, error: attempt.error, durationMs: attempt.durationMs })),
      }));
    },
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
