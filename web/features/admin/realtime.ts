import { timings } from '../../../api/contract/brand';
import { toast } from '../../components/ui/toast';
import type { AdminSocket } from './api/admin-socket';
import type { InboxController } from './inbox-controller';
import { useStaffSession } from './session-store';
import { useLiveStatus } from './stores/live-status-store';

/**
 * Wires the staff socket's events into the dashboard's inbox and the staff session. Returns the
 * unbinding. `firstLoad` is the dashboard's first load of the lists, made while this socket connects.
 */
export function bindAdminSocket(socket: AdminSocket, inbox: InboxController, firstLoad: Promise<void>): () => void {
  const typingTimers = new Map<string, ReturnType<typeof setTimeout>>();

  // What arrives while the socket is not connected is pushed to nobody: every connection catches up.
  // The first one does so after the first load, which may have read the lists before it connected.
  let caughtUp = firstLoad;
  const catchUp = () => {
    caughtUp = caughtUp.then(() => inbox.catchUp());
  };

  // While the socket is down and trying again (a network that blocks WebSockets, a node restarting),
  // the lists are read on a timer instead, and the header says live updates are paused.
  // A read still under way when the timer fires (a slow network) is not joined by another.
  let offlineRefresh: ReturnType<typeof setInterval> | undefined;
  let refreshing = false;
  const refreshWhileOffline = () => {
    if (refreshing) return;
    refreshing = true;
    catchUp();
    void caughtUp.finally(() => (refreshing = false));
  };
  const pause = () => {
    useLiveStatus.getState().setPaused(true);
    offlineRefresh ??= setInterval(refreshWhileOffline, timings.staffOfflineRefreshMs);
  };
  const resume = () => {
    clearInterval(offlineRefresh);
    offlineRefresh = undefined;
    useLiveStatus.getState().setPaused(false);
  };

  // A handshake that neither completes nor fails (a proxy that swallows the upgrade) pauses too.
  const firstConnect = setTimeout(() => {
    if (!socket.connected) pause();
  }, timings.staffOfflineRefreshMs);

  socket.on('connect', () => {
    clearTimeout(firstConnect);
    resume();
    catchUp();
  });
  socket.on('connect_error', () => {
    // The server refuses the handshake without a live staff session: ask it whether that is why.
    if (!socket.active) void useStaffSession.getState().recheck();
    else pause();
  });
  socket.on('disconnect', (reason) => {
    // The server closed it (logout elsewhere, expiry): it will not reconnect by itself.
    if (reason === 'io server disconnect') void useStaffSession.getState().recheck();
    else if (socket.active) pause();
  });
  socket.on('session:expired', () => useStaffSession.getState().expire('server'));

  socket.on('submission:new', (payload) => inbox.push({ event: 'submission:new', payload }));
  socket.on('lead:updated', (payload) => inbox.push({ event: 'lead:updated', payload }));
  socket.on('chat-session:updated', (payload) => inbox.push({ event: 'chat-session:updated', payload }));
  socket.on('chat:message', (payload) => inbox.push({ event: 'chat:message', payload }));
  // A node passed its daily bound on anonymous traffic: chats still come in, mail about them stops today.
  socket.on('alert:anonymous-budget', ({ conversations, messages }) =>
    toast({
      title: 'Unusual chat traffic today',
      description: `${conversations} new chats and ${messages} visitor messages so far today, more than the daily limit: chats still come in, but no mail goes out about them until tomorrow (UTC). Keep an eye on the inbox.`,
      variant: 'destructive',
    }),
  );
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
    clearTimeout(firstConnect);
    resume();
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
    socket.off('alert:anonymous-budget');
  };
}
