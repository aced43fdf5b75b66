import { describe, expect, it } from 'vitest';
import { apiPaths, pathTo } from '../../contract/paths';
import type { CannedReply } from '../../contract/team-inbox-notes';
import { signInNewStaff, signInStaff, staffEnv } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';

describe('canned replies', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
  const admin = await signInStaff(app);
  const agent = await signInNewStaff(app);

  const create = (payload: unknown, cookie = admin.cookie) =>
    app.inject({ method: 'POST', url: apiPaths.cannedReplies, headers: { cookie }, payload: payload as Record<string, unknown> });
  const update = (id: number | string, payload: unknown, cookie = admin.cookie) =>
    app.inject({ method: 'PATCH', url: pathTo(apiPaths.cannedReply, { id }), headers: { cookie }, payload: payload as Record<string, unknown> });
  const remove = (id: number | string, cookie = admin.cookie) => app.inject({ method: 'DELETE', url: pathTo(apiPaths.cannedReply, { id }), headers: { cookie } });
  const list = async (cookie = agent.cookie) => {
    const answer = await app.inject({ method: 'GET', url: apiPaths.cannedReplies, headers: { cookie } });
    expect(answer.statusCode).toBe(200);
    return answer.json<CannedReply[]>();
  };
  const audited = (action: string) => app.db.selectFrom('auditLog').selectAll().where('action', '=', action).execute();

  it('admins create, edit and delete; every staff member lists them by title; each change is audited, without the words', async () => {
    const created = await create({ title: '  Pricing  ', text: 'Hi {name},\nour plans start at $299 a month.' });
    expect(created.statusCode).toBe(201);
    const pricing = created.json<CannedReply>();
    expect(pricing).toMatchObject({ title: 'Pricing', text: 'Hi {name},\nour plans start at $299 a month.' });
    const demo = (await create({ title: 'Book a demo', text: 'We will mail {email} a link.' })).json<CannedReply>();
    expect((await list()).map((reply) => reply.title)).toEqual(['Book a demo', 'Pricing']);

    const edited = await update(pricing.id, { title: 'Pricing (2025)', text: 'Plans start at $299.' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: pricing.id, title: 'Pricing (2025)', text: 'Plans start at $299.' });
    expect((await remove(demo.id)).statusCode).toBe(204);
    expect((await list()).map((reply) => reply.title)).toEqual(['Pricing (2025)']);

    for (const action of ['canned-reply.created', 'canned-reply.updated', 'canned-reply.deleted']) {
      const entries = await audited(action);
      expect(entries.length, action).toBeGreaterThan(0);
      expect(entries.every((entry) => entry.subjectKind === 'canned-reply' && entry.detail === null)).toBe(true);
    }
  });

  it('refuses bad input with 400 and an unknown id with 404, changing nothing', async () => {
    const kept = (await create({ title: 'Hours', text: 'We are open 8-6.' })).json<CannedReply>();
    const before = await list();
    const bad: unknown[] = [
      {},
      { title: '', text: 'x' },
      { title: 'x', text: '   ' },
      { title: 'x'.repeat(101), text: 'x' },
      { title: 'x', text: 'x'.repeat(2001) },
      { title: 'two\nlines', text: 'x' },
      { title: 'x', text: 'bell\u0007' },
      { title: 'x', text: 'x', extra: true },
      { title: 5, text: 'x' },
    ];
    for (const payload of bad) {
      expect((await create(payload)).statusCode, JSON.stringify(payload)).toBe(400);
      expect((await update(kept.id, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    for (const id of ['0', 'abc', '99999999999']) {
      expect((await update(id, { title: 'x', text: 'x' })).statusCode, id).toBe(400);
      expect((await remove(id)).statusCode, id).toBe(400);
    }
    expect((await update(987654, { title: 'x', text: 'x' })).statusCode).toBe(404);
    expect((await remove(987654)).statusCode).toBe(404);
    expect(await list()).toEqual(before);
  });

  it('an agent may read but not change them (403); no one signed in gets 401', async () => {
    const kept = (await create({ title: 'Thanks', text: 'Thanks, {name}!' })).json<CannedReply>();
    const before = await list();
    const refused = await create({ title: 'Mine', text: 'x' }, agent.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Only admins can do this' });
    expect((await update(kept.id, { title: 'Mine', text: 'x' }, agent.cookie)).statusCode).toBe(403);
    expect((await remove(kept.id, agent.cookie)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: apiPaths.cannedReplies })).statusCode).toBe(401);
    expect((await create({ title: 'x', text: 'x' }, '')).statusCode).toBe(401);
    expect(await list()).toEqual(before);
  });
});
