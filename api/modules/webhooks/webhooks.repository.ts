import type { Selectable } from 'kysely';
import type { Db } from '../../../db/client';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../../../db/schema';
import { insertReturning } from '../../../db/insert-returning';

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

export function insertWebhook(db: Db, values: { url: string; events: string; secret: string; createdAt: number }): Promise<WebhookRow> {
  return insertReturning(db, 'webhooks', values);
}

export function listWebhooks(db: Db): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().orderBy('id').execute();
}

export function findWebhook(db: Db, id: number): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Removes a subscription with its deliveries and their attempts; false when there was none. */
export async function deleteWebhook(db: Db, id: number): Promise<boolean> {
  const deliveries = db.selectFrom('webhookDeliveries').select('id').where('webhookId', '=', id);
  await db.deleteFrom('webhookAttempts').where('deliveryId', 'in', deliveries).execute();
  await db.deleteFrom('webhookDeliveries').where('webhookId', '=', id).execute();
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The deliveries of one event to each subscription, once: those added by an earlier run are left out of the answer. */
export async function addDeliveries(db: Db, deliveries: readonly Selectable<WebhookDeliveriesTable>[]): Promise<DeliveryRow[]> {
  const added: DeliveryRow[] = [];
  for (const delivery of deliveries) {
    const result = await db
      .insertInto('webhookDeliveries')
      .values(delivery)
      .onConflict((conflict) => conflict.columns(['eventId', 'webhookId']).doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0n) > 0) added.push(delivery);
  }
  return added;
}

export function findDelivery(db: Db, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhookDeliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function recordAttempt(db: Db, attempt: Omit<AttemptRow, 'id'>, deliveredAt: number | null): Promise<void> {
  await db.insertInto('webhookAttempts').values(attempt).execute();
  if (deliveredAt !== null) await db.updateTable('webhookDeliveries').set({ deliveredAt }).where('id', '=', attempt.deliveryId).execute();
}

/** A subscription's newest deliveries with their attempts, oldest attempt first. */
export async function listDeliveries(db: Db, webhookId: number, limit: number): Promise<(DeliveryRow & { attempts: AttemptRow[] })[]> {
  const deliveries = await db
    .selectFrom('webhookDeliveries')
    .selectAll()
    .where('webhookId', '=', webhookId)
    .orderBy('eventAt', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  if (deliveries.length === 0) return [];
  const attempts = await db
    .selectFrom('webhookAttempts')
    .selectAll()
    .where(
      'deliveryId',
      'in',
      deliveries.map((delivery) => delivery.id),
    )
    .orderBy('at')
    .orderBy('id')
    .execute();
  return deliveries.map((delivery) => ({ ...delivery, attempts: attempts.filter((attempt) => attempt.deliveryId === delivery.id) }));
}

/** A chat message as a `chat.message` delivery sends it: what it says, who wrote it, in which session. */
export function findChatMessage(db: Db, id: number) {
  return db
    .selectFrom('chatMessages')
    .select(['id', 'sessionId', 'seq', 'kind', 'message', 'senderName', 'senderEmail', 'createdAt'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * A subscription whose receiver is failing lets one delivery try at a time: this one takes the try
 * (the pause moves to `until`, past the try's time limit) when the pause is over and nobody took it.
 */
export async function takeTry(db: Db, id: number, now: number, until: number): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set({ pausedUntil: until })
    .where('id', '=', id)
    .where('failingSince', 'is not', null)
    .where((eb) => eb.or([eb('pausedUntil', 'is', null), eb('pausedUntil', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The receiver answered 2xx: it is healthy again. */
export async function markReceiverHealthy(db: Db, id: number): Promise<void> {
  await db.updateTable('webhooks').set({ failingSince: null, pausedUntil: null, failures: 0, lastFailure: null }).where('id', '=', id).where('failures', '>', 0).execute();
}

/** The receiver failed a try: paused until `pausedUntil`, one more failure in a row, failing since its first. */
export async function markReceiverFailing(db: Db, id: number, failure: { at: number; pausedUntil: number; failureClass: string }): Promise<void> {
  await db
    .updateTable('webhooks')
    .set((eb) => ({
      failingSince: eb.fn.coalesce('failingSince', eb.val(failure.at)),
      pausedUntil: failure.pausedUntil,
      failures: eb('failures', '+', 1),
      lastFailure: failure.failureClass,
    }))
    .where('id', '=', id)
    .execute();
}
