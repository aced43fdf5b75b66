// @scaled: deactivation closing sockets through the Redis adapter
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { pathTo } from '../../contract/paths';
import { teamPaths } from '../../contract/team';
import { signInNewStaff, signInStaff, staffEnv } from '../../../test/support/factories';
import { onPostgres } from '../../../test/support/database';
import { buildTestServer, freshDatabaseEnv, type TestServer } from '../../../test/support/helper';
import { closeClients, nextEvent } from '../../../test/support/sockets';
import { connectStaffSocket } from '../../../test/support/staff-socket';

afterEach(() => closeClients());

/** The id of the account signed in on a session. */
async function accountOf(node: TestServer, sid: string): Promise<number> {
  const row = await node.app.db.selectFrom('sessions').select('adminId').where('sid', '=', sid).executeTakeFirstOrThrow();
  return row.adminId!;
}

describe('deactivating a member', async () => {
  const node = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { listen: true });

  it('disconnects their open dashboard sockets at once, telling them the session expired', async () => {
    const admin = await signInStaff(node.app);
    const member = await signInNewStaff(node.app);
    const socket = await connectStaffSocket(node.app, member.cookie);
    const adminSocket = await connectStaffSocket(node.app, admin.cookie);
    const expired = nextEvent(socket, 'session:expired', 2000);
    const gone = nextEvent(socket, 'disconnect', 2000);
    const answer = await node.app.inject({
      method: 'POST',
      url: pathTo(teamPaths.deactivate, { id: await accountOf(node, member.sid) }),
      headers: { cookie: admin.cookie },
    });
    expect(answer.statusCode).toBe(200);
    await expired;
    // Well within the idle check's 30 s: the deactivation's own push.
    expect(await gone).toBe('io server disconnect');
    expect(adminSocket.connected).toBe(true);
    // The cookie opens no new socket either.
    await expect(connectStaffSocket(node.app, member.cookie)).rejects.toThrow();
  });
});

/** Two nodes of one deployment: one PostgreSQL database, one Redis. */
describe.runIf(onPostgres)('deactivating a member on another node', async () => {
  const shared = { ...staffEnv, ...(await freshDatabaseEnv()), REDIS_KEY_PREFIX: `team-${randomBytes(6).toString('hex')}:`, RATE_LIMIT_ALLOWLIST: '127.0.0.1' };
  const a = await buildTestServer(shared, { listen: true });
  const b = await buildTestServer(shared, { listen: true });

  it('disconnects their socket on the other node at once', async () => {
    const admin = await signInStaff(a.app);
    const member = await signInNewStaff(b.app);
    const socket = await connectStaffSocket(b.app, member.cookie);
    const gone = nextEvent(socket, 'disconnect', 2000);
    const answer = await a.app.inject({
      method: 'POST',
      url: pathTo(teamPaths.deactivate, { id: await accountOf(a, member.sid) }),
      headers: { cookie: admin.cookie },
    });
    expect(answer.statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
  });
});
