// @scaled: conversation creation races (unique violation on PostgreSQL)
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../../../test/support/database';
import { EventBus } from '../../../events/bus';
import { createWrite } from '../../../events/write';
import { transactionsFor } from '../../../../db/writes';
import type { ChatMessage } from '../../../contract/chat';
import { ChatService } from './chat.service';

describe('ChatService writes', async () => {
  const db = await testDatabase('chat-service');
  const pushed: ChatMessage[] = [];
  const bus = new EventBus();
  bus.on('chat.message.created', ({ message }) => void pushed.push(message));
  const chat = new ChatService(db, createWrite({ transactions: transactionsFor(db), bus }));
  const visitor = { visitorId: 'visitor-one' };

  it('waits for a transaction that holds the connection, and keeps the message when that one rolls back', async () => {
    let send: Promise<unknown> | undefined;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('admins').values({ email: 'undone@lotwise.example', passwordHash: 'hash', createdAt: new Date().toISOString() }).execute();
        send = chat.sendVisitorMessage(visitor, { sessionId: 'session_waits', message: 'Sent during a sign-in', clientId: 'c1' });
        await new Promise((resolve) => setTimeout(resolve, 30));
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    await expect(send).resolves.toMatchObject({ created: true, message: { message: 'Sent during a sign-in' } });

    const { messages } = await chat.visitorHistory(visitor.visitorId, 'session_waits');
    expect(messages.map((message) => message.message)).toEqual(['Sent during a sign-in']);
    expect(await db.selectFrom('admins').select('email').where('email', '=', 'undone@lotwise.example').execute()).toEqual([]);
    expect(pushed.map((message) => message.clientId)).toEqual(['c1']);
  });

  it('commits a burst in shared transactions: every message stored once, a refusal spoiling none of the others', async () => {
    const sends = Array.from({ length: 30 }, (_, index) =>
      chat.sendVisitorMessage(index === 7 ? { visitorId: 'stranger' } : visitor, { sessionId: 'session_waits', message: `Burst ${index}`, clientId: `b${index}` }),
    );
    const outcomes = await Promise.allSettled(sends);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(1);
    expect(outcomes[7]).toMatchObject({ status: 'rejected', reason: { statusCode: 404 } });

    const { messages } = await chat.visitorHistory(visitor.visitorId, 'session_waits');
    expect(messages).toHaveLength(30);
    expect(new Set(messages.map((message) => message.clientId)).size).toBe(30);
  });

  it("moves a session to the top of the staff inbox with each visitor message", async () => {
    const other = { visitorId: 'visitor-two' };
    await chat.sendVisitorMessage(visitor, { sessionId: 'session_first', message: 'First here' });
    await chat.sendVisitorMessage(other, { sessionId: 'session_second', message: 'Second here' });
    // Timestamps have millisecond steps: let the clock move so the order cannot come from a tie.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { message: latest } = await chat.sendVisitorMessage(visitor, { sessionId: 'session_first', message: 'Back again' });

    const inbox = await chat.sessions({ limit: 3, assignee: 'all' }, 1);
    expect(inbox.map((session) => session.id).slice(0, 2)).toEqual(['session_first', 'session_second']);
    expect(inbox[0]).toMatchObject({ lastActivity: latest.createdAt, lastMessage: 'Back again' });
  });
});
