import type { FastifyInstance } from 'fastify';
import { timings } from '../../../contract/brand';
import { rooms } from '../../../contract/socket';
import type { StaffSocketData } from '../realtime/chat.socket-data';

/** Tells the sockets of a staff session that ended that it expired, then closes them. */
export function expireStaffSession(app: FastifyInstance, sid: string): void {
  const room = rooms.staffSession(sid);
  app.staffSockets.to(room).emit('session:expired');
  app.staffSockets.in(room).disconnectSockets(true);
}

/**
 * A staff sign-in that ends by a write (a sign-out, a deactivation) closes its dashboard sockets as
 * soon as the write commits, on every node (through the adapter): one listener for both.
 */
export function closeEndedStaffSessions(app: FastifyInstance): void {
  app.events.on('staff.signed-out', ({ sessionId }) => expireStaffSession(app, sessionId));
  app.events.on('staff.deactivated', ({ sessionIds }) => {
    for (const sid of sessionIds) expireStaffSession(app, sid);
  });
}

/**
 * Idle staff sessions end server-side: a check of the session of each staff socket of this process
 * (every 30 seconds, or twice per idle limit when that is shorter, on the app's clock) expires those
 * that ended. Safe on every node of a cluster: each reads the session from the shared store and looks
 * at its own sockets only. Two nodes holding sockets of one session may both expire it: the dashboard
 * acts once. Nothing is owed if a node stops: its sockets go with it.
 */
export function expireIdleStaffSockets(app: FastifyInstance): void {
  const checkEveryMs = Math.min(timings.staffIdleCheckMs, Math.max(250, app.staffIdleMs / 2));
  const check = () => {
    const sids = new Set<string>();
    for (const socket of app.staffSockets.sockets.values()) {
      const sid = (socket.data as Partial<StaffSocketData>).sid;
      if (sid) sids.add(sid);
    }
    for (const sid of sids) {
      app.isLiveStaffSid(sid).then(
        (live) => {
          if (!live) expireStaffSession(app, sid);
        },
        (error: unknown) => app.log.warn({ err: error }, 'staff session expiry check failed'),
      );
    }
    cancel = app.clock.after(checkEveryMs, check);
  };
  let cancel = app.clock.after(checkEveryMs, check);
  app.addHook('onClose', async () => cancel());
}
