import type { Db } from '../../../db/client';
import { lockedForUpdate } from '../../../db/query-helpers';

export interface AssigneeRow {
  id: number;
  email: string;
  displayName: string | null;
  role: string;
}

/** Every active staff account, for the assignee picker (a deactivated one is given nothing new). */
export function listAssigneeRows(db: Db): Promise<AssigneeRow[]> {
  return db.selectFrom('admins').select(['id', 'email', 'displayName', 'role']).where('deactivatedAt', 'is', null).orderBy('id').execute();
}

export function findAssigneeRow(db: Db, id: number): Promise<AssigneeRow | undefined> {
  return db.selectFrom('admins').select(['id', 'email', 'displayName', 'role']).where('id', '=', id).where('deactivatedAt', 'is', null).executeTakeFirst();
}

/** A setting's stored JSON; undefined when never saved. */
export async function readSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/**
 * A setting's stored JSON, its row locked until the caller's write ends (PostgreSQL): every write
 * that reads it so waits for the one before it to commit, which is how auto-assignment's writes on
 * several nodes take turns.
 */
export async function readSettingLocked(db: Db, key: string): Promise<string | undefined> {
  const row = await lockedForUpdate(db, db.selectFrom('settings').select('value').where('key', '=', key)).executeTakeFirst();
  return row?.value;
}

export async function writeSetting(db: Db, key: string, value: string, at: number): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value, updatedAt: at })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updatedAt: at }))
    .execute();
}
