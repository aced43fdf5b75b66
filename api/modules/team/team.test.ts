import { describe, expect, it } from 'vitest';
import { apiPaths, pathTo } from '../../contract/paths';
import { auditPaths, type AuditPage } from '../../contract/audit';
import {
  deactivatedSignInMessage,
  inviteLinkInvalidMessage,
  lastAdminMessage,
  selfDeactivationMessage,
  type Team,
  teamPaths,
} from '../../contract/team';
import { signInNewStaff, signInStaff, staffEnv, type StaffSignIn } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';
import { readOutbox } from '../../../test/support/outbox';

const { app, dir } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });

let emailCount = 0;
function newEmail(): string {
  emailCount += 1;
  return `invitee${emailCount}@lotwise.example`;
}

async function call(signIn: StaffSignIn | undefined, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) {
  return app.inject({ method, url, headers: signIn ? { cookie: signIn.cookie } : {}, ...(payload ? { payload } : {}) });
}

async function idOf(email: string): Promise<number> {
  const row = await app.db.selectFrom('admins').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return row.id;
}

/** A new account with this role, signed in. */
async function newMember(role: 'admin' | 'agent'): Promise<StaffSignIn & { id: number }> {
  const signIn = await signInNewStaff(app);
  const row = await app.db.selectFrom('sessions').select('adminId').where('sid', '=', signIn.sid).executeTakeFirstOrThrow();
  await app.db.updateTable('admins').set({ role }).where('id', '=', row.adminId!).execute();
  return { ...signIn, id: row.adminId! };
}

/** Invites `email` as `admin`, runs the mail job and answers the link's token from the outbox. */
async function invite(admin: StaffSignIn, email: string, role: 'admin' | 'agent' = 'agent'): Promise<string> {
  const response = await call(admin, 'POST', teamPaths.invites, { email, displayName: 'Dana', role });
  expect(response.statusCode).toBe(201);
  await app.jobs.runDue();
  const mail = (await readOutbox(dir)).filter((each) => each.headers.to === email).at(-1);
  const token = /\/admin\/join\?token=([A-Za-z0-9_.%-]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no invite link mailed to ${email}`);
  return decodeURIComponent(token);
}

/** The account of `staffEnv` becomes the one admin. */
async function onlyAdmin(): Promise<number> {
  const selfId = await idOf(staffEnv.ADMIN_EMAIL);
  await app.db.updateTable('admins').set({ role: 'agent' }).where('id', '!=', selfId).execute();
  await app.db.updateTable('admins').set({ role: 'admin', deactivatedAt: null }).where('id', '=', selfId).execute();
  return selfId;
}

async function accept(token: string, password = 'a-long-new-password-9') {
  return app.inject({ method: 'POST', url: teamPaths.acceptInvite, payload: { token, password } });
}

async function sessionOf(cookie: string) {
  const response = await app.inject({ method: 'GET', url: apiPaths.session, headers: { cookie } });
  return response.json<{ admin: { email: string; role: string; displayName: string } | null }>().admin;
}

async function auditEntries(admin: StaffSignIn, q?: string): Promise<AuditPage> {
  const response = await call(admin, 'GET', q ? `${auditPaths.log}?q=${encodeURIComponent(q)}` : auditPaths.log);
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('admin-only team and audit routes', () => {
  const adminRoutes = [
    { method: 'GET', url: teamPaths.team },
    { method: 'POST', url: teamPaths.invites, payload: { email: 'x@lotwise.example', displayName: 'X', role: 'agent' } },
    { method: 'PATCH', url: pathTo(teamPaths.member, { id: 1 }), payload: { role: 'agent' } },
    { method: 'POST', url: pathTo(teamPaths.deactivate, { id: 1 }) },
    { method: 'POST', url: pathTo(teamPaths.reactivate, { id: 1 }) },
    { method: 'GET', url: auditPaths.log },
  ] as const;

  it.each(adminRoutes)('answers an agent 403 and a stranger 401 at $method $url, and changes nothing', async (route) => {
    const agent = await newMember('agent');
    const before = await app.db.selectFrom('admins').select(['id', 'role', 'deactivatedAt']).orderBy('id').execute();
    const answer = await call(agent, route.method, route.url, 'payload' in route ? route.payload : undefined);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual({ message: 'Only admins can do this' });
    expect((await call(undefined, route.method, route.url, 'payload' in route ? route.payload : undefined)).statusCode).toBe(401);
    expect(await app.db.selectFrom('admins').select(['id', 'role', 'deactivatedAt']).orderBy('id').execute()).toEqual(before);
  });

  it('lists the team for an admin: names, roles, active, last sign-in', async () => {
    const admin = await signInStaff(app);
    const agent = await newMember('agent');
    const team: Team = (await call(admin, 'GET', teamPaths.team)).json();
    const listed = team.members.find((member) => member.id === agent.id);
    expect(listed).toMatchObject({ role: 'agent', active: true });
    expect(listed?.lastSignInAt).toEqual(expect.any(String));
    expect(team.members.find((member) => member.email === staffEnv.ADMIN_EMAIL)).toMatchObject({ role: 'admin', active: true });
  });
});

describe('invites', () => {
  it('mails a single-use link: the invitee sets a password, is signed in with the role and name given, and the link is spent', async () => {
    const admin = await signInStaff(app);
    const email = newEmail();
    const token = await invite(admin, email);
    // Only the token's hash is stored.
    const stored = await app.db.selectFrom('staffInvites').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token);

    const lookup = await app.inject({ method: 'GET', url: `${teamPaths.invite}?token=${token}` });
    expect(lookup.json()).toEqual({ email, displayName: 'Dana' });
    const pending: Team = (await call(admin, 'GET', teamPaths.team)).json();
    expect(pending.invites.map((each) => each.email)).toContain(email);

    const joined = await accept(token);
    expect(joined.statusCode).toBe(200);
    const cookie = joined.cookies.map((each) => `${each.name}=${each.value}`).join('; ');
    expect(await sessionOf(cookie)).toEqual({ email, role: 'agent', displayName: 'Dana' });

    const again = await accept(token, 'another-long-password-7');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: inviteLinkInvalidMessage });
    expect((await app.inject({ method: 'GET', url: `${teamPaths.invite}?token=${token}` })).statusCode).toBe(400);
    // The member signs in with the password chosen.
    await signInStaff(app, email, 'a-long-new-password-9');
  });

  it('refuses a link past its 48 hours, and mails nothing for it', async () => {
    const admin = await signInStaff(app);
    const email = newEmail();
    const token = await invite(admin, email);
    const sentAt = Date.now();
    // 48 hours less a minute: still good.
    await app.db.updateTable('staffInvites').set({ expiresAt: new Date(sentAt + 60_000).toISOString() }).where('email', '=', email).execute();
    expect((await app.inject({ method: 'GET', url: `${teamPaths.invite}?token=${token}` })).statusCode).toBe(200);
    await app.db.updateTable('staffInvites').set({ expiresAt: new Date(sentAt - 1).toISOString() }).where('email', '=', email).execute();
    const late = await accept(token);
    expect(late.statusCode).toBe(400);
    expect(await app.db.selectFrom('admins').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    const row = await app.db.selectFrom('staffInvites').select(['id', 'createdAt']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(Date.parse(row.createdAt)).toBeGreaterThan(sentAt - 5_000);
    expect(await app.team.inviteMailOf(row.id)).toBeUndefined();
  });

  it('sets the link to expire 48 hours after it is sent', async () => {
    const admin = await signInStaff(app);
    const email = newEmail();
    await invite(admin, email);
    const row = await app.db.selectFrom('staffInvites').select(['createdAt', 'expiresAt']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(Date.parse(row.expiresAt) - Date.parse(row.createdAt)).toBe(48 * 60 * 60 * 1000);
  });

  it('withdraws the older link when the same email is invited again', async () => {
    const admin = await signInStaff(app);
    const email = newEmail();
    const first = await invite(admin, email);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await invite(admin, email);
    expect((await accept(first)).statusCode).toBe(400);
    expect((await accept(second)).statusCode).toBe(200);
  });

  it('refuses an email that has an account, a bad email or role, a weak password, a made-up token: and changes nothing', async () => {
    const admin = await signInStaff(app);
    const taken = await call(admin, 'POST', teamPaths.invites, { email: staffEnv.ADMIN_EMAIL, displayName: 'Me', role: 'agent' });
    expect(taken.statusCode).toBe(409);
    expect((await call(admin, 'POST', teamPaths.invites, { email: 'not-an-email', displayName: 'X', role: 'agent' })).statusCode).toBe(400);
    expect((await call(admin, 'POST', teamPaths.invites, { email: newEmail(), displayName: 'X', role: 'owner' })).statusCode).toBe(400);
    expect((await call(admin, 'POST', teamPaths.invites, { email: newEmail(), displayName: 'Two\nlines', role: 'agent' })).statusCode).toBe(400);
    expect((await accept('a'.repeat(43))).statusCode).toBe(400);
    expect((await accept('not a token!')).statusCode).toBe(400);
    const email = newEmail();
    const token = await invite(admin, email);
    const weak = await accept(token, 'password');
    expect(weak.statusCode).toBe(400);
    // The link stays good for a better password.
    expect((await accept(token)).statusCode).toBe(200);
  });
});

describe('roles and deactivation', () => {
  it('a demoted admin is refused admin routes at their next request', async () => {
    const admin = await signInStaff(app);
    const other = await newMember('admin');
    expect((await call(other, 'GET', teamPaths.team)).statusCode).toBe(200);
    const changed = await call(admin, 'PATCH', pathTo(teamPaths.member, { id: other.id }), { role: 'agent' });
    expect(changed.json()).toMatchObject({ id: other.id, role: 'agent' });
    expect((await call(other, 'GET', teamPaths.team)).statusCode).toBe(403);
    expect((await sessionOf(other.cookie))?.role).toBe('agent');
  });

  it('ends a deactivated member sessions at once; they cannot sign in until reactivated', async () => {
    const admin = await signInStaff(app);
    const email = newEmail();
    const joined = await accept(await invite(admin, email));
    const cookie = joined.cookies.map((each) => `${each.name}=${each.value}`).join('; ');
    const secondSignIn = await signInStaff(app, email, 'a-long-new-password-9');
    const id = await idOf(email);

    const deactivated = await call(admin, 'POST', pathTo(teamPaths.deactivate, { id }));
    expect(deactivated.json()).toMatchObject({ id, active: false });
    expect(await sessionOf(cookie)).toBeNull();
    expect((await app.inject({ method: 'GET', url: apiPaths.chatSessions, headers: { cookie: secondSignIn.cookie } })).statusCode).toBe(401);
    expect(await app.db.selectFrom('sessions').select('sid').where('adminId', '=', id).execute()).toEqual([]);

    const refused = await app.inject({ method: 'POST', url: apiPaths.staffLogin, payload: { username: email, password: 'a-long-new-password-9' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: deactivatedSignInMessage });
    // A wrong password learns nothing more than before.
    const wrong = await app.inject({ method: 'POST', url: apiPaths.staffLogin, payload: { username: email, password: 'wrong-password-123' } });
    expect(wrong.statusCode).toBe(401);

    expect((await call(admin, 'POST', pathTo(teamPaths.reactivate, { id }))).json()).toMatchObject({ active: true });
    await signInStaff(app, email, 'a-long-new-password-9');
  });

  it('refuses to deactivate yourself, and to demote the last admin', async () => {
    const admin = await signInStaff(app);
    const selfId = await onlyAdmin();
    const self = await call(admin, 'POST', pathTo(teamPaths.deactivate, { id: selfId }));
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ message: selfDeactivationMessage });
    const demote = await call(admin, 'PATCH', pathTo(teamPaths.member, { id: selfId }), { role: 'agent' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({ message: lastAdminMessage });
    expect((await app.db.selectFrom('admins').select('role').where('id', '=', selfId).executeTakeFirstOrThrow()).role).toBe('admin');
  });

  it('of two admins demoting each other at once, exactly one succeeds', async () => {
    const selfId = await onlyAdmin();
    const first = await signInStaff(app);
    const second = await newMember('admin');
    const answers = await Promise.all([
      call(first, 'PATCH', pathTo(teamPaths.member, { id: second.id }), { role: 'agent' }),
      call(second, 'PATCH', pathTo(teamPaths.member, { id: selfId }), { role: 'agent' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const admins = await app.db.selectFrom('admins').select('id').where('role', '=', 'admin').where('deactivatedAt', 'is', null).execute();
    expect(admins).toHaveLength(1);
    await onlyAdmin();
  });

  it('of two admins deactivating each other at once, exactly one succeeds', async () => {
    const selfId = await onlyAdmin();
    const first = await signInStaff(app);
    const second = await newMember('admin');
    const answers = await Promise.all([
      call(first, 'POST', pathTo(teamPaths.deactivate, { id: second.id })),
      call(second, 'POST', pathTo(teamPaths.deactivate, { id: selfId })),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const admins = await app.db.selectFrom('admins').select('id').where('role', '=', 'admin').where('deactivatedAt', 'is', null).execute();
    expect(admins).toHaveLength(1);
    await onlyAdmin();
  });

  it('answers 404 for an unknown member and 400 for a bad id or role', async () => {
    const admin = await signInStaff(app);
    expect((await call(admin, 'PATCH', pathTo(teamPaths.member, { id: 999_999 }), { role: 'agent' })).statusCode).toBe(404);
    expect((await call(admin, 'POST', pathTo(teamPaths.deactivate, { id: 'abc' }))).statusCode).toBe(400);
    expect((await call(admin, 'PATCH', pathTo(teamPaths.member, { id: 1 }), { role: 'boss' })).statusCode).toBe(400);
  });
});

describe('own display name', () => {
  it('any staff member changes their own, and it shows in their session', async () => {
    const agent = await newMember('agent');
    const renamed = await call(agent, 'PATCH', teamPaths.me, { displayName: '  Sam Ortiz ' });
    expect(renamed.statusCode).toBe(200);
    expect((await sessionOf(agent.cookie))?.displayName).toBe('Sam Ortiz');
    expect((await call(agent, 'PATCH', teamPaths.me, { displayName: '' })).statusCode).toBe(400);
    expect((await call(agent, 'PATCH', teamPaths.me, { displayName: 'x'.repeat(101) })).statusCode).toBe(400);
    expect((await call(undefined, 'PATCH', teamPaths.me, { displayName: 'Nobody' })).statusCode).toBe(401);
  });
});

describe('the audit log', () => {
  async function entriesFor(admin: StaffSignIn, action: string) {
    return (await auditEntries(admin, action)).entries.filter((entry) => entry.action === action);
  }

  it('records sign-in, sign-out, invite, role change and deactivation: who and when, never the data', async () => {
    const admin = await signInStaff(app);
    const agent = await newMember('agent');
    await call(agent, 'POST', apiPaths.staffLogout);
    const email = newEmail();
    await accept(await invite(admin, email));
    const id = await idOf(email);
    await call(admin, 'PATCH', pathTo(teamPaths.member, { id }), { role: 'admin' });
    await call(admin, 'POST', pathTo(teamPaths.deactivate, { id }));

    const adminName = staffEnv.ADMIN_EMAIL.split('@')[0];
    expect((await entriesFor(admin, 'staff.signed-in')).length).toBeGreaterThan(0);
    expect((await entriesFor(admin, 'staff.signed-out'))[0]).toMatchObject({ actorName: expect.any(String), subject: null, at: expect.any(String) });
    expect((await entriesFor(admin, 'staff.invited'))[0]).toMatchObject({ actorName: adminName, detail: 'role: agent' });
    expect((await entriesFor(admin, 'staff.role-changed'))[0]).toMatchObject({ actorName: adminName, subject: 'Dana', detail: 'role: admin' });
    expect((await entriesFor(admin, 'staff.deactivated'))[0]).toMatchObject({ actorName: adminName, subject: 'Dana' });

    // Nothing stored names an invitee's email or a password.
    const stored = JSON.stringify(await app.db.selectFrom('auditLog').selectAll().execute());
    expect(stored).not.toContain(email);
    expect(stored).not.toContain('password-');
  });

  it('pages newest first by cursor, and searches by action label, actor and subject', async () => {
    const admin = await signInStaff(app);
    await call(admin, 'PATCH', teamPaths.me, { displayName: 'Admin Zed' });
    for (let index = 0; index < 30; index += 1) {
      const signIn = await signInStaff(app);
      await call(signIn, 'POST', apiPaths.staffLogout);
    }
    const first = await auditEntries(admin);
    expect(first.entries).toHaveLength(50);
    expect(first.nextCursor).not.toBeNull();
    const times = first.entries.map((entry) => Date.parse(entry.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const second: AuditPage = (await call(admin, 'GET', `${auditPaths.log}?before=${first.nextCursor}`)).json();
    const firstIds = new Set(first.entries.map((entry) => entry.id));
    expect(second.entries.length).toBeGreaterThan(0);
    expect(second.entries.every((entry) => !firstIds.has(entry.id) && entry.id < Math.min(...firstIds))).toBe(true);

    expect((await auditEntries(admin, 'signed out')).entries.every((entry) => entry.action === 'staff.signed-out')).toBe(true);
    const byActor = (await auditEntries(admin, 'admin zed')).entries;
    expect(byActor.length).toBeGreaterThan(0);
    expect(byActor.every((entry) => entry.actorName === 'Admin Zed' || entry.subject === 'Admin Zed')).toBe(true);
    const aboutDana = (await auditEntries(admin, 'Dana')).entries;
    expect(aboutDana.some((entry) => entry.action === 'staff.deactivated' && entry.subject === 'Dana')).toBe(true);
    expect((await auditEntries(admin, 'no such thing at all')).entries).toEqual([]);
    expect((await call(admin, 'GET', `${auditPaths.log}?before=yesterday`)).statusCode).toBe(400);
    expect((await call(admin, 'GET', `${auditPaths.log}?q=${'x'.repeat(101)}`)).statusCode).toBe(400);
  });
});
