// @scaled: integer ranges differ per dialect (SQLite 64-bit, PostgreSQL integer)
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/schema';
import { maxRowId } from './contract/common';
import type { LeadKind } from './contract/leads';
import { leadPaths } from './contract/paths';
import { signInStaff, staffEnv, validInput } from '../test/support/factories';
import { buildTestServer } from '../test/support/helper';

/**
 * Ids are PostgreSQL `integer`s: an id past 2^31-1 in a cursor or a path made the query fail with a 500
 * there. Every one is refused by the contract, with a 400 that names it, and nothing changes.
 */
describe('ids and cursors out of range', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
  const cookie = (await signInStaff(app)).cookie;
  const kinds = Object.keys(leadPaths) as LeadKind[];
  const leadIds = {} as Record<LeadKind, number>;
  for (const kind of kinds) {
    leadIds[kind] = (await app.inject({ method: 'POST', url: leadPaths[kind].create, payload: validInput[kind]() })).json().id;
  }
  const chat = await app.inject({ method: 'POST', url: '/api/chat-message', payload: { sessionId: 'session_range_test', message: 'Hello there' } });
  const chatCreatedAt: string = chat.json().createdAt;

  const tables: (keyof Database)[] = ['demoRequests', 'contactSubmissions', 'supportTickets', 'getStartedRequests', 'chatSessions', 'chatMessages'];
  const snapshot = async () => {
    const rows: Record<string, unknown[]> = {};
    for (const table of tables) rows[table] = await app.db.selectFrom(table).selectAll().execute();
    return rows;
  };

  const outOfRange = [String(maxRowId + 1), '99999999999', String(2 ** 53), '9'.repeat(40), '0'];
  const idMessage = `before's id must be a whole number from 1 to ${maxRowId}`;
  const dateMessage = "before's date must be a UTC timestamp such as 2025-01-31T12:00:00.000Z";
  const idLists = [...kinds.map((kind) => leadPaths[kind].list), '/api/chat-messages'];
  const staffGet = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });

  it.each(idLists.flatMap((list) => outOfRange.map((id) => [list, id] as const)))('%s?before=<date>,%s: 400 naming before', async (list, id) => {
    const before = await snapshot();
    const response = await staffGet(`${list}?before=${encodeURIComponent(`${chatCreatedAt},${id}`)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Validation failed', errors: { before: idMessage } });
    expect(await snapshot()).toEqual(before);
  });

  it('still pages with the largest id there can be', async () => {
    for (const list of idLists) {
      const response = await staffGet(`${list}?before=${encodeURIComponent(`${chatCreatedAt},${maxRowId}`)}`);
      expect(response.statusCode).toBe(200);
    }
  });

  const badDates = ['2025-13-45T99:99:99Z', '2025-02-30T00:00:00.000Z', '2025-01-01T24:00:00Z', '2025-01-01T1:2:3Z', '0000-01-01T00:00:00.000.000Z'];
  const dateLists = [...idLists, '/api/chat-sessions'];
  it.each(dateLists.flatMap((list) => badDates.map((date) => [list, date] as const)))('%s?before=%s,<id>: 400 naming before', async (list, date) => {
    const cursor = list === '/api/chat-sessions' ? `${date},session_range_test` : `${date},1`;
    const response = await staffGet(`${list}?before=${encodeURIComponent(cursor)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Validation failed', errors: { before: dateMessage } });
  });

  it.each(kinds.flatMap((kind) => outOfRange.map((id) => [kind, id] as const)))('PATCH /api/leads/%s/%s: 400 naming id, nothing changed', async (kind, id) => {
    const before = await snapshot();
    const response = await app.inject({ method: 'PATCH', url: `/api/leads/${kind}/${id}`, headers: { cookie }, payload: { status: 'closed', note: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Validation failed', errors: { id: `id must be a whole number from 1 to ${maxRowId}` } });
    expect(await snapshot()).toEqual(before);
  });

  it('answers the largest id there can be with 404, and a lead that exists with 200', async () => {
    const patch = (kind: LeadKind, id: number | string) =>
      app.inject({ method: 'PATCH', url: `/api/leads/${kind}/${id}`, headers: { cookie }, payload: { status: 'contacted' } });
    expect((await patch('contact', maxRowId)).statusCode).toBe(404);
    for (const kind of kinds) expect((await patch(kind, leadIds[kind])).statusCode).toBe(200);
  });
});
