// @scaled: a request against an account change: row locks (FOR SHARE) on PostgreSQL
import type { FastifyRequest, RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { adminsOnlyMessage, notAuthenticatedMessage } from '../../contract/auth';
import { apiPaths, pathTo } from '../../contract/paths';
import { teamPaths } from '../../contract/team';
import { signInNewStaff, signInStaff, staffEnv, type StaffSignIn } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';

/**
 * A request held between its sign-in check (onRequest) and its handler's write: a barrier the test
 * opens once it has changed the account, so the change lands exactly there, with no sleep.
 */
interface Hold {
  method: string;
  url: string;
  reached: () => void;
  release: Promise<void>;
}
let hold: Hold | undefined;

async function holdHere(request: FastifyRequest): Promise<void> {
  const held = hold;
  if (!held || request.method !== held.method || request.routeOptions.url !== held.url) return;
  hold = undefined;
  held.reached();
  await held.release;
}

/** Every route gets the barrier as its last preHandler: after the sign-in check, before the handler. */
function withBarrier(route: RouteOptions): void {
  const hooks = [route.preHandler ?? []].flat();
  route.preHandler = [...hooks, holdHere];
}

const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { onRoute: withBarrier });

async function call(signIn: StaffSignIn, method: 'POST' | 'PATCH', url: string, payload?: object) {
  return app.inject({ method, url, headers: { cookie: signIn.cookie }, ...(payload ? { payload } : {}) });
}

async function newAdmin(): Promise<StaffSignIn & { id: number }> {
  const signIn = await signInNewStaff(app);
  const row = await app.db.selectFrom('sessions').select('adminId').where('sid', '=', signIn.sid).executeTakeFirstOrThrow();
  await app.db.updateTable('admins').set({ role: 'admin' }).where('id', '=', row.adminId!).execute();
  return { ...signIn, id: row.adminId! };
}

/** Starts `request`, waits until it is held past its sign-in check, runs `meanwhile`, then lets it go on. */
async function heldWhile<T>(method: string, url: string, request: () => Promise<T>, meanwhile: () => Promise<void>): Promise<T> {
  let reached!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  hold = { method, url, reached, release: new Promise<void>((resolve) => (release = resolve)) };
  const answer = request();
  await arrived;
  await meanwhile();
  release();
  return answer;
}

describe('a request let in before its account changed commits nothing', () => {
  it('an invite sent by an admin deactivated while it was on its way: 401, no invite, no entry', async () => {
    const admin = await signInStaff(app);
    const leaving = await newAdmin();
    const rogue = 'rogue-in-flight@lotwise.example';
    const auditBefore = await app.db.selectFrom('auditLog').select('id').where('actorId', '=', leaving.id).execute();
    const answer = await heldWhile(
      'POST',
      teamPaths.invites,
      () => call(leaving, 'POST', teamPaths.invites, { email: rogue, displayName: 'Rogue Person', role: 'admin' }),
      async () => {
        expect((await call(admin, 'POST', pathTo(teamPaths.deactivate, { id: leaving.id }))).statusCode).toBe(200);
      },
    );
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual({ message: notAuthenticatedMessage });
    expect(await app.db.selectFrom('staffInvites').select('id').where('email', '=', rogue).execute()).toEqual([]);
    expect(await app.db.selectFrom('auditLog').select('id').where('actorId', '=', leaving.id).execute()).toEqual(auditBefore);
  });

  it('a role change by an admin demoted while it was on its way: 403, the role as it was', async () => {
    const admin = await signInStaff(app);
    const demoted = await newAdmin();
    const target = await signInNewStaff(app);
    const targetId = (await app.db.selectFrom('sessions').select('adminId').where('sid', '=', target.sid).executeTakeFirstOrThrow()).adminId!;
    const answer = await heldWhile(
      'PATCH',
      teamPaths.member,
      () => call(demoted, 'PATCH', pathTo(teamPaths.member, { id: targetId }), { role: 'admin' }),
      async () => {
        expect((await call(admin, 'PATCH', pathTo(teamPaths.member, { id: demoted.id }), { role: 'agent' })).statusCode).toBe(200);
      },
    );
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual({ message: adminsOnlyMessage });
    expect((await app.db.selectFrom('admins').select('role').where('id', '=', targetId).executeTakeFirstOrThrow()).role).toBe('agent');
  });

  it('another module’s admin write (a canned reply) by an admin deactivated on its way: 401, nothing added', async () => {
    const admin = await signInStaff(app);
    const leaving = await newAdmin();
    const answer = await heldWhile(
      'POST',
      apiPaths.cannedReplies,
      () => call(leaving, 'POST', apiPaths.cannedReplies, { title: 'In flight', text: 'Written by someone on the way out' }),
      async () => {
        expect((await call(admin, 'POST', pathTo(teamPaths.deactivate, { id: leaving.id }))).statusCode).toBe(200);
      },
    );
    expect(answer.statusCode).toBe(401);
    expect(await app.db.selectFrom('cannedReplies').select('id').where('title', '=', 'In flight').execute()).toEqual([]);
  });

  it('a member’s own rename, deactivated on its way: 401, the name as it was', async () => {
    const admin = await signInStaff(app);
    const agent = await signInNewStaff(app);
    const agentId = (await app.db.selectFrom('sessions').select('adminId').where('sid', '=', agent.sid).executeTakeFirstOrThrow()).adminId!;
    const answer = await heldWhile(
      'PATCH',
      teamPaths.me,
      () => call(agent, 'PATCH', teamPaths.me, { displayName: 'Late Rename' }),
      async () => {
        expect((await call(admin, 'POST', pathTo(teamPaths.deactivate, { id: agentId }))).statusCode).toBe(200);
      },
    );
    expect(answer.statusCode).toBe(401);
    expect((await app.db.selectFrom('admins').select('displayName').where('id', '=', agentId).executeTakeFirstOrThrow()).displayName).toBeNull();
  });
});
