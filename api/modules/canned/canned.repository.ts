import type { Db } from '../../../db/client';
import type { CannedReplyRow } from '../../../db/schema';

export function listCannedReplies(db: Db): Promise<CannedReplyRow[]> {
  return db.selectFrom('cannedReplies').selectAll().orderBy('title').orderBy('id').execute();
}

export async function countCannedReplies(db: Db): Promise<number> {
  const { count } = await db.selectFrom('cannedReplies').select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
  return Number(count);
}

export function insertCannedReply(db: Db, reply: { title: string; text: string; at: string }): Promise<CannedReplyRow> {
  return db
    .insertInto('cannedReplies')
    .values({ title: reply.title, text: reply.text, createdAt: reply.at, updatedAt: reply.at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Undefined when there is no such reply. */
export function updateCannedReply(db: Db, id: number, reply: { title: string; text: string; at: string }): Promise<CannedReplyRow | undefined> {
  return db.updateTable('cannedReplies').set({ title: reply.title, text: reply.text, updatedAt: reply.at }).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Whether there was such a reply. */
export async function deleteCannedReply(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('cannedReplies').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
