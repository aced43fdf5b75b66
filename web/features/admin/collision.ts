import type { QueryClient } from '@tanstack/react-query';
import { replyTypingTimings } from '../../../api/contract/team-inbox-notes';
import type { AdminSocket } from './api/admin-socket';
import { putChatNote } from './api/team-inbox-queries';
import { useChatUi } from './stores/chat-ui-store';
import { useCollision } from './stores/collision-store';

let boundSocket: AdminSocket | null = null;

/** This staff member types in a conversation's reply box (true) or stopped (false): told to the other staff only. */
export function emitReplyTyping(sessionId: string, typing: boolean): void {
  if (boundSocket?.connected) boundSocket.emit('chat:typing-reply', { sessionId, typing });
}

/**
 * Wires collision and notes into the staff socket: says which conversation this dashboard shows (on
 * each connect, and whenever the open one changes), keeps who views and types where, and adds pushed
 * notes to their conversation. "Is typing a reply" ends a few seconds after the last word on this
 * side (a closed tab says nothing). Returns the unbinding.
 */
export function bindCollision(socket: AdminSocket, queryClient: QueryClient): () => void {
  boundSocket = socket;
  const collision = useCollision.getState();
  const typingTimers = new Map<string, ReturnType<typeof setTimeout>>();

  const announceOpen = () => socket.emit('chat:viewing', { sessionId: useChatUi.getState().openSessionId });
  const onConnect = () => {
    socket.emit('chat:viewers', (answer) => {
      if (answer.ok) collision.loaded(answer.staffId, answer.sessions);
    });
    announceOpen();
  };
  const stopOpenWatch = useChatUi.subscribe((state, previous) => {
    if (state.openSessionId !== previous.openSessionId && socket.connected) announceOpen();
  });

  const onViewers: Parameters<typeof socket.on<'chat:viewers'>>[1] = (update) => collision.setViewers(update);
  const onTypingReply: Parameters<typeof socket.on<'chat:typing-reply'>>[1] = ({ sessionId, staffId, name, typing }) => {
    const key = `${sessionId}:${staffId}`;
    clearTimeout(typingTimers.get(key));
    typingTimers.delete(key);
    collision.setTyping(sessionId, { staffId, name }, typing);
    if (!typing) return;
    typingTimers.set(
      key,
      setTimeout(() => {
        typingTimers.delete(key);
        collision.setTyping(sessionId, { staffId, name }, false);
      }, replyTypingTimings.shownMaxMs),
    );
  };
  const onNote: Parameters<typeof socket.on<'chat:note'>>[1] = (note) => putChatNote(queryClient, note);

  socket.on('connect', onConnect);
  socket.on('chat:viewers', onViewers);
  socket.on('chat:typing-reply', onTypingReply);
  socket.on('chat:note', onNote);
  if (socket.connected) onConnect();

  return () => {
    stopOpenWatch();
    for (const timer of typingTimers.values()) clearTimeout(timer);
    socket.off('connect', onConnect);
    socket.off('chat:viewers', onViewers);
    socket.off('chat:typing-reply', onTypingReply);
    socket.off('chat:note', onNote);
    collision.reset();
    if (boundSocket === socket) boundSocket = null;
  };
}
