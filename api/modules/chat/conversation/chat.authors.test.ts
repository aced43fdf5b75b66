// @scaled: message inserts chain writes on PostgreSQL (chainsWrites)
import { afterEach, describe, expect, it } from 'vitest';
import type { StaffChatMessage } from '../../../contract/chat';
import { signInNewStaff, type StaffSignIn } from '../../../../test/support/factories';
import { buildTestServer, cookiesFrom } from '../../../../test/support/helper';
import { closeClients, collect, connected } from '../../../../test/support/sockets';
import { connectStaffSocket } from '../../../../test/support/staff-socket';
import { pause, visitorClient, visitorCookie } from '../../../../test/support/visitor-socket';

/**
 * What a visitor is shown of any message: the spec's fields and the kind; of who on the staff wrote
 * it, only the display name they chose (`staffName`, DESIGN.md 11), never an id or an email.
 */
const visitorFields = ['clientId', 'createdAt', 'id', 'isFromUser', 'kind', 'message', 'senderEmail', 'senderName', 'seq', 'sessionId'];

afterEach(() => closeClients());

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 5000) throw new Error(`still waiting for ${what}`);
    await pause(20);
  }
}

describe('chat messages have authors', async () => {
  const { app } = await buildTestServer({}, { listen: true });

  /** A signed-in staff member with the account's id and email, and a display name if given. */
  const staffMember = async (displayName?: string) => {
    const signIn: StaffSignIn = await signInNewStaff(app);
    const { adminId } = await app.db.selectFrom('sessions').select('adminId').where('sid', '=', signIn.sid).executeTakeFirstOrThrow();
    const account = await app.db.selectFrom('admins').select(['id', 'email']).where('id', '=', adminId).executeTakeFirstOrThrow();
    if (displayName) await app.db.updateTable('admins').set({ displayName }).where('id', '=', account.id).execute();
    return { ...signIn, id: account.id, email: account.email };
  };

  /** Says whether a payload a visitor received names any staff member, by email, display name or id field. */
  const namesStaff = (payload: unknown, staff: { email: string }[], names: string[]) => {
    const text = JSON.stringify(payload);
    return [...staff.map((member) => member.email), ...names, 'authorStaffId', 'authorName'].some((word) => text.includes(word));
  };

  it('records who replied over REST and over the socket; staff reads and pushes carry kind and author, the visitor sees the spec’s fields, the kind and a display name the author chose', async () => {
    const anna = await staffMember('Anna');
    const ben = await staffMember();
    const benName = ben.email.slice(0, ben.email.indexOf('@'));
    const benSocket = await connectStaffSocket(app, ben.cookie);
    const atStaff = collect<StaffChatMessage>(benSocket, 'chat:message');

    const cookie = visitorCookie(app);
    const visitor = visitorClient(app, cookie);
    await connected(visitor);
    const atVisitor = collect<Record<string, unknown>>(visitor, 'chat:message');
    const sessionId = `session_${Date.now()}_authors`;
    const sent = (await visitor.emitWithAck('chat:send', { sessionId, message: 'Is the Civic still there?' })) as { ok: true; message: object };
    expect(sent.ok).toBe(true);
    expect(Object.keys(sent.message).sort()).toEqual(visitorFields);
    expect(sent.message).toMatchObject({ kind: 'visitor', isFromUser: true });

    const byRest = await app.inject({ method: 'POST', url: '/api/admin-chat-reply', headers: { cookie: anna.cookie }, payload: { sessionId, message: 'It is!', clientId: 'anna-1' } });
    expect(byRest.statusCode).toBe(201);
    expect(byRest.json()).toMatchObject({ kind: 'staff', isFromUser: false, authorStaffId: anna.id, authorName: 'Anna', senderEmail: null, senderName: null });
    const bySocket = await benSocket.emitWithAck('chat:reply', { sessionId, message: 'Want a test drive?' });
    expect(bySocket).toMatchObject({ ok: true, message: { kind: 'staff', isFromUser: false, authorStaffId: ben.id, authorName: benName } });
    // A retry of Anna's reply, whoever sends it, is Anna's reply as stored.
    const retried = await app.inject({ method: 'POST', url: '/api/admin-chat-reply', headers: { cookie: ben.cookie }, payload: { sessionId, message: 'It is!', clientId: 'anna-1' } });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ id: byRest.json<StaffChatMessage>().id, authorStaffId: anna.id, authorName: 'Anna' });

    const stored = await app.db.selectFrom('chatMessages').select(['kind', 'authorStaffId']).where('sessionId', '=', sessionId).orderBy('seq').execute();
    expect(stored).toEqual([
      { kind: 'visitor', authorStaffId: null },
      { kind: 'staff', authorStaffId: anna.id },
      { kind: 'staff', authorStaffId: ben.id },
    ]);

    const authors = (messages: StaffChatMessage[]) => messages.map((message) => [message.message, message.kind, message.authorStaffId, message.authorName]);
    const expected = [
      ['Is the Civic still there?', 'visitor', null, null],
      ['It is!', 'staff', anna.id, 'Anna'],
      ['Want a test drive?', 'staff', ben.id, benName],
    ];
    await until(() => atStaff.length === 3, 'three pushes to staff');
    expect(authors(atStaff)).toEqual(expected);
    const staffHistory = await app.inject({ method: 'GET', url: `/api/chat-messages/${sessionId}`, headers: { cookie: anna.cookie } });
    expect(authors(staffHistory.json<StaffChatMessage[]>())).toEqual(expected);
    const everyMessage = await app.inject({ method: 'GET', url: '/api/chat-messages?limit=3', headers: { cookie: anna.cookie } });
    expect(authors(everyMessage.json<StaffChatMessage[]>()).reverse()).toEqual(expected);

    // The visitor: the two replies pushed (their own send is acked instead), the poll, a join, a REST send.
    await until(() => atVisitor.length === 2, 'two replies pushed to the visitor');
    const pushed = atVisitor.slice(0, 2);
    const poll = await app.inject({ method: 'GET', url: `/api/chat-messages/${sessionId}`, headers: { cookie } });
    const joined = (await visitor.emitWithAck('chat:join', { sessionId })) as { ok: true; messages: object[] };
    const restSend = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie }, payload: { sessionId, message: 'Yes please' } });
    expect(restSend.statusCode).toBe(201);
    const resynced = await app.inject({ method: 'GET', url: `/api/chat-visitor/sessions/${sessionId}?afterSeq=0`, headers: { cookie } });
    const socketResync = (await visitor.emitWithAck('chat:resync', { sessionId, afterSeq: 0 })) as { ok: true; messages: object[] };
    type Seen = Record<string, unknown>;
    const histories = [poll.json<Seen[]>(), joined.messages as Seen[], resynced.json<{ messages: Seen[] }>().messages.slice(0, 3), (socketResync.messages as Seen[]).slice(0, 3)];
    const seenByVisitor: Seen[] = [...pushed, ...histories.flat(), restSend.json<Seen>()];
    expect(seenByVisitor).toHaveLength(2 + 4 * 3 + 1);
    for (const message of seenByVisitor) {
      const fields = message.staffName === undefined ? visitorFields : [...visitorFields, 'staffName'].sort();
      expect(Object.keys(message).sort()).toEqual(fields);
      // Anna chose her name; Ben did not, so his email's local part stays unsaid.
      expect(namesStaff(message, [anna, ben], [benName])).toBe(false);
    }
    expect(pushed.map((message) => [message.message, message.kind, message.isFromUser, message.staffName])).toEqual([
      ['It is!', 'staff', false, 'Anna'],
      ['Want a test drive?', 'staff', false, undefined],
    ]);
    for (const history of histories) {
      expect(history.map((message) => [message.kind, message.staffName])).toEqual([
        ['visitor', undefined],
        ['staff', 'Anna'],
        ['staff', undefined],
      ]);
    }
  });

  it('a staff reply and a visitor message cannot claim another author through their payloads', async () => {
    const anna = await staffMember('Anna Two');
    const ben = await staffMember();
    const cookie = visitorCookie(app);
    const sessionId = `session_${Date.now()}_claims`;
    const first = await app.inject({
      method: 'POST',
      url: '/api/chat-message',
      headers: { cookie },
      payload: { sessionId, message: 'Hello', kind: 'staff', authorStaffId: anna.id },
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ kind: 'visitor', isFromUser: true });
    const reply = await app.inject({
      method: 'POST',
      url: '/api/admin-chat-reply',
      headers: { cookie: cookiesFrom(first, ben.cookie) },
      payload: { sessionId, message: 'Hi', kind: 'system', authorStaffId: anna.id },
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.json()).toMatchObject({ kind: 'staff', authorStaffId: ben.id });
  });
});
