// @scaled: name checks read members and invites together; audit rows per dialect
import { describe, expect, it } from 'vitest';
import { controlCharacterMessage } from '../../contract/common';
import {
  displayNameBrandMessage,
  displayNameCharactersMessage,
  displayNameLinkMessage,
  displayNameReservedMessage,
  displayNameTakenMessage,
} from '../../contract/display-name';
import { type Team, teamPaths } from '../../contract/team';
import { signInStaff, staffEnv } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';
import { teamSteps } from '../../../test/support/team';

const { app, dir } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
const { newEmail, call, newMember, invite, sessionOf, auditEntries } = teamSteps(app, dir);

describe('display names: unique by look, no links, markup, brand or official words', () => {
  it('refuses, with the reason, a name that is or looks like another member’s or a waiting invite’s, and changes nothing', async () => {
    const admin = await signInStaff(app);
    const sam = await newMember('agent');
    expect((await call(sam, 'PATCH', teamPaths.me, { displayName: 'Sam Quill' })).statusCode).toBe(200);
    const other = await newMember('agent');
    const before = await app.db.selectFrom('admins').select('displayName').where('id', '=', other.id).executeTakeFirstOrThrow();
    for (const name of ['Sam Quill', 'SAM QUILL', 'Sаm Quіll', 'Sam  Qu ill', 'Sám Quill']) {
      const refused = await call(other, 'PATCH', teamPaths.me, { displayName: name });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ message: 'Validation failed', errors: { displayName: displayNameTakenMessage } });
    }
    expect(await app.db.selectFrom('admins').select('displayName').where('id', '=', other.id).executeTakeFirstOrThrow()).toEqual(before);
    // The member's own name, written another way, is theirs to keep.
    expect((await call(sam, 'PATCH', teamPaths.me, { displayName: 'Sam QUILL' })).statusCode).toBe(200);

    // A waiting invite holds its name; so does a member, for an invite.
    await invite(admin, newEmail(), 'agent', 'Rhea Vance');
    const clash = await call(other, 'PATCH', teamPaths.me, { displayName: 'Rhea Vance' });
    expect(clash.json()).toMatchObject({ errors: { displayName: displayNameTakenMessage } });
    const invitedTwice = await call(admin, 'POST', teamPaths.invites, { email: newEmail(), displayName: 'Rhea Vance', role: 'agent' });
    expect(invitedTwice.statusCode).toBe(400);
    const likeSam = await call(admin, 'POST', teamPaths.invites, { email: newEmail(), displayName: 'Sam Qui11', role: 'agent' });
    expect(likeSam.json()).toMatchObject({ errors: { displayName: displayNameTakenMessage } });
  });

  it.each([
    ['Lotwise Billing - verify your card at https://lotwise-billing.example', displayNameLinkMessage],
    ['pay at lotwise-help.com', displayNameLinkMessage],
    ['<img src=x onerror=alert(1)>', displayNameCharactersMessage],
    ['Dana [support](x)', displayNameCharactersMessage],
    ['Da\u200Bna', controlCharacterMessage],
    ['Dana\u0000', controlCharacterMessage],
    ['L0twise Team', displayNameBrandMessage],
    ['Admin', displayNameReservedMessage],
    ['Billing Department', displayNameReservedMessage],
  ])('refuses %j with a clear 400, on a rename and an invite', async (name, message) => {
    const admin = await signInStaff(app);
    const agent = await newMember('agent');
    const renamed = await call(agent, 'PATCH', teamPaths.me, { displayName: name });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json()).toMatchObject({ errors: { displayName: message } });
    const email = newEmail();
    const invited = await call(admin, 'POST', teamPaths.invites, { email, displayName: name, role: 'agent' });
    expect(invited.statusCode).toBe(400);
    expect(invited.json()).toMatchObject({ errors: { displayName: message } });
    expect(await app.db.selectFrom('staffInvites').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });

  it('keeps a name stored before the rules working until it is changed', async () => {
    const admin = await signInStaff(app);
    const legacy = await newMember('agent');
    await app.db.updateTable('admins').set({ displayName: 'Support Desk' }).where('id', '=', legacy.id).execute();
    expect((await sessionOf(legacy.cookie))?.displayName).toBe('Support Desk');
    const members = (await call(admin, 'GET', teamPaths.team)).json<Team>().members;
    expect(members.find((each) => each.id === legacy.id)?.displayName).toBe('Support Desk');
    // Its own form again is a change now, and is refused.
    expect((await call(legacy, 'PATCH', teamPaths.me, { displayName: 'Support Desk Two' })).json()).toMatchObject({ errors: { displayName: displayNameReservedMessage } });
  });
});

describe('the audit log names the actor as they were', () => {
  it('keeps each entry’s actor id, email and name then after a rename; the rename itself is audited with both names', async () => {
    const admin = await signInStaff(app);
    const actor = await newMember('admin');
    const actorEmail = (await app.db.selectFrom('admins').select('email').where('id', '=', actor.id).executeTakeFirstOrThrow()).email;
    expect((await call(actor, 'PATCH', teamPaths.me, { displayName: 'Priya Natarajan' })).statusCode).toBe(200);
    const email = newEmail();
    await invite(actor, email, 'agent');
    expect((await call(actor, 'PATCH', teamPaths.me, { displayName: 'Boss Person' })).statusCode).toBe(200);

    const entries = (await auditEntries(admin, actorEmail)).entries;
    const invited = entries.find((entry) => entry.action === 'staff.invited');
    expect(invited).toMatchObject({ actorId: actor.id, actorEmail, actorName: 'Priya Natarajan' });
    const renames = entries.filter((entry) => entry.action === 'staff.renamed');
    expect(renames.map((entry) => [entry.actorName, entry.detail])).toEqual([
      ['Priya Natarajan', 'from "Priya Natarajan" to "Boss Person"'],
      [actorEmail.split('@')[0], `from "${actorEmail.split('@')[0]}" to "Priya Natarajan"`],
    ]);
    expect(renames[0]).toMatchObject({ actorId: actor.id, actorEmail, subject: `Boss Person (${actorEmail})` });
    // The old name finds the entries it signed.
    expect((await auditEntries(admin, 'Priya')).entries.some((entry) => entry.action === 'staff.invited' && entry.actorId === actor.id)).toBe(true);
  });
});
