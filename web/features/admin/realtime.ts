import { timings } from '../../../api/contract/brand';
import { chatSenderLabel } from '../../../api/contract/chat';
import type { AdminSocket } from './api/admin-socket';
import { useInbox } from './inbox-store';
import { createVisitorAlerts } from './lib/alerts';
import { createFrameBatcher } from './lib/frame-batcher';
import type { LiveEvent } from './live-events';
import { useStaffSession } from './session-store';

/**
 * Wires the staff socket's events into the inbox and session stores. Returns the unbinding.
 * `onOpenSession` lets a click on a notification open that conversation. `firstLoad` is the
 * dashboard's first load of the lists, made while this socket connects.
 */
export function bindAdminSocket(socket: AdminSocket, onOpenSession: (sessionId: string) => void, firstLoad: Promise<void>): () => void {
  const inbox = useInbox.getState;
  const typingTimers = new Map<string, ReturnType<typeof setTimeout>>();
  const alerts = createVisitorAlerts((sessionId) => {
    const session = inbox().chatSessions.find((known) => known.id === sessionId);
    return session ? chatSenderLabel(session) : 'a visitor';
  }, onOpenSession);
  // A flood of pushes (thousands of new chats) renders the dashboard once a frame, not once a push.
  const pushes = createFrameBatcher<LiveEvent>((events) => alerts.announce(inbox().applyLive(events)));

  // What arrives while the socket is not connected is pushed to nobody: every connection catches up.
  // The first one does so after the first load, which may have read the lists before it connected.
  let caughtUp = firstLoad;
  socket.on('connect', () => {
    caughtUp = caughtUp.then(() => inbox().refreshLive());
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

  socket.on('submission:new', (payload) => pushes.push({ event: 'submission:new', payload }));
  socket.on('lead:updated', (payload) => pushes.push({ event: 'lead:updated', payload }));
  socket.on('chat-session:updated', (payload) => pushes.push({ event: 'chat-session:updated', payload }));
  socket.on('chat:message', (payload) => pushes.push({ event: 'chat:message', payload }));
  socket.on('chat:typing', ({ sessionId, typing }) => {
    clearTimeout(typingTimers.get(sessionId));
    typingTimers.delete(sessionId);
    pushes.push({ event: 'chat:typing', payload: { sessionId, typing } });
    if (!typing) return;
    typingTimers.set(
      sessionId,
      setTimeout(() => {
        typingTimers.delete(sessionId);
        pushes.push({ event: 'chat:typing', payload: { sessionId, typing: false } });
      }, timings.typingShownMaxMs),
    );
  });

  return () => {
    for (const timer of typingTimers.values()) clearTimeout(timer);
    pushes.dispose();
    alerts.dispose();
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
