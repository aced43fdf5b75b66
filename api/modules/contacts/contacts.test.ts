// @scaled: one contact per address under concurrent writes, case-insensitive match per dialect
import { describe, expect, it } from 'vitest';
import type { ContactTimeline } from '../../contract/contacts';
import type { LeadKind } from '../../contract/leads';
import { leadPaths } from '../../contract/paths';
import { contactSubmission, demoRequest, getStartedRequest, signInNewStaff, supportTicket } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';
import { visitorCookie } from '../../../test/support/visitor-socket';
import { leadTables } from '../../../db/schema';

let counter = 0;
const next = () => (counter += 1);

describe('one contact, one timeline', async () => {
  const { app } = await buildTestServer();
  const staff = await signInNewStaff(app);

  const timeline = (email: string, cookie: string | null = staff.cookie) =>
    app.inject({ method: 'GET', url: `/api/contacts/timeline?email=${encodeURIComponent(email)}`, headers: cookie ? { cookie } : {} });
  const timelineOf = async (email: string) => {
    const answer = await timeline(email);
    expect(answer.statusCode).toBe(200);
    return answer.json<ContactTimeline>();
  };

  const inputs: Record<LeadKind, (email: string) => object> = {
    contact: (email) => contactSubmission({ email }),
    support: (email) => supportTicket({ email }),
    demo: (email) => demoRequest({ email }),
    'get-started': (email) => getStartedRequest({ email }),
  };
  /** A lead sent through its real form, then dated `at`. */
  const lead = async (kind: LeadKind, email: string, at?: string) => {
    const sent = await app.inject({ method: 'POST', url: leadPaths[kind].create, payload: inputs[kind](email), remoteAddress: `10.40.0.${next()}` });
    expect(sent.statusCode).toBe(201);
    const id = sent.json<{ id: number }>().id;
    if (at) await app.db.updateTable(leadTables[kind] as 'contactSubmissions').set({ createdAt: at }).where('id', '=', id).execute();
    return id;
  };
  /** A conversation started by a visitor who gave `email`, then with its last message at `at`. */
  const conversation = async (email: string, at?: string) => {
    const sessionId = `session_timeline_${next()}`;
    const sent = await app.inject({
      method: 'POST',
      url: '/api/chat-message',
      headers: { cookie: visitorCookie(app) },
      payload: { sessionId, message: 'Do you do feeds?', senderEmail: email },
    });
    expect(sent.statusCode).toBe(201);
    if (at) await app.db.updateTable('chatSessions').set({ lastMessageAt: at }).where('id', '=', sessionId).execute();
    return sessionId;
  };

  it('is for staff only, and asks for an email', async () => {
    expect((await timeline('ann@dealer.example', null)).statusCode).toBe(401);
    const bad = await timeline('not an email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errors: { email: 'Please enter a valid email address' } });
    expect((await app.inject({ method: 'GET', url: '/api/contacts/timeline', headers: { cookie: staff.cookie } })).statusCode).toBe(400);
  });

  it('joins the four kinds of lead and the conversations by email in any case, newest first, and nobody else’s', async () => {
    const contact = await lead('contact', 'Ann@Dealer.example', '2026-03-01T09:00:00.000Z');
    const getStarted = await lead('get-started', 'ann@dealer.EXAMPLE', '2026-03-02T09:00:00.000Z');
    const support = await lead('support', 'ann@dealer.example', '2026-03-03T09:00:00.000Z');
    const chat = await conversation('ANN@dealer.example', '2026-03-04T09:00:00.000Z');
    const demo = await lead('demo', 'ANN@DEALER.EXAMPLE', '2026-03-05T09:00:00.000Z');
    await lead('demo', 'bob@dealer.example', '2026-03-06T09:00:00.000Z');
    await conversation('bob@dealer.example', '2026-03-06T09:00:00.000Z');

    const shown = await timelineOf('Ann@DEALER.example');
    expect(shown.more).toBe(false);
    expect(shown.items.map((item) => [item.type, item.type === 'lead' ? `${item.kind}-${item.id}` : item.id, item.at])).toEqual([
      ['lead', `demo-${demo}`, '2026-03-05T09:00:00.000Z'],
      ['conversation', chat, '2026-03-04T09:00:00.000Z'],
      ['lead', `support-${support}`, '2026-03-03T09:00:00.000Z'],
      ['lead', `get-started-${getStarted}`, '2026-03-02T09:00:00.000Z'],
      ['lead', `contact-${contact}`, '2026-03-01T09:00:00.000Z'],
    ]);
    expect(shown.items[1]).toMatchObject({ type: 'conversation', email: 'ANN@dealer.example', status: 'open', lastMessage: 'Do you do feeds?', messageCount: 1 });
    expect(shown.items[2]).toMatchObject({ type: 'lead', name: 'Lee Park', summary: 'Feed not updating', status: 'new', email: 'ann@dealer.example' });
    expect(shown.items[4]).toMatchObject({ summary: 'Pricing Information' });
    // The same timeline from any of its members' emails.
    expect((await timelineOf('ann@dealer.example')).items).toEqual(shown.items);
  });

  it('joins a form and a chat sent just now, from either email', async () => {
    const id = await lead('contact', 'Cleo@Motors.example');
    const chat = await conversation('cleo@motors.example');
    for (const email of ['Cleo@Motors.example', 'cleo@motors.example']) {
      const shown = await timelineOf(email);
      expect(shown.items.map((item) => item.id).sort()).toEqual([id, chat].sort());
    }
  });

  it('shows the newest 50 and says there are more', async () => {
    for (let day = 1; day <= 51; day += 1) await lead('demo', 'many@dealer.example', `2026-01-01T00:00:${String(day).padStart(2, '0')}.000Z`);
    const shown = await timelineOf('many@dealer.example');
    expect(shown.items).toHaveLength(50);
    expect(shown.more).toBe(true);
    expect(shown.items[0]!.at).toBe('2026-01-01T00:00:51.000Z');
    expect(shown.items[49]!.at).toBe('2026-01-01T00:00:02.000Z');
    expect((await timelineOf('nobody@dealer.example'))).toEqual({ items: [], more: false });
  });
});
