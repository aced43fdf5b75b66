import type { Db } from '../../../../db/client';

/** A note with its author's account (null fields once the account is gone). */
export interface AuthoredNoteRow {
  id: number;
  sessionId: string;
  text: string;
  authorStaffId: number | null;
  createdAt: string;
  authorEmail: string | null;
  authorDisplayName: string | null;
}

const withAuthor = (db: Db) =>
  db
    .selectFrom('chatNotes')
    .leftJoin('admins', 'admins.id', 'chatNotes.authorStaffId')
    .select([
      'chatNotes.id',
      'chatNotes.sessionId',
      'chatNotes.text',
      'chatNotes.authorStaffId',
      'chatNotes.createdAt',
      'admins.email as authorEmail',
      'admins.displayName as authorDisplayName',
    ]);

/** A session's notes, oldest first. */
/** Whether a conversation exists (its notes are asked for by id). */
export async function sessionExists(db: Db, sessionId: string): Promise<boolean> {
  return (await db.selectFrom('chatSessions').select('id').where('id', '=', sessionId).executeTakeFirst()) !== undefined;
}

export function listNotes(db: Db, sessionId: string): Promise<AuthoredNoteRow[]> {
  return withAuthor(db).where('chatNotes.sessionId', '=', sessionId).orderBy('chatNotes.id').execute();
}

/** Adds a note to a session that exists; undefined when there is no such session. */
export async function insertNote(db: Db, note: { sessionId: string; text: string; authorStaffId: number; createdAt: string }): Promise<AuthoredNoteRow | undefined> {
  const session = await db.selectFrom('chatSessions').select('id').where('id', '=', note.sessionId).executeTakeFirst();
  if (!session) return undefined;
  const { id } = await db.insertInto('chatNotes').values(note).returning('id').executeTakeFirstOrThrow();
  return withAuthor(db).where('chatNotes.id', '=', id).executeTakeFirstOrThrow();
}
