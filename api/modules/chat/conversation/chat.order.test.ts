// @scaled: message numbering under concurrent writers
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../../db/client';
import { onPostgres, testDatabase } from '../../../../test/support/database';
import { writeOutsideTheApp } from '../../../events';
import * as repository from './chat.repository';
import { ChatService } from './chat.service';

describe('per-session message order (seq)', async () => {
  const db = await testDatabase('chat-order');
  const chat = new ChatService(db, writeOutsideTheApp(db));
  const visitor = { visitorId: 'visitor-order' };
  const now = () => new Date().toISOString();
  const { id: staffId } = await db.insertInto('admins').values({ email: 'order@lotwise.example', passwordHash: 'hash', createdAt: now() }).returning('id').executeTakeFirstOrThrow();
  const staff = { staffId };

  it('numbers each session’s messages 1, 2, 3 whichever way they came, and a retried send keeps its number', async () => {
    await chat.sendVisitorMessage(visitor, { sessionId: 'session_numbered', message: 'One', clientId: 'n1' });
    await chat.replyAsStaff(staff, { sessionId: 'session_numbered', message: 'Two' });
    await chat.sendVisitorMessage(visitor, { sessionId: 'session_numbered', message: 'Three', clientId: 'n3' });
    const retried = await chat.sendVisitorMessage(visitor, { sessionId: 'session_numbered', message: 'Three', clientId: 'n3' });
    await chat.sendVisitorMessage(visitor, { sessionId: 'session_numbered', message: 'Four', clientId: 'n4' });
    await chat.sendVisitorMessage({ visitorId: 'someone-else' }, { sessionId: 'session_elsewhere', message: 'Other', clientId: 'n1' });

    expect(retried).toMatchObject({ created: false, message: { seq: 3 } });
    const history = await chat.staffHistory('session_numbered');
    expect(history.map((message) => [message.seq, message.message])).toEqual([
      [1, 'One'],
      [2, 'Two'],
      [3, 'Three'],
      [4, 'Four'],
    ]);
    expect((await chat.staffHistory('session_elsewhere')).map((message) => message.seq)).toEqual([1]);
  });

  it('counts unread visitor messages by seq: a staff reply or marking read clears them, a new one counts', async () => {
    const sessionId = 'session_unread_by_seq';
    await chat.sendVisitorMessage(visitor, { sessionId, message: 'Hello?' });
    await chat.sendVisitorMessage(visitor, { sessionId, message: 'Anyone there?' });
    expect(await chat.session(sessionId)).toMatchObject({ unreadCount: 2, lastMessageSeq: 2 });
    await chat.patchSession(sessionId, { read: true });
    expect(await chat.session(sessionId)).toMatchObject({ unreadCount: 0 });
    await chat.sendVisitorMessage(visitor, { sessionId, message: 'Still here' });
    expect(await chat.session(sessionId)).toMatchObject({ unreadCount: 1, lastMessage: 'Still here', lastMessageSeq: 3 });
    const reply = await chat.replyAsStaff(staff, { sessionId, message: 'Sorry for the wait' });
    expect(await chat.session(sessionId)).toMatchObject({ unreadCount: 0, lastMessageSeq: 4, lastMessageId: reply.message.id });
  });

  // On SQLite every write is one after the other on the one connection: there is no overlap to order.
  it.skipIf(!onPostgres)('a message committed after another is seen by a catch-up after the first one’s seq (PostgreSQL, two open transactions)', async () => {
    const sessionId = 'session_concurrent';
    const { message: opening } = await chat.sendVisitorMessage(visitor, { sessionId, message: 'Opening' });
    const store = async (trx: Db, text: string) => {
      const stored = await repository.storeMessage(
        trx,
        { sessionId, message: text, senderEmail: null, senderName: null, isFromUser: 1, kind: 'visitor', clientId: null, createdAt: now() },
        { by: 'visitor', visitorId: visitor.visitorId, senderEmail: null },
      );
      if (!stored) throw new Error('the session is the visitor’s: the message must be stored');
      return stored;
    };

    // Transaction A stores its message and stays open; B starts meanwhile on another connection.
    let commitA: () => void = () => undefined;
    const aMayCommit = new Promise<void>((resolve) => (commitA = resolve));
    let aStored: (seq: number) => void = () => undefined;
    const aSeq = new Promise<number>((resolve) => (aStored = resolve));
    const a = db.transaction().execute(async (trx) => {
      const { row } = await store(trx, 'From process A');
      aStored(row.seq);
      await aMayCommit;
      return row;
    });
    await aSeq;
    const b = db.transaction().execute(async (trx) => (await store(trx, 'From process B')).row);

    // A reader catching up now sees neither: its cursor stays at the opening message.
    const cursor = Math.max(...(await chat.staffHistory(sessionId)).map((message) => message.seq));
    expect(cursor).toBe(opening.seq);

    commitA();
    const [rowA, rowB] = await Promise.all([a, b]);
    // B waited for A's lock on the session: its seq is after A's, whatever the ids.
    expect(rowB.seq).toBe(rowA.seq + 1);
    const caughtUp = (await chat.staffHistory(sessionId)).filter((message) => message.seq > cursor);
    expect(caughtUp.map((message) => message.message)).toEqual(['From process A', 'From process B']);
    expect(await chat.session(sessionId)).toMatchObject({ unreadCount: 3, lastMessageSeq: rowB.seq, messageCount: 3 });
  });

  it.skipIf(!onPostgres)('a resend racing its original stores one message: the resend waits for the session, then answers the first row (PostgreSQL)', async () => {
    const sessionId = 'session_racing_resend';
    await chat.sendVisitorMessage(visitor, { sessionId, message: 'Opening', clientId: 'race-0' });
    const draft = { sessionId, message: 'Are you there?', senderEmail: null, senderName: null, isFromUser: 1, kind: 'visitor' as const, clientId: 'race-1', createdAt: now() };

    // The original is stored in a transaction that stays open, holding the session row.
    let commitOriginal: () => void = () => undefined;
    const originalMayCommit = new Promise<void>((resolve) => (commitOriginal = resolve));
    let originalStored: () => void = () => undefined;
    const storedOnce = new Promise<void>((resolve) => (originalStored = resolve));
    const original = db.transaction().execute(async (trx) => {
      const stored = await repository.storeMessage(trx, draft, { by: 'visitor', visitorId: visitor.visitorId, senderEmail: null });
      originalStored();
      await originalMayCommit;
      return stored!.row;
    });
    await storedOnce;
    // The resend (the widget's retry, on another node) goes the common path: one statement, which waits for the row.
    const resend = chat.sendVisitorMessage(visitor, { sessionId, message: draft.message, clientId: 'race-1' });
    const waiting = async () => (await sql<{ count: number }>`select count(*)::int as count from pg_locks where not granted`.execute(db)).rows[0]!.count;
    while ((await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 10));

    commitOriginal();
    const [originalRow, resent] = await Promise.all([original, resend]);
    expect(resent).toMatchObject({ created: false, message: { id: originalRow.id, seq: 2 } });
    expect((await chat.staffHistory(sessionId)).map((message) => [message.seq, message.message])).toEqual([
      [1, 'Opening'],
      [2, 'Are you there?'],
    ]);
    expect(await chat.session(sessionId)).toMatchObject({ lastMessageSeq: 2, messageCount: 2 });
  });
});
