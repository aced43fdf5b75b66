// @scaled: last-admin checks lock rows (FOR UPDATE) on PostgreSQL
import { describe, expect, it } from 'vitest';
import { apiPaths, pathTo } from '../../contract/paths';
import { auditPaths, type AuditPage } from '../../contract/audit';
import {
  deactivatedSignInMessage,
  inviteLinkInvalidMessage,
  inviteNotFoundMessage,
  lastAdminMessage,
  selfDeactivationMessage,
  type Team,
  teamPaths,
} from '../../contract/team';
import { signInStaff, staffEnv, type StaffSignIn } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';
import { teamSteps } from '../../../test/support/team';

const { app, dir } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });

const { newEmail, call, idOf, newMember, invite, onlyAdmin, accept, sessionOf, auditEntries } = teamSteps(app, dir);

describe('admin-only team and audit routes', () => {
  const adminRoutes = [
    { method: 'GET', url: teamPaths.team },
    { method: 'POST', url: teamPaths.invites, payload: { email: 'x@lotwise.example', displayName: 'X', role: 'agent' } },
    { method: 'PATCH', url: pathTo(teamPaths.member, { id: 1 }), payload: { role: 'agent' } },
    { method: 'POST', url: pathTo(teamPaths.deactivate, { id: 1 }) },
    { method: 'POST', url: pathTo(teamPaths.reactivate, { id: 1 }) },
    { method: 'POST', url: pathTo(teamPaths.revokeInvite, { id: 1 }) },
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
    const token = await invite(admin, email, 'agent', 'Dana');
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
    await accept(await invite(admin, email, 'agent', 'Ronnie Dee'));
    const id = await idOf(email);
    await call(admin, 'PATCH', pathTo(teamPaths.member, { id }), { role: 'admin' });
    await call(admin, 'POST', pathTo(teamPaths.deactivate, { id }));

    const adminName = staffEnv.ADMIN_EMAIL.split('@')[0];
    const ronnie = `Ronnie Dee (${email})`;
    expect((await entriesFor(admin, 'staff.signed-in')).length).toBeGreaterThan(0);
    expect((await entriesFor(admin, 'staff.signed-out'))[0]).toMatchObject({ actorName: expect.any(String), subject: null, at: expect.any(String) });
    expect((await entriesFor(admin, 'staff.invited'))[0]).toMatchObject({ actorName: adminName, detail: 'role: agent' });
    expect((await entriesFor(admin, 'staff.role-changed'))[0]).toMatchObject({ actorName: adminName, subject: ronnie, detail: 'role: admin' });
    expect((await entriesFor(admin, 'staff.deactivated'))[0]).toMatchObject({ actorName: adminName, subject: ronnie });

    // Nothing stored names an invitee's email (until they act themselves, as a member) or a password.
    const stored = JSON.stringify(await app.db.selectFrom('auditLog').selectAll().where('actorId', '!=', id).execute());
    expect(stored).not.toContain(email);
    expect(stored).not.toContain('password-');
  });

  it('pages newest first by cursor, and searches by action label, actor and subject', async () => {
    const admin = await signInStaff(app);
    expect((await call(admin, 'PATCH', teamPaths.me, { displayName: 'Zed Adams' })).statusCode).toBe(200);
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
    const byActor = (await auditEntries(admin, 'zed adams')).entries;
    expect(byActor.length).toBeGreaterThan(0);
    expect(byActor.every((entry) => entry.actorName === 'Zed Adams' || entry.subject?.startsWith('Zed Adams'))).toBe(true);
    const aboutRonnie = (await auditEntries(admin, 'Ronnie')).entries;
    expect(aboutRonnie.some((entry) => entry.action === 'staff.deactivated' && entry.subject?.startsWith('Ronnie Dee'))).toBe(true);
    expect((await auditEntries(admin, 'no such thing at all')).entries).toEqual([]);
    expect((await call(admin, 'GET', `${auditPaths.log}?before=yesterday`)).statusCode).toBe(400);
    expect((await call(admin, 'GET', `${auditPaths.log}?q=${'x'.repeat(101)}`)).statusCode).toBe(400);
  });
});

/** The invites waiting, as the Team screen lists them. */
async function waiting(admin: StaffSignIn) {
  return (await call(admin, 'GET', teamPaths.team)).json<Team>().invites;
}

describe('waiting invites: who sent them, revoking, withdrawn with their sender', () => {
  it('lists each with who sent it, when, and until when; an admin revokes one (audited) and its link works no more', async () => {
    const admin = await signInStaff(app);
    const selfId = await idOf(staffEnv.ADMIN_EMAIL);
    const email = newEmail();
    const token = await invite(admin, email);
    const listed = (await waiting(admin)).find((each) => each.email === email);
    expect(listed).toMatchObject({ role: 'agent', invitedAt: expect.any(String), expiresAt: expect.any(String) });
    expect(listed?.invitedBy).toEqual({ id: selfId, email: staffEnv.ADMIN_EMAIL, displayName: expect.any(String) });

    const revoked = await call(admin, 'POST', pathTo(teamPaths.revokeInvite, { id: listed!.id }));
    expect(revoked.statusCode).toBe(200);
    expect((await waiting(admin)).map((each) => each.email)).not.toContain(email);
    expect((await app.inject({ method: 'GET', url: `${teamPaths.invite}?token=${token}` })).statusCode).toBe(400);
    expect((await accept(token)).statusCode).toBe(400);
    expect(await app.db.selectFrom('admins').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    const entry = (await auditEntries(admin, 'Revoked an invite')).entries.find((each) => each.subject === `invite #${listed!.id}`);
    expect(entry).toMatchObject({ action: 'staff.invite-revoked', actorId: selfId, actorEmail: staffEnv.ADMIN_EMAIL });

    const again = await call(admin, 'POST', pathTo(teamPaths.revokeInvite, { id: listed!.id }));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: inviteNotFoundMessage });
    expect((await call(admin, 'POST', pathTo(teamPaths.revokeInvite, { id: 'x' }))).statusCode).toBe(400);
  });

  it('withdraws the invites of an admin who is deactivated: the rogue link they sent on the way out does not work', async () => {
    const admin = await signInStaff(app);
    const leaving = await newMember('admin');
    const rogue = newEmail();
    const token = await invite(leaving, rogue, 'admin');
    const other = newEmail();
    const kept = await invite(admin, other);

    const deactivated = await call(admin, 'POST', pathTo(teamPaths.deactivate, { id: leaving.id }));
    expect(deactivated.statusCode).toBe(200);
    const left = (await waiting(admin)).map((each) => each.email);
    expect(left).not.toContain(rogue);
    expect(left).toContain(other);
    expect((await accept(token)).statusCode).toBe(400);
    expect(await app.db.selectFrom('admins').select('id').where('email', '=', rogue).executeTakeFirst()).toBeUndefined();
    const leavingEmail = (await app.db.selectFrom('admins').select('email').where('id', '=', leaving.id).executeTakeFirstOrThrow()).email;
    expect((await auditEntries(admin, leavingEmail)).entries.find((each) => each.action === 'staff.deactivated')?.detail).toBe('1 invite withdrawn');
    // Another admin's invite is untouched.
    expect((await accept(kept)).statusCode).toBe(200);
  });

  it('withdraws the invites of an admin who is made an agent', async () => {
    const admin = await signInStaff(app);
    const demoted = await newMember('admin');
    const rogue = newEmail();
    const token = await invite(demoted, rogue, 'admin');
    const changed = await call(admin, 'PATCH', pathTo(teamPaths.member, { id: demoted.id }), { role: 'agent' });
    expect(changed.json()).toMatchObject({ role: 'agent' });
    expect((await waiting(admin)).map((each) => each.email)).not.toContain(rogue);
    expect((await accept(token)).statusCode).toBe(400);
    const entry = (await auditEntries(admin, 'Changed a role')).entries[0];
    expect(entry?.detail).toBe('role: agent, 1 invite withdrawn');
  });

  it('refuses a link whose sender is no longer an active admin, however the invite survived', async () => {
    const admin = await signInStaff(app);
    for (const change of [{ deactivatedAt: new Date().toISOString() }, { role: 'agent' as const }]) {
      const sender = await newMember('admin');
      const email = newEmail();
      const token = await invite(sender, email, 'admin');
      // Straight in the table, as an invite from before withdrawal would be: the use itself checks the sender.
      await app.db.updateTable('admins').set(change).where('id', '=', sender.id).execute();
      expect((await app.inject({ method: 'GET', url: `${teamPaths.invite}?token=${token}` })).statusCode).toBe(400);
      const refused = await accept(token);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ message: inviteLinkInvalidMessage });
      expect(await app.db.selectFrom('admins').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
      // Back as an active admin, the same link works: it was never spent.
      await app.db.updateTable('admins').set({ deactivatedAt: null, role: 'admin' }).where('id', '=', sender.id).execute();
      expect((await accept(token)).statusCode).toBe(200);
    }
    expect(admin).toBeDefined();
  });
});

