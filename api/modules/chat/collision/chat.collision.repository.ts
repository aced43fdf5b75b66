import type { Db } from '../../../../db/client';

/** A staff member's email and chosen name, as collision shows them to colleagues. */
export function findViewerAccount(db: Db, staffId: number) {
  return db.selectFrom('admins').select(['email', 'displayName']).where('id', '=', staffId).executeTakeFirst();
}
