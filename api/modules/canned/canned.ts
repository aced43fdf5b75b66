import { type CannedReply, type CannedReplyInput, cannedReplyLimitMessage, cannedReplyLimits, cannedReplyNotFoundMessage } from '../../contract/team-inbox-notes';
import type { CannedReplyRow } from '../../../db/schema';
import type { Db } from '../../../db/client';
import type { Write } from '../../events';
import { HttpError } from '../../plugins/errors';
import { recordAudit } from '../audit';
import * as repository from './canned.repository';

const toCannedReply = (row: CannedReplyRow): CannedReply => ({ id: row.id, title: row.title, text: row.text, createdAt: row.createdAt, updatedAt: row.updatedAt });
const subject = (id: number) => ({ kind: 'canned-reply', id });

/**
 * The team's canned replies (DESIGN.md 11): any staff member reads them to answer with; admins write
 * them (a team's shared words, changed by the people who set the team's rules), each change audited.
 */
export class CannedReplies {
  constructor(
    private readonly db: Db,
    private readonly write: Write,
  ) {}

  async list(): Promise<CannedReply[]> {
    return (await repository.listCannedReplies(this.db)).map(toCannedReply);
  }

  create(actorId: number, input: Required<CannedReplyInput>): Promise<CannedReply> {
    return this.write(async (tx) => {
      if ((await repository.countCannedReplies(tx.db)) >= cannedReplyLimits.maxCount) throw new HttpError(409, cannedReplyLimitMessage);
      const row = await repository.insertCannedReply(tx.db, { ...input, at: new Date().toISOString() });
      await recordAudit(tx, { actorId, action: 'canned-reply.created', subject: subject(row.id) });
      return toCannedReply(row);
    });
  }

  update(actorId: number, id: number, input: Required<CannedReplyInput>): Promise<CannedReply> {
    return this.write(async (tx) => {
      const row = await repository.updateCannedReply(tx.db, id, { ...input, at: new Date().toISOString() });
      if (!row) throw new HttpError(404, cannedReplyNotFoundMessage);
      await recordAudit(tx, { actorId, action: 'canned-reply.updated', subject: subject(id) });
      return toCannedReply(row);
    });
  }

  remove(actorId: number, id: number): Promise<void> {
    return this.write(async (tx) => {
      if (!(await repository.deleteCannedReply(tx.db, id))) throw new HttpError(404, cannedReplyNotFoundMessage);
      await recordAudit(tx, { actorId, action: 'canned-reply.deleted', subject: subject(id) });
    });
  }
}
