import { create } from 'zustand';
import { type ChatMessage, type ChatSessionStatus, type ChatSessionSummary, chatSessionCursor } from '../../../../api/contract/chat';
import { toast } from '../../../components/ui/toast';
import { adminApi, adminPageSize } from '../api/admin-api';
import { dataLoadFailed, isUnauthorized, saveFailed } from '../lib/failures';
import { ChatSessionsDraft, type ChatUpdate } from '../live-events';
import { type CountsChange, useCounts } from './counts-store';

interface OpenChat {
  sessionId: string;
  messages: ChatMessage[];
  loading: boolean;
  sending: boolean;
}

/** What a batch of updates leaves for others to do. */
export interface ChatBatchResult {
  /** Visitors' messages staff have not seen yet, in the order they came. */
  unseen: ChatMessage[];
  /** The cards' provisional moves. */
  counts: CountsChange;
  /** The first page should be read again: rows changed in ways only the server's summary tells. */
  reread: boolean;
  /** A status changed that the cards cannot move by themselves (its row was not held): ask the server. */
  recount: boolean;
  /** Sessions whose new visitor message staff saw in the open conversation. */
  markRead: string[];
}

interface ChatSessionsState {
  chatSessions: ChatSessionSummary[];
  /** The chat tab's search (server-side `?q=`: sender, session id, message text). */
  chatQuery: string;
  /** The chat tab's status filter (server-side `?status=`); null: every status. */
  chatStatus: ChatSessionStatus | null;
  chatLoading: boolean;
  chatLoadingMore: boolean;
  chatHasMore: boolean;
  openChat: OpenChat | null;
  /** Chat sessions whose visitor is typing right now. */
  visitorTyping: Record<string, boolean>;

  /** The first page for the search; replaces the list. Throws. */
  load: () => Promise<void>;
  loadMoreChats: () => Promise<void>;
  searchChats: (query: string) => Promise<void>;
  /** Shows only the sessions of one status (null: all), read from the server. */
  filterChats: (status: ChatSessionStatus | null) => Promise<void>;
  openSession: (sessionId: string) => Promise<void>;
  /** The open conversation read again (a catch-up), keeping what pushes added meanwhile; new visitor messages are read. Throws. */
  refreshOpenSession: () => Promise<void>;
  closeSession: () => void;
  markRead: (sessionId: string) => Promise<void>;
  /** Marks the open conversation read if visitor messages came while the tab was hidden. */
  markOpenSessionRead: () => void;
  sendReply: (text: string) => Promise<boolean>;
  setChatStatus: (sessionId: string, status: ChatSessionStatus) => Promise<void>;
  /** Pushes and fresh pages, in the order they came, in one update. */
  applyLive: (updates: ChatUpdate[]) => ChatBatchResult;
  reset: () => void;
}

function emptyChats(): Pick<
  ChatSessionsState,
  'chatSessions' | 'chatQuery' | 'chatStatus' | 'chatLoading' | 'chatLoadingMore' | 'chatHasMore' | 'openChat' | 'visitorTyping'
> {
  return { chatSessions: [], chatQuery: '', chatStatus: null, chatLoading: false, chatLoadingMore: false, chatHasMore: false, openChat: null, visitorTyping: {} };
}

/**
 * The row of a session the list did not hold, from its pushed message alone, shown until the
 * server's summary comes: the message is the session's only one as far as this screen knows.
 */
function provisionalRow(message: ChatMessage, unread: boolean): ChatSessionSummary {
  return {
    id: message.sessionId,
    senderName: message.isFromUser ? message.senderName : null,
    senderEmail: message.senderEmail,
    hasCustomerMessage: message.isFromUser,
    lastMessage: message.message,
    messageCount: 1,
    lastMessageId: message.id,
    lastMessageSeq: message.seq,
    lastActivity: message.createdAt,
    unreadCount: unread ? 1 : 0,
    status: 'open',
    pageUrl: null,
    referrer: null,
    userAgent: null,
    createdAt: message.createdAt,
  };
}

/** One conversation's messages in the session's order (seq: ids can commit out of order across server processes). */
function inSessionOrder(messages: ChatMessage[]): ChatMessage[] {
  return messages.sort((a, b) => a.seq - b.seq);
}

export const useChatSessions = create<ChatSessionsState>((set, get) => {
  // A list answered after a newer request for it is dropped (typing in the search box).
  let latestList = 0;
  // Bumped at sign-out: the answers of calls made before it are dropped.
  let generation = 0;
  // Sessions the unread card already counts while their row does not show it yet (a push made them
  // unread; the server's row for them has not come). Their next visitor message adds nothing more.
  const countedAhead = new Set<string>();

  function applyUpdates(updates: ChatUpdate[]): ChatBatchResult {
    const state = get();
    const sessions = new ChatSessionsDraft(state.chatSessions);
    let { openChat, visitorTyping } = state;
    const setTyping = (sessionId: string, typing: boolean) => {
      if (visitorTyping[sessionId] !== typing) visitorTyping = { ...visitorTyping, [sessionId]: typing };
    };
    const result: ChatBatchResult = { unseen: [], counts: {}, reread: false, recount: false, markRead: [] };
    const counts = { chatSessions: 0, unreadChats: 0, 'chatSessions.open': 0, 'chatSessions.resolved': 0 };
    const filter = state.chatStatus;
    const shownUnread = (sessionId: string) => (sessions.get(sessionId)?.unreadCount ?? 0) > 0 || countedAhead.has(sessionId);
    const lastHeld = state.chatSessions[state.chatSessions.length - 1];

    /** A row from the server takes the place of the one held; the unread card follows it. */
    const putServerRow = (row: ChatSessionSummary, origin: 'push' | 'answer') => {
      const held = sessions.get(row.id);
      if (held && row.lastMessageSeq < held.lastMessageSeq) {
        // The row held shows a newer message. A re-read answered before it is followed by one
        // asked after it; a pushed row (a status change) needs a re-read of its own.
        if (origin === 'push') result.reread = true;
        return;
      }
      counts.unreadChats += Number(row.unreadCount > 0) - Number(shownUnread(row.id));
      countedAhead.delete(row.id);
      if (held && held.status !== row.status) {
        counts[`chatSessions.${held.status}`] -= 1;
        counts[`chatSessions.${row.status}`] += 1;
      } else if (!held && origin === 'push') {
        result.recount = true;
      }
      // A row that left the status filter leaves the list.
      if (filter && row.status !== filter) sessions.remove(row.id);
      else sessions.put(row);
    };

    for (const update of updates) {
      switch (update.event) {
        case 'chat:message': {
          const message = update.payload;
          const { sessionId } = message;
          const isOpenHere = openChat?.sessionId === sessionId;
          if (openChat && isOpenHere && !openChat.messages.some((known) => known.id === message.id)) {
            openChat = { ...openChat, messages: inSessionOrder([...openChat.messages, message]) };
          }
          if (message.isFromUser && visitorTyping[sessionId]) setTyping(sessionId, false);
          const seen = isOpenHere && document.visibilityState === 'visible';
          const unseenVisitor = message.isFromUser && !seen;
          if (unseenVisitor) result.unseen.push(message);
          const held = sessions.get(sessionId);
          // The row was read after this message was stored (a catch-up, our own reply): it holds it.
          if (held && held.lastMessageSeq >= message.seq) break;
          if (seen && message.isFromUser) result.markRead.push(sessionId);
          else result.reread = true;
          if (unseenVisitor && !shownUnread(sessionId)) {
            counts.unreadChats += 1;
            if (held || state.chatQuery) countedAhead.add(sessionId);
          }
          if (held) {
            // What the message itself says shows at once; the figures come with the server's row.
            sessions.put({ ...held, lastMessage: message.message, lastMessageId: message.id, lastMessageSeq: message.seq, lastActivity: message.createdAt });
          } else if (!state.chatQuery && filter !== 'resolved' && (filter === null || message.isFromUser)) {
            // The newest activity: its row goes on top. Under a search, only the server says whether it
            // matches; under a filter, whether its status fits (a visitor's message opens it; a staff one may not).
            sessions.put(provisionalRow(message, unseenVisitor));
            // Only a visitor starts a session: a staff message is one to a session below the rows held.
            counts.chatSessions += Number(message.isFromUser);
            counts['chatSessions.open'] += Number(message.isFromUser);
          } else if (message.isFromUser) {
            // A new session, or one the search or filter hides (reopened if it was resolved): the server counts it.
            result.recount = true;
          }
          break;
        }
        case 'chat-session:updated': {
          const row = update.payload;
          // A row not held is shown only where it belongs: no search, and within the rows held.
          const belongs = !state.chatQuery && (!state.chatHasMore || !lastHeld || row.lastActivity >= lastHeld.lastActivity);
          // A status change of a row not shown under the filter: its figures come from the server.
          if (!sessions.get(row.id) && !belongs) result.recount = true;
          if (sessions.get(row.id) || belongs) putServerRow(row, 'push');
          break;
        }
        case 'chat-sessions:fresh':
          // A page read for a search the list no longer shows is left out.
          if (update.payload.query === state.chatQuery && update.payload.status === filter) {
            for (const row of update.payload.rows) putServerRow(row, 'answer');
          }
          break;
        case 'chat:typing':
          setTyping(update.payload.sessionId, update.payload.typing);
          break;
      }
    }

    // One update for the whole batch: one render, however many updates it holds.
    const changes: Partial<ChatSessionsState> = {};
    const chatSessions = sessions.result();
    if (chatSessions !== state.chatSessions) changes.chatSessions = chatSessions;
    if (openChat !== state.openChat) changes.openChat = openChat;
    if (visitorTyping !== state.visitorTyping) changes.visitorTyping = visitorTyping;
    if (Object.keys(changes).length > 0) set(changes);
    result.counts = counts;
    return result;
  }

  /** The answers of the dashboard's own calls apply like pushes, and the cards move at once. */
  function applyOwn(calledAt: number, sessionId: string, updates: ChatUpdate[]): void {
    if (calledAt !== generation) return;
    const result = applyUpdates(updates);
    useCounts.getState().adjust(result.counts);
    if (result.reread) void refreshSession(sessionId);
  }

  /** The server's row of one session, for what the dashboard's own call cannot tell. */
  async function refreshSession(sessionId: string): Promise<void> {
    const calledAt = generation;
    try {
      const row = await adminApi.chatSession(sessionId);
      if (calledAt !== generation) return;
      // Older than the row held means a push came meanwhile, and that push asked for its own re-read.
      useCounts.getState().adjust(applyUpdates([{ event: 'chat-session:updated', payload: row }]).counts);
    } catch {
      // The next push or reconnect brings it.
    }
  }

  /** A conversation's history as read, into the open dialog if it still shows it; messages pushed while it loaded are kept. */
  function mergeLoaded(sessionId: string, messages: ChatMessage[]): void {
    set((state) => {
      if (state.openChat?.sessionId !== sessionId) return {};
      const loadedIds = new Set(messages.map((message) => message.id));
      const pushed = state.openChat.messages.filter((message) => !loadedIds.has(message.id));
      return { openChat: { ...state.openChat, messages: inSessionOrder([...messages, ...pushed]), loading: false } };
    });
  }

  function updateSession(sessionId: string, update: (session: ChatSessionSummary) => ChatSessionSummary): void {
    set((state) => ({ chatSessions: state.chatSessions.map((session) => (session.id === sessionId ? update(session) : session)) }));
  }

  return {
    ...emptyChats(),

    async load() {
      const requestId = ++latestList;
      set({ chatLoading: true });
      try {
        const sessions = await adminApi.chatSessions({ q: get().chatQuery, status: get().chatStatus });
        if (requestId !== latestList) return;
        countedAhead.clear();
        set({ chatSessions: sessions, chatLoading: false, chatHasMore: sessions.length === adminPageSize });
      } catch (error) {
        if (requestId === latestList) set({ chatLoading: false });
        throw error;
      }
    },

    async loadMoreChats() {
      const { chatSessions, chatHasMore, chatLoading, chatLoadingMore } = get();
      const last = chatSessions[chatSessions.length - 1];
      if (!last || !chatHasMore || chatLoading || chatLoadingMore) return;
      set({ chatLoadingMore: true });
      try {
        const sessions = await adminApi.chatSessions({ before: chatSessionCursor(last), q: get().chatQuery, status: get().chatStatus });
        set((state) => {
          const known = new Set(state.chatSessions.map((session) => session.id));
          return {
            chatSessions: [...state.chatSessions, ...sessions.filter((session) => !known.has(session.id))],
            chatLoadingMore: false,
            chatHasMore: sessions.length === adminPageSize,
          };
        });
      } catch (error) {
        set({ chatLoadingMore: false });
        if (!isUnauthorized(error)) dataLoadFailed();
      }
    },

    async searchChats(query) {
      set({ chatQuery: query });
      try {
        await get().load();
      } catch (error) {
        if (!isUnauthorized(error)) dataLoadFailed();
      }
    },

    async filterChats(status) {
      set({ chatStatus: status });
      try {
        await get().load();
      } catch (error) {
        if (!isUnauthorized(error)) dataLoadFailed();
      }
    },

    async openSession(sessionId) {
      set({ openChat: { sessionId, messages: [], loading: true, sending: false } });
      try {
        mergeLoaded(sessionId, await adminApi.chatMessages(sessionId));
        void get().markRead(sessionId);
      } catch (error) {
        set((state) => (state.openChat?.sessionId === sessionId ? { openChat: { ...state.openChat, loading: false } } : {}));
        if (!isUnauthorized(error)) toast({ title: 'Error', description: 'Failed to load chat session.', variant: 'destructive' });
      }
    },

    async refreshOpenSession() {
      const sessionId = get().openChat?.sessionId;
      if (!sessionId) return;
      const messages = await adminApi.chatMessages(sessionId);
      const held = new Set(get().openChat?.messages.map((message) => message.id));
      mergeLoaded(sessionId, messages);
      if (messages.some((message) => message.isFromUser && !held.has(message.id))) void get().markRead(sessionId);
    },

    closeSession() {
      set({ openChat: null });
    },

    async markRead(sessionId) {
      const calledAt = generation;
      const held = get().chatSessions.find((session) => session.id === sessionId);
      if (held && (held.unreadCount > 0 || countedAhead.has(sessionId))) {
        // Read at once on this screen; the server's row follows.
        countedAhead.delete(sessionId);
        updateSession(sessionId, (session) => ({ ...session, unreadCount: 0 }));
        useCounts.getState().adjust({ unreadChats: -1 });
      }
      try {
        const row = await adminApi.patchChatSession(sessionId, { read: true });
        applyOwn(calledAt, sessionId, [{ event: 'chat-session:updated', payload: row }]);
      } catch {
        // The badge comes back with the next update from the server; reading is not worth a toast.
      }
    },

    markOpenSessionRead() {
      const { openChat, chatSessions } = get();
      const session = openChat && chatSessions.find((known) => known.id === openChat.sessionId);
      if (session && (session.unreadCount > 0 || countedAhead.has(session.id))) void get().markRead(session.id);
    },

    async sendReply(text) {
      const open = get().openChat;
      const message = text.trim();
      if (!open || !message || open.sending) return false;
      const calledAt = generation;
      set({ openChat: { ...open, sending: true } });
      try {
        const stored = await adminApi.reply(open.sessionId, message);
        applyOwn(calledAt, open.sessionId, [{ event: 'chat:message', payload: stored }]);
        toast({ title: 'Reply sent', variant: 'success' });
        return true;
      } catch (error) {
        if (!isUnauthorized(error)) toast({ title: 'Error', description: 'Failed to send reply.', variant: 'destructive' });
        return false;
      } finally {
        set((state) => (state.openChat?.sessionId === open.sessionId ? { openChat: { ...state.openChat, sending: false } } : {}));
      }
    },

    async setChatStatus(sessionId, status) {
      const previous = get().chatSessions.find((session) => session.id === sessionId);
      const calledAt = generation;
      updateSession(sessionId, (session) => ({ ...session, status }));
      // The row shows the new status at once, so the server's row finds nothing to move: the filters' figures move here.
      const moves = previous && previous.status !== status;
      if (moves) useCounts.getState().adjust({ [`chatSessions.${previous.status}`]: -1, [`chatSessions.${status}`]: 1 });
      try {
        applyOwn(calledAt, sessionId, [{ event: 'chat-session:updated', payload: await adminApi.patchChatSession(sessionId, { status }) }]);
      } catch (error) {
        if (moves) useCounts.getState().adjust({ [`chatSessions.${status}`]: -1, [`chatSessions.${previous.status}`]: 1 });
        if (previous) updateSession(sessionId, () => previous);
        if (!isUnauthorized(error)) saveFailed();
      }
    },

    applyLive: applyUpdates,

    reset() {
      latestList++;
      generation++;
      countedAhead.clear();
      set(emptyChats());
    },
  };
});
