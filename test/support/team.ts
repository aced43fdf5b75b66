import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { apiPaths } from '../../api/contract/paths';
import { auditPaths, type AuditPage } from '../../api/contract/audit';
import { teamPaths } from '../../api/contract/team';
import { signInNewStaff, staffEnv, type StaffSignIn } from './factories';
import { readOutbox } from './outbox';

/** The team tests' steps on one test server (its app and folder): new addresses and names, invites through the outbox, calls as a signed-in staff member. */
export function teamSteps(app: FastifyInstance, dir: string) {
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

  let nameCount = 0;
  /** A display name no one else on the team has (names are unique by look: see api/contract/display-name.ts). */
  function newName(): string {
    nameCount += 1;
    // Letters that look like no other letter or pair (i and l, o and 0, rn and m, vv and w).
    const alphabet = 'abcdefghjkmpqstuxyz';
    let letters = '';
    for (let n = nameCount; n > 0; n = Math.floor((n - 1) / alphabet.length)) letters = alphabet[(n - 1) % alphabet.length]! + letters;
    return `Dana ${letters}`;
  }

  /** Invites `email` as `admin`, runs the mail job and answers the link's token from the outbox. */
  async function invite(admin: StaffSignIn, email: string, role: 'admin' | 'agent' = 'agent', displayName = newName()): Promise<string> {
    const response = await call(admin, 'POST', teamPaths.invites, { email, displayName, role });
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

  return { newEmail, call, idOf, newMember, newName, invite, onlyAdmin, accept, sessionOf, auditEntries };
}
