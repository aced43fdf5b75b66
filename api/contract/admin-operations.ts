import { z } from 'zod';
import { emailField } from './common';

/**
 * The admins' operating screens (issue 26): webhooks, data requests, dead jobs. Paths, bodies and
 * answers, shared by the server's routes and web/features/admin/operations.
 */
export const operationsPaths = {
  webhooks: '/api/admin/webhooks',
  webhook: '/api/admin/webhooks/:id',
  webhookTest: '/api/admin/webhooks/:id/test',
  webhookDeliveries: '/api/admin/webhooks/:id/deliveries',
  dataExport: '/api/admin/data-requests/export',
  dataErase: '/api/admin/data-requests/erase',
  deadJobs: '/api/admin/jobs/dead',
  jobRetry: '/api/admin/jobs/:id/retry',
} as const;

/** What a receiver can subscribe to: each is the domain event of the same meaning. */
export const webhookEventTypes = ['lead.created', 'lead.updated', 'chat.message'] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
/** The type of the body the "send test event" button sends. */
export const webhookTestEventType = 'webhook.test';

/** The signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (README: Webhooks). */
export const webhookSignatureHeader = 'x-lotwise-signature';
/** The delivery's id, the same on every retry: a receiver that saw it already ignores it. */
export const webhookDeliveryHeader = 'x-lotwise-delivery';
export const webhookEventHeader = 'x-lotwise-event';

export const webhookUrlMessage = 'Enter an https:// URL';
export const webhookEventsMessage = 'Choose at least one event';

export const webhookInputSchema = z.object({
  url: z.string({ error: webhookUrlMessage }).trim().min(1, webhookUrlMessage).max(2000, 'The URL is too long').pipe(z.url({ protocol: /^https?$/, error: webhookUrlMessage })),
  events: z
    .array(z.enum(webhookEventTypes, { error: `Events are ${webhookEventTypes.join(', ')}` }))
    .min(1, webhookEventsMessage)
    .max(webhookEventTypes.length)
    .transform((events) => [...new Set(events)]),
});
export type WebhookInput = z.input<typeof webhookInputSchema>;

/**
 * How a subscription's receiver is doing: empty while it answers 2xx. One that fails is paused (no
 * delivery to it is tried before `pausedUntil`; they wait without spending a try), longer after each
 * failure in a row; `lastFailure` is a short class (timeout, refused, dns, tls, http-status 503 ...).
 */
export const webhookReceiverSchema = z.object({
  failingSince: z.string().nullable(),
  pausedUntil: z.string().nullable(),
  failures: z.number().int(),
  lastFailure: z.string().nullable(),
});
export type WebhookReceiverState = z.infer<typeof webhookReceiverSchema>;

export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(webhookEventTypes)),
  createdAt: z.string(),
  receiver: webhookReceiverSchema,
});
export type Webhook = z.infer<typeof webhookSchema>;
/** The answer to a subscription: the only time its secret is shown. */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const idParamsSchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const webhookAttemptSchema = z.object({
  at: z.string(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});
export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  eventAt: z.string(),
  deliveredAt: z.string().nullable(),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const dataRequestSchema = z.object({ email: emailField });
export type DataRequest = z.infer<typeof dataRequestSchema>;

/** What an erasure removed, by table (and outbox mails): counts only. */
export const erasureCountsSchema = z.record(z.string(), z.number().int());
export type ErasureCounts = z.infer<typeof erasureCountsSchema>;
export const erasureResultSchema = z.object({ email: z.string(), erased: erasureCountsSchema });
export type ErasureResult = z.infer<typeof erasureResultSchema>;

/** Everything stored for one email: rows by table (as stored), and the outbox mails by file name. */
export const dataExportSchema = z.object({
  email: z.string(),
  exportedAt: z.string(),
  tables: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
  outbox: z.array(z.object({ file: z.string(), content: z.string() })),
});
export type DataExport = z.infer<typeof dataExportSchema>;

export const deadJobSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  diedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type DeadJob = z.infer<typeof deadJobSchema>;
