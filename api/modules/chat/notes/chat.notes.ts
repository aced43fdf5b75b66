import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { staffDisplayName } from '../../../contract/auth';
import { chatSessionNotFoundMessage, chatSessionParamsSchema } from '../../../contract/chat';
import { errorBodySchema } from '../../../contract/common';
import { apiPaths } from '../../../contract/paths';
import { type ChatNote, chatNoteInputSchema, chatNoteRecord } from '../../../contract/team-inbox-notes';
import type { Db } from '../../../../db/client';
import type { Write } from '../../../events';
import { signedInStaffId } from '../../../plugins/auth';
import { HttpError } from '../../../plugins/errors';
import { type AuthoredNoteRow, insertNote, listNotes, sessionExists } from './chat.notes.repository';

function toChatNote(row: AuthoredNoteRow): ChatNote {
  return {
    id: row.id,
    sessionId: row.sessionId,
    text: row.text,
    authorStaffId: row.authorStaffId,
    authorName: row.authorEmail === null ? null : staffDisplayName({ email: row.authorEmail, displayName: row.authorDisplayName }),
    createdAt: row.createdAt,
  };
}

/**
 * Private notes (DESIGN.md 11): staff-only lines in a conversation, in a table of their own. Nothing
 * here is reachable without a staff session, and no visitor path reads `chat_notes`.
 */
export class ChatNotes {
  constructor(
    private readonly db: Db,
    private readonly write: Write,
  ) {}

  async list(sessionId: string): Promise<ChatNote[]> {
    if (!(await sessionExists(this.db, sessionId))) throw new HttpError(404, chatSessionNotFoundMessage);
    return (await listNotes(this.db, sessionId)).map(toChatNote);
  }

  add(staffId: number, sessionId: string, text: string): Promise<ChatNote> {
    return this.write(async (tx) => {
      const row = await insertNote(tx.db, { sessionId, text, authorStaffId: staffId, createdAt: new Date().toISOString() });
      if (!row) throw new HttpError(404, chatSessionNotFoundMessage);
      const note = toChatNote(row);
      tx.emit({ type: 'chat.note.created', note });
      return note;
    });
  }
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** The notes' REST calls, in the cookie session's scope (staffChatRoutes registers them). */
export async function chatNoteRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const notes = new ChatNotes(app.db, app.write);

  app.get(
    apiPaths.chatNotes,
    { onRequest: app.requireStaff, schema: { params: chatSessionParamsSchema, response: { 200: z.array(chatNoteRecord), ...errors } } },
    async (request) => notes.list(request.params.sessionId),
  );

  app.post(
    apiPaths.chatNotes,
    { onRequest: app.requireStaff, schema: { params: chatSessionParamsSchema, body: chatNoteInputSchema, response: { 201: chatNoteRecord, ...errors } } },
    async (request, reply) => reply.code(201).send(await notes.add(signedInStaffId(request.session), request.params.sessionId, request.body.text)),
  );
}

/** A note goes to the `/admin` namespace alone: staff sockets, on every node; never a visitor's room. */
export function pushChatNotes(app: FastifyInstance): void {
  app.events.on('chat.note.created', ({ note }) => {
    app.staffSockets.emit('chat:note', note);
  });
}
