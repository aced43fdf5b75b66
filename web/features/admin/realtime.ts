import { timings } from '../../../api/contract/brand';
import type { AdminSocket } from './api/admin-socket';
import type { InboxController } from './inbox-controller';
import { useStaffSession } from './session-store';

/**
 * Wires the staff socket's events into the dashboard's inbox and the staff session. Returns the
 * unbinding. `firstLoad` is the dashboard's first load of the lists, made while this socket connects.
 */
export function bindAdminSocket(socket: AdminSocket, inbox: InboxController, firstLoad: Promise<void>): () => void {
  const typingTimers = new Map<string, ReturnType<typeof setTimeout>>();

  // What arrives while the socket is not connected is pushed to nobody: every connection catches up.
  // The first one does so after the first load, which may have read the lists before it connected.
  let caughtUp = firstLoad;
  socket.on('connect', () => {
    caughtUp = caughtUp.then(() => inbox.catchUp());
  });
  socket.on('connect_error', () => {
    // The server refuses the handshake without a live staff session: ask it whether that is why.
    if (!socket.active) void useStaffSession.getState().recheck();
  });
  socket.on('disconnect', (reason) => {
    // The server closed it (logout elsewhere, expiry): it will not reconnect by itself.
    if (reason === 'io server disconnect') void useStaffSession.getState().recheck();
  });
  socket.on('session:expired', () => useStaffSession.getState().expire('server'));

  socket.on('submission:new', (payload) => inbox.push({ event: 'submission:new', payload }));
  socket.on('lead:updated', (payload) => inbox.push({ event: 'lead:updated', payload }));
  socket.on('chat-session:updated', (payload) => inbox.push({ event: 'chat-session:updated', payload }));
  socket.on('chat:message', (payload) => inbox.push({ event: 'chat:message', payload }));
  socket.on('chat:typing', ({ sessionId, typing }) => {
    clearTimeout(typingTimers.get(sessionId));
    typingTimers.delete(sessionId);
    inbox.push({ event: 'chat:typing', payload: { sessionId, typing } });
    if (!typing) return;
    typingTimers.set(
      sessionId,
      setTimeout(() => {
        typingTimers.delete(sessionId);
        inbox.push({ event: 'chat:typing', payload: { sessionId, typing: false } });
      }, timings.typingShownMaxMs),
    );
  });

  return () => {
    for (const timer of typingTimers.values()) clearTimeout(timer);
    socket.off('connect');
    socket.off('connect_error');
    socket.off('disconnect');
    socket.off('session:expired');
    socket.off('submission:new');
    socket.off('lead:updated');
    socket.off('chat-session:updated');
    socket.off('chat:message');
    socket.off('chat:typing');
  };
}
