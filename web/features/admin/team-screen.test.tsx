import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../../api/contract/auth';
import type { AuditPage } from '../../../api/contract/audit';
import { displayNameTakenMessage } from '../../../api/contract/display-name';
import { lastAdminMessage, type Team, type TeamMember } from '../../../api/contract/team';
import { Toaster } from '../../components/ui/toast';
import { AdminRoute } from './test/admin-route';
import { fakeServer, type FakeServer } from './test/fake-server';
import { advance, freshDashboard } from './test/dashboard';
// The screens' lazy chunks, loaded before the fake clock starts (a chunk's first load is real I/O).
import './components/team-screen';
import './components/audit-screen';
import './components/join-team';

vi.mock('./api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

beforeEach(() => {
  freshDashboard();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const me: TeamMember = {
  id: 1,
  email: 'dana@lotwise.example',
  displayName: 'Dana',
  role: 'admin',
  active: true,
  lastSignInAt: '2026-11-21T11:00:00.000Z',
  createdAt: '2026-11-01T09:00:00.000Z',
};
const sam: TeamMember = { ...me, id: 2, email: 'sam@lotwise.example', displayName: 'Sam', role: 'agent', lastSignInAt: null };

function sessionAs(role: 'admin' | 'agent', displayName = 'Dana'): SessionInfo {
  return { admin: { email: me.email, role, displayName }, dealer: null, staffIdleMinutes: 10 };
}

/** A server with a team of two (and an invite waiting), signed in as Dana with `role`. */
function teamServer(role: 'admin' | 'agent' = 'admin'): FakeServer & { team: Team } {
  const server = fakeServer({ admin: me.email });
  const team: Team = {
    members: [me, sam],
    invites: [
      {
        id: 7,
        email: 'lee@lotwise.example',
        displayName: 'Lee',
        role: 'agent',
        invitedAt: '2026-11-21T10:00:00.000Z',
        expiresAt: '2026-11-23T10:00:00.000Z',
        invitedBy: { id: 2, email: 'sam@lotwise.example', displayName: 'Sam' },
      },
    ],
  };
  server.on('GET /api/session', () => ({ body: sessionAs(role) }));
  server.on('GET /api/team', () => ({ body: team }));
  return { ...server, team };
}

async function renderAt(at: string) {
  render(
    <>
      <AdminRoute at={at} />
      <Toaster />
    </>,
  );
  // The session, then the screen's lazy chunk, then its data.
  for (let step = 0; step < 5; step += 1) await advance(10);
}

function nav(): HTMLElement {
  return screen.getByRole('navigation', { name: 'Dashboard' });
}

describe('the dashboard header', () => {
  it('shows the signed-in member’s name and role, and admins the links of the admin-only screens', async () => {
    teamServer('admin');
    await renderAt('/admin');
    expect(screen.getByTestId('own-display-name')).toHaveTextContent('Dana');
    expect(screen.getByTestId('own-role')).toHaveTextContent('Admin');
    expect(within(nav()).getAllByRole('link').map((link) => link.textContent)).toEqual(['Inbox', 'Reports', 'Canned replies', 'Team', 'Audit log', 'Webhooks', 'Data requests', 'Dead jobs']);
    expect(within(nav()).getByRole('link', { name: 'Inbox' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows an agent only the screens every staff member may use, and /admin/team tells them it is for admins without asking the server', async () => {
    const server = teamServer('agent');
    await renderAt('/admin/team');
    expect(screen.getByTestId('own-role')).toHaveTextContent('Agent');
    expect(within(nav()).getAllByRole('link').map((link) => link.textContent)).toEqual(['Inbox', 'Reports', 'Canned replies']);
    expect(screen.getByText('Only admins can manage the team.')).toBeInTheDocument();
    expect(server.calls.some((call) => call.startsWith('GET /api/team'))).toBe(false);
  });

  it('lets a member change their own display name', async () => {
    const server = teamServer('agent');
    server.on('PATCH /api/team/me', ({ body }) => ({ body: { email: me.email, role: 'agent', displayName: (body as { displayName: string }).displayName } }));
    await renderAt('/admin');
    fireEvent.click(screen.getByTestId('own-display-name'));
    const field = screen.getByLabelText('Display name');
    fireEvent.change(field, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await advance(10);
    expect(screen.getByText('Display name cannot be empty')).toBeInTheDocument();
    fireEvent.change(field, { target: { value: 'Dana R.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await advance(10);
    expect(server.bodies.filter((each) => each.call === 'PATCH /api/team/me').map((each) => each.body)).toEqual([{ displayName: 'Dana R.' }]);
    expect(screen.getByTestId('own-display-name')).toHaveTextContent('Dana R.');
  });
});

describe('the Team screen', () => {
  it('lists members with role, state and last sign-in, and the invites waiting; no Deactivate on your own row', async () => {
    teamServer();
    await renderAt('/admin/team');
    expect(screen.getByRole('heading', { name: 'Team' })).toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: 'Team' })).toHaveAttribute('aria-current', 'page');
    const rows = screen.getAllByTestId('team-member');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('(you)')).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button', { name: /Deactivate/ })).toBeNull();
    expect(within(rows[1]!).getByLabelText('Role of Sam')).toHaveValue('agent');
    expect(within(rows[1]!).getByText('Never signed in')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Active')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Invites waiting' })).getByText('lee@lotwise.example')).toBeInTheDocument();
  });

  it('invites by email, name and role: checks the form first, then sends it and shows the new invite', async () => {
    const server = teamServer();
    server.on('POST /api/team/invites', ({ body }) => {
      const input = body as { email: string; displayName: string; role: 'agent' };
      server.team.invites.push({ id: 8, ...input, invitedAt: '2026-11-21T12:00:00.000Z', expiresAt: '2026-11-23T12:00:00.000Z', invitedBy: { id: 1, email: me.email, displayName: 'Dana' } });
      return { status: 201, body: server.team.invites.at(-1) };
    });
    await renderAt('/admin/team');
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'not an email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invite' }));
    await advance(10);
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.startsWith('POST /api/team/invites'))).toEqual([]);

    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'kim@lotwise.example' } });
    fireEvent.change(screen.getByLabelText(/^Display name/), { target: { value: 'Kim' } });
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'admin' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invite' }));
    for (let step = 0; step < 3; step += 1) await advance(10);
    expect(server.bodies.filter((each) => each.call === 'POST /api/team/invites').map((each) => each.body)).toEqual([
      { email: 'kim@lotwise.example', displayName: 'Kim', role: 'admin' },
    ]);
    expect(screen.getByText('Invite sent')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Invites waiting' })).getByText('kim@lotwise.example')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveValue('');
  });

  it('lists each waiting invite with who sent it, when and until when, and revokes one only after asking', async () => {
    const server = teamServer();
    server.on('POST /api/team/invites/7/revoke', () => ({ body: { ok: true } }));
    await renderAt('/admin/team');
    const row = within(screen.getByRole('list', { name: 'Invites waiting' })).getAllByTestId('waiting-invite')[0]!;
    expect(within(row).getByTestId('invited-by')).toHaveTextContent(/^Invited by Sam \(sam@lotwise\.example\) on Nov 21, \d{1,2}:00 [AP]M$/);
    expect(row).toHaveTextContent(/Link works until Nov 23/);
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke the invite for lee@lotwise.example' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke the invite for Lee?' });
    expect(dialog).toHaveTextContent('The link sent to lee@lotwise.example stops working at once.');
    expect(server.calls.filter((call) => call.includes('/revoke'))).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await advance(200);
    expect(server.calls.filter((call) => call.includes('/revoke'))).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Revoke the invite for lee@lotwise.example' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Revoke the invite for Lee?' })).getByRole('button', { name: 'Revoke invite' }));
    await advance(10);
    expect(server.calls.filter((call) => call.includes('/revoke'))).toEqual(['POST /api/team/invites/7/revoke']);
    await advance(200);
    expect(screen.getByText('Invite revoked')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Invites waiting' })).toBeNull();
  });

  it('refuses at the form an invite whose name looks like a member’s or a waiting invite’s, with the server’s message', async () => {
    const server = teamServer();
    await renderAt('/admin/team');
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'kim@lotwise.example' } });
    for (const name of ['SAM', 'Lее']) {
      fireEvent.change(screen.getByLabelText(/^Display name/), { target: { value: name } });
      fireEvent.click(screen.getByRole('button', { name: 'Send invite' }));
      await advance(10);
      expect(screen.getByText(displayNameTakenMessage)).toBeInTheDocument();
    }
    fireEvent.change(screen.getByLabelText(/^Display name/), { target: { value: 'Billing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invite' }));
    await advance(10);
    expect(screen.getByText(/cannot be or contain a word such as admin, support, billing/)).toBeInTheDocument();
    expect(server.calls.filter((call) => call.startsWith('POST /api/team/invites'))).toEqual([]);
  });

  it('changes a role, and shows the server’s reason when the last admin cannot be demoted', async () => {
    const server = teamServer();
    server.on('PATCH /api/team/members/2', () => ({ body: { ...sam, role: 'admin' } }));
    server.on('PATCH /api/team/members/1', () => ({ status: 409, body: { message: lastAdminMessage } }));
    await renderAt('/admin/team');
    fireEvent.change(screen.getByLabelText('Role of Sam'), { target: { value: 'admin' } });
    await advance(10);
    expect(screen.getByLabelText('Role of Sam')).toHaveValue('admin');
    fireEvent.change(screen.getByLabelText('Role of Dana'), { target: { value: 'agent' } });
    await advance(10);
    expect(screen.getByText(lastAdminMessage)).toBeInTheDocument();
    expect(screen.getByLabelText('Role of Dana')).toHaveValue('admin');
  });

  it('deactivates after asking, then offers Reactivate', async () => {
    const server = teamServer();
    server.on('POST /api/team/members/2/deactivate', () => ({ body: { ...sam, active: false } }));
    server.on('POST /api/team/members/2/reactivate', () => ({ body: sam }));
    await renderAt('/admin/team');
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate Sam' }));
    const dialog = screen.getByRole('dialog', { name: 'Deactivate Sam?' });
    expect(server.calls.filter((call) => call.includes('/deactivate'))).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await advance(10);
    expect(server.calls.filter((call) => call.includes('/deactivate'))).toEqual(['POST /api/team/members/2/deactivate']);
    await advance(200);
    expect(screen.queryByRole('dialog')).toBeNull();
    const row = screen.getAllByTestId('team-member')[1]!;
    expect(within(row).getByText('Deactivated')).toBeInTheDocument();
    fireEvent.click(within(row).getByRole('button', { name: 'Reactivate Sam' }));
    await advance(10);
    expect(within(screen.getAllByTestId('team-member')[1]!).getByText('Active')).toBeInTheDocument();
  });
});

describe('the Audit log screen', () => {
  it('shows who did what and when, newest first, pages by cursor and searches', async () => {
    const server = teamServer();
    const entry = (id: number, action: string, subject: string | null) => ({
      id,
      at: `2026-11-21T11:${String(id).padStart(2, '0')}:00.000Z`,
      action,
      actorId: 1,
      actorEmail: me.email,
      actorName: 'Dana',
      subject,
      detail: null,
    });
    server.on('GET /api/audit', ({ url }): { body: AuditPage } => {
      if (url.searchParams.get('q')) return { body: { entries: [entry(1, 'staff.deactivated', 'Sam')], nextCursor: null } };
      if (url.searchParams.get('before')) return { body: { entries: [entry(2, 'staff.signed-in', 'Dana')], nextCursor: null } };
      return { body: { entries: [entry(3, 'staff.invited', 'invite #7')], nextCursor: '1763722980000:3' } };
    });
    await renderAt('/admin/audit');
    expect(screen.getByRole('heading', { name: 'Audit log' })).toBeInTheDocument();
    expect(screen.getAllByTestId('audit-entry').map((row) => row.textContent)).toEqual([expect.stringContaining('Danadana@lotwise.example · #1Invited a team member: invite #7')]);
    fireEvent.click(screen.getByRole('button', { name: 'Show older entries' }));
    await advance(10);
    expect(server.calls).toContain('GET /api/audit?before=1763722980000%3A3');
    expect(screen.getAllByTestId('audit-entry')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Show older entries' })).toBeNull();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search the audit log' }), { target: { value: 'deactivated' } });
    await advance(400);
    await advance(10);
    expect(server.calls).toContain('GET /api/audit?q=deactivated');
    expect(screen.getAllByTestId('audit-entry').map((row) => row.textContent)).toEqual([expect.stringContaining('Deactivated a team member: Sam')]);
  });
});

describe('the Audit log screen’s actors', () => {
  it('names each actor as they were then, with their email and account id; the app itself as automatic', async () => {
    const server = teamServer();
    server.on('GET /api/audit', (): { body: AuditPage } => ({
      body: {
        entries: [
          { id: 9, at: '2026-11-21T11:09:00.000Z', action: 'staff.renamed', actorId: 4, actorEmail: 'kai@lotwise.example', actorName: 'Kai', subject: 'admin (kai@lotwise.example)', detail: 'from "Kai" to "Kai B."' },
          { id: 8, at: '2026-11-21T11:08:00.000Z', action: 'chat.assigned', actorId: null, actorEmail: null, actorName: null, subject: 'conversation 3f2a9c1d', detail: 'assignee: 4 (auto)' },
        ],
        nextCursor: null,
      },
    }));
    await renderAt('/admin/audit');
    const [renamed, automatic] = screen.getAllByTestId('audit-entry');
    expect(within(renamed!).getByTestId('audit-actor')).toHaveTextContent(/^Kaikai@lotwise\.example · #4$/);
    expect(renamed).toHaveTextContent('Changed their display name: admin (kai@lotwise.example) (from "Kai" to "Kai B.")');
    expect(within(automatic!).queryByTestId('audit-actor')).toBeNull();
    expect(automatic).toHaveTextContent('Lotwise (automatic)');
  });
});

describe('an invite link', () => {
  it('asks for a password twice, signs the invitee in and opens the inbox', async () => {
    const server = fakeServer({ admin: null });
    server.on('GET /api/team/invite', ({ url }) =>
      url.searchParams.get('token') === 'a-good-token-of-forty-three-characters-xyz' ? { body: { email: 'kim@lotwise.example', displayName: 'Kim' } } : { status: 400, body: { message: 'no' } },
    );
    server.on('POST /api/team/invite/accept', () => ({
      body: { message: 'Welcome to the team', admin: { email: 'kim@lotwise.example', role: 'agent', displayName: 'Kim' }, staffIdleMinutes: 10 },
    }));
    await renderAt('/admin/join?token=a-good-token-of-forty-three-characters-xyz');
    expect(screen.getByTestId('current-address')).toHaveTextContent(/^\/admin\/join$/);
    expect(screen.getByText(/Welcome, Kim/)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'a-long-new-password-9' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'something else' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    await advance(10);
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'a-long-new-password-9' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    for (let step = 0; step < 4; step += 1) await advance(10);
    expect(server.bodies.filter((each) => each.call === 'POST /api/team/invite/accept').map((each) => each.body)).toEqual([
      { token: 'a-good-token-of-forty-three-characters-xyz', password: 'a-long-new-password-9' },
    ]);
    expect(screen.getByTestId('current-address')).toHaveTextContent(/^\/admin$/);
    expect(screen.getByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByTestId('own-role')).toHaveTextContent('Agent');
  });

  it('says plainly when the link does not work', async () => {
    const server = fakeServer({ admin: null });
    server.on('GET /api/team/invite', () => ({ status: 400, body: { message: 'no' } }));
    await renderAt('/admin/join?token=a-used-token-of-forty-three-characters-xyzw');
    expect(screen.getByRole('alert')).toHaveTextContent('This invite link is invalid, used or expired');
  });
});
