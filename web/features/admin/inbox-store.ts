import { create } from 'zustand';
import { type ChatMessage, type ChatSessionStatus, type ChatSessionSummary, chatSessionCursor } from '../../../api/contract/chat';
import type { AdminCounts, Lead, LeadByKind, LeadKind, LeadPatch } from '../../../api/contract/leads';
import { leadKinds, listCursor } from '../../../api/contract/leads';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { adminApi, adminPageSize } from './api/admin-api';
import { byLastActivity, ChatSessionsDraft, LeadRowsDraft, type LiveEvent } from './live-events';

export interface LeadList<K extends LeadKind> {
  rows: LeadByKind[K][];
  /** The search the rows answer (server-side `?q=`). */
  query: string;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
}

type LeadLists = { [K in LeadKind]: LeadList<K> };

interface OpenChat {
  sessionId: string;
  messages: ChatMessage[];
  loading: boolean;
  sending: boolean;
}

interface InboxState {
  counts: AdminCounts | null;
  leads: LeadLists;
  chatSessions: ChatSessionSummary[];
  /** The chat tab's search (server-side `?q=`: sender, session id, message text). */
  chatQuery: string;
  chatLoading: boolean;
  chatLoadingMore: boolean;
  chatHasMore: boolean;
  openChat: OpenChat | null;
  /** Chat sessions whose visitor is typing right now. */
  visitorTyping: Record<string, boolean>;

  loadAll: () => Promise<void>;
  refreshLive: () => Promise<void>;
  search: (kind: LeadKind, query: string) => Promise<void>;
  loadMore: (kind: LeadKind) => Promise<void>;
  updateLead: <K extends LeadKind>(kind: K, id: number, patch: LeadPatch) => Promise<void>;
  loadMoreChats: () => Promise<void>;
  searchChats: (query: string) => Promise<void>;
  openSession: (sessionId: string) => Promise<void>;
  closeSession: () => void;
  /** Marks the open conversation read if visitor messages came while the tab was hidden. */
  markOpenSessionRead: () => void;
  sendReply: (text: string) => Promise<boolean>;
  setChatStatus: (sessionId: string, status: ChatSessionStatus) => Promise<void>;

  /**
   * Realtime: the staff socket's pushes, in the order they came, applied in one update. Returns the
   * visitors' messages among them that staff have not seen yet.
   */
  applyLive: (events: LiveEvent[]) => ChatMessage[];
  /** The server's answers to the dashboard's own calls, applied like a push. */
  applyLeadUpdated: (payload: { kind: LeadKind; item: Lead }) => void;
  /** Returns true when the message is a visitor's that staff have not seen yet. */
  applyChatMessage: (message: ChatMessage) => boolean;
  applyChatSessionUpdated: (session: ChatSessionSummary) => void;
  reset: () => void;
}

const countKeys: Record<LeadKind, 'contact' | 'support' | 'demo' | 'getStarted'> = {
  contact: 'contact',
  support: 'support',
  demo: 'demo',
  'get-started': 'getStarted',
};

function emptyList<K extends LeadKind>(): LeadList<K> {
  return { rows: [], query: '', loading: false, loadingMore: false, hasMore: false };
}

function emptyLeads(): LeadLists {
  return { contact: emptyList(), support: emptyList(), demo: emptyList(), 'get-started': emptyList() };
}

/** The inbox's data before sign-in and after sign-out. */
function emptyInbox(): Pick<
  InboxState,
  'counts' | 'leads' | 'chatSessions' | 'chatQuery' | 'chatLoading' | 'chatLoadingMore' | 'chatHasMore' | 'openChat' | 'visitorTyping'
> {
  return {
    counts: null,
    leads: emptyLeads(),
    chatSessions: [],
    chatQuery: '',
    chatLoading: false,
    chatLoadingMore: false,
    chatHasMore: false,
    openChat: null,
    visitorTyping: {},
  };
}

function setRows<K extends LeadKind>(leads: LeadLists, kind: K, rows: Lead[]): void {
  leads[kind] = { ...leads[kind], rows: rows as LeadByKind[K][] };
}

/** The same case-insensitive text match as the server's `?q=`: name, email, company and subject. */
function leadMatches(kind: LeadKind, lead: Lead, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  const fields: (string | null | undefined)[] =
    kind === 'get-started' && 'firstName' in lead
      ? [lead.firstName, lead.lastName, lead.email, lead.dealershipName]
      : 'name' in lead
        ? [lead.name, lead.email, lead.company, 'subject' in lead ? lead.subject : undefined]
        : [];
  return fields.some((field) => field?.toLowerCase().includes(needle));
}

/** A new chat message against the chat search, as the server matches it: text, sender or session id. */
function chatMessageMatches(message: ChatMessage, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return [message.message, message.senderEmail, message.senderName, message.sessionId].some((field) => field?.toLowerCase().includes(needle));
}

// Requests answered after a newer one for the same list are dropped (typing in the search box).
const latestRequest: Record<LeadKind | 'chat' | 'counts', number> = { contact: 0, support: 0, demo: 0, 'get-started': 0, chat: 0, counts: 0 };
// Rows of chat:message already counted in the sessions list (a reply comes back over REST and over the socket).
const countedMessageIds = new Set<number>();
// A live event counts at once, but a snapshot read on another connection may already hold it, or
// may land after it without it. At most this long after such an event, the server's figures settle it.
export const countsRecheckMs = 1500;
let countsRecheck: ReturnType<typeof setTimeout> | undefined;

function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

function dataLoadFailed(): void {
  toast({ title: 'Error loading data', description: 'Failed to load dashboard data.', variant: 'destructive' });
}

export const useInbox = create<InboxState>((set, get) => {
  function setList<K extends LeadKind>(kind: K, update: (list: LeadList<K>) => LeadList<K>): void {
    set((state) => ({ leads: { ...state.leads, [kind]: update(state.leads[kind]) } }));
  }

  async function loadFirstPage<K extends LeadKind>(kind: K, query: string): Promise<void> {
    const requestId = ++latestRequest[kind];
    setList(kind, (list) => ({ ...list, query, loading: true }));
    try {
      const rows = await adminApi.leads(kind, { q: query });
      if (requestId !== latestRequest[kind]) return;
      setList(kind, (list) => ({ ...list, rows, loading: false, loadingMore: false, hasMore: rows.length === adminPageSize }));
    } catch (error) {
      if (requestId === latestRequest[kind]) setList(kind, (list) => ({ ...list, loading: false }));
      throw error;
    }
  }

  async function loadChatSessions(): Promise<void> {
    const requestId = ++latestRequest.chat;
    set({ chatLoading: true });
    try {
      const sessions = await adminApi.chatSessions({ q: get().chatQuery });
      if (requestId !== latestRequest.chat) return;
      set({ chatSessions: [...sessions].sort(byLastActivity), chatLoading: false, chatHasMore: sessions.length === adminPageSize });
    } catch (error) {
      if (requestId === latestRequest.chat) set({ chatLoading: false });
      throw error;
    }
  }

  async function loadCounts(): Promise<void> {
    const requestId = ++latestRequest.counts;
    const counts = await adminApi.counts();
    if (requestId === latestRequest.counts) set({ counts });
  }

  function recheckCountsSoon(): void {
    // One pending recheck covers every event before it fires (it asks after them); a steady stream
    // of events gets one request per interval, not none.
    if (countsRecheck) return;
    countsRecheck = setTimeout(() => {
      countsRecheck = undefined;
      // A failure keeps the local figures; the next event or reconnect tries again.
      loadCounts().catch(() => undefined);
    }, countsRecheckMs);
  }

  function updateSession(sessionId: string, update: (session: ChatSessionSummary) => ChatSessionSummary): void {
    set((state) => ({
      chatSessions: state.chatSessions.map((session) => (session.id === sessionId ? update(session) : session)),
    }));
  }

  function adjustUnreadChats(delta: number): void {
    set((state) => (state.counts ? { counts: { ...state.counts, unreadChats: Math.max(0, state.counts.unreadChats + delta) } } : {}));
  }

  async function markRead(sessionId: string): Promise<void> {
    const before = get().chatSessions.find((session) => session.id === sessionId);
    if (before && before.unreadCount > 0) {
      updateSession(sessionId, (session) => ({ ...session, unreadCount: 0 }));
      adjustUnreadChats(-1);
    }
    try {
      const updated = await adminApi.patchChatSession(sessionId, { read: true });
      get().applyChatSessionUpdated(updated);
    } catch {
      // The badge comes back with the next update from the server; reading is not worth a toast.
    }
  }

  return {
    ...emptyInbox(),

    async loadAll() {
      const { leads } = get();
      const results = await Promise.allSettled([
        loadCounts(),
        ...leadKinds.map((kind) => loadFirstPage(kind, leads[kind].query)),
        loadChatSessions(),
      ]);
      const failures = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failures.length > 0 && !failures.some((failure) => isUnauthorized(failure.reason))) dataLoadFailed();
    },

    async refreshLive() {
      // After a socket reconnect: what arrived or changed meanwhile joins the lists; the deeper
      // pages a staff member scrolled through stay where they are.
      const { leads } = get();
      try {
        await Promise.all([
          loadCounts(),
          loadChatSessions(),
          ...leadKinds.map(async (kind) => {
            const fresh = await adminApi.leads(kind, { q: leads[kind].query });
            setList(kind, (list) => {
              const byId = new Map(fresh.map((row) => [row.id, row]));
              const known = new Set(list.rows.map((row) => row.id));
              const top = list.rows[0];
              const newer = fresh.filter((row) => !known.has(row.id) && (!top || row.createdAt >= top.createdAt));
              const rows = list.rows.map((row) => byId.get(row.id) ?? row);
              return { ...list, rows: [...newer, ...rows] as typeof list.rows };
            });
          }),
        ]);
      } catch {
        // The next event or reload brings them; a 401 has already sent staff back to the sign-in card.
      }
    },

    async search(kind, query) {
      try {
        await loadFirstPage(kind, query);
      } catch (error) {
        if (!isUnauthorized(error)) dataLoadFailed();
      }
    },

    async loadMore(kind) {
      const list = get().leads[kind];
      const last = list.rows[list.rows.length - 1];
      if (!last || !list.hasMore || list.loading || list.loadingMore) return;
      const requestId = latestRequest[kind];
      setList(kind, (current) => ({ ...current, loadingMore: true }));
      try {
        const rows = await adminApi.leads(kind, { q: list.query, before: listCursor(last) });
        if (requestId !== latestRequest[kind]) return;
        setList(kind, (current) => {
          const known = new Set(current.rows.map((row) => row.id));
          return {
            ...current,
            rows: [...current.rows, ...rows.filter((row) => !known.has(row.id))],
            loadingMore: false,
            hasMore: rows.length === adminPageSize,
          };
        });
      } catch (error) {
        setList(kind, (current) => ({ ...current, loadingMore: false }));
        if (!isUnauthorized(error)) dataLoadFailed();
      }
    },

    async updateLead(kind, id, patch) {
      const previous = get().leads[kind].rows.find((row) => row.id === id);
      if (!previous) return;
      setList(kind, (list) => ({ ...list, rows: list.rows.map((row) => (row.id === id ? { ...row, ...patch } : row)) }));
      try {
        const item = await adminApi.patchLead(kind, id, patch);
        get().applyLeadUpdated({ kind, item });
      } catch (error) {
        setList(kind, (list) => ({ ...list, rows: list.rows.map((row) => (row.id === id ? previous : row)) }));
        if (!isUnauthorized(error)) toast({ title: 'Error', description: 'Failed to save the change.', variant: 'destructive' });
      }
    },

    async loadMoreChats() {
      const { chatSessions, chatHasMore, chatLoading, chatLoadingMore } = get();
      const last = chatSessions[chatSessions.length - 1];
      if (!last || !chatHasMore || chatLoading || chatLoadingMore) return;
      set({ chatLoadingMore: true });
      try {
        const sessions = await adminApi.chatSessions({ before: chatSessionCursor(last), q: get().chatQuery });
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
        await loadChatSessions();
      } catch (error) {
        if (!isUnauthorized(error)) dataLoadFailed();
      }
    },

    async openSession(sessionId) {
      set({ openChat: { sessionId, messages: [], loading: true, sending: false } });
      try {
        const messages = await adminApi.chatMessages(sessionId);
        set((state) => {
          if (state.openChat?.sessionId !== sessionId) return {};
          // Messages pushed while the history loaded are kept.
          const loadedIds = new Set(messages.map((message) => message.id));
          const pushed = state.openChat.messages.filter((message) => !loadedIds.has(message.id));
          return { openChat: { ...state.openChat, messages: [...messages, ...pushed], loading: false } };
        });
        void markRead(sessionId);
      } catch (error) {
        set((state) => (state.openChat?.sessionId === sessionId ? { openChat: { ...state.openChat, loading: false } } : {}));
        if (!isUnauthorized(error)) toast({ title: 'Error', description: 'Failed to load chat session.', variant: 'destructive' });
      }
    },

    closeSession() {
      set({ openChat: null });
    },

    markOpenSessionRead() {
      const { openChat, chatSessions } = get();
      const session = openChat && chatSessions.find((known) => known.id === openChat.sessionId);
      if (session && session.unreadCount > 0) void markRead(session.id);
    },

    async sendReply(text) {
      const open = get().openChat;
      const message = text.trim();
      if (!open || !message || open.sending) return false;
      set({ openChat: { ...open, sending: true } });
      try {
        const stored = await adminApi.reply(open.sessionId, message);
        get().applyChatMessage(stored);
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
      updateSession(sessionId, (session) => ({ ...session, status }));
      try {
        get().applyChatSessionUpdated(await adminApi.patchChatSession(sessionId, { status }));
      } catch (error) {
        if (previous) updateSession(sessionId, () => previous);
        if (!isUnauthorized(error)) toast({ title: 'Error', description: 'Failed to save the change.', variant: 'destructive' });
      }
    },

    applyLive(events) {
      const state = get();
      const chat = new ChatSessionsDraft(state.chatSessions);
      const leadDrafts = new Map<LeadKind, LeadRowsDraft<Lead>>();
      const leadDraft = (kind: LeadKind): LeadRowsDraft<Lead> => {
        let draft = leadDrafts.get(kind);
        if (!draft) leadDrafts.set(kind, (draft = new LeadRowsDraft<Lead>(state.leads[kind].rows)));
        return draft;
      };
      let counts = state.counts;
      let openChat = state.openChat;
      let visitorTyping = state.visitorTyping;
      const setTyping = (sessionId: string, typing: boolean) => {
        if (visitorTyping[sessionId] !== typing) visitorTyping = { ...visitorTyping, [sessionId]: typing };
      };
      const unseen: ChatMessage[] = [];
      const toMarkRead = new Set<string>();
      let recheckCounts = false;

      for (const { event, payload } of events) {
        switch (event) {
          case 'submission:new': {
            const { kind, item } = payload;
            const draft = leadDraft(kind);
            if (draft.has(item.id)) break;
            if (leadMatches(kind, item, state.leads[kind].query)) draft.add(item);
            if (counts) counts = { ...counts, [countKeys[kind]]: counts[countKeys[kind]] + 1 };
            recheckCounts = true;
            break;
          }
          case 'lead:updated':
            leadDraft(payload.kind).update(payload.item);
            break;
          case 'chat:message': {
            const message = payload;
            const isOpenHere = openChat?.sessionId === message.sessionId;
            if (openChat && isOpenHere && !openChat.messages.some((known) => known.id === message.id)) {
              openChat = { ...openChat, messages: [...openChat.messages, message] };
            }
            if (message.isFromUser && visitorTyping[message.sessionId]) setTyping(message.sessionId, false);
            if (countedMessageIds.has(message.id)) break;
            countedMessageIds.add(message.id);

            const seenNow = isOpenHere && document.visibilityState === 'visible';
            const existing = chat.get(message.sessionId);
            const addsUnread = message.isFromUser && !seenNow;
            if (addsUnread) unseen.push(message);
            // The list was read after this message was stored: its row already counts it.
            if (existing && existing.lastMessageId >= message.id) break;
            if (!existing && !chatMessageMatches(message, state.chatQuery)) {
              // Under a search it does not match: counted, not listed. Whether it opens a session or
              // another unread conversation only the server knows: the recheck brings its figures.
              recheckCounts = true;
              if (counts && addsUnread) counts = { ...counts, unreadChats: counts.unreadChats + 1 };
              break;
            }
            const base: ChatSessionSummary = existing ?? {
              id: message.sessionId,
              senderName: null,
              senderEmail: null,
              hasCustomerMessage: false,
              lastMessage: '',
              messageCount: 0,
              lastMessageId: 0,
              lastActivity: message.createdAt,
              unreadCount: 0,
              status: 'open',
              pageUrl: null,
              referrer: null,
              userAgent: null,
              createdAt: message.createdAt,
            };
            chat.put({
              ...base,
              senderEmail: base.senderEmail ?? message.senderEmail,
              senderName: base.senderName ?? (message.isFromUser ? message.senderName : null),
              hasCustomerMessage: base.hasCustomerMessage || message.isFromUser,
              lastMessage: message.message,
              messageCount: base.messageCount + 1,
              lastMessageId: Math.max(base.lastMessageId, message.id),
              lastActivity: message.createdAt > base.lastActivity ? message.createdAt : base.lastActivity,
              unreadCount: addsUnread ? base.unreadCount + 1 : base.unreadCount,
              // A visitor writing again reopens a resolved conversation.
              status: message.isFromUser ? 'open' : base.status,
            });
            const opensUnread = addsUnread && base.unreadCount === 0;
            // Only a change to a card can race a read of the counts (a staff reply changes none).
            if (!existing || opensUnread) recheckCounts = true;
            if (counts && (!existing || opensUnread)) {
              counts = {
                ...counts,
                chatSessions: counts.chatSessions + (existing ? 0 : 1),
                unreadChats: counts.unreadChats + (opensUnread ? 1 : 0),
              };
            }
            if (seenNow && message.isFromUser) toMarkRead.add(message.sessionId);
            break;
          }
          case 'chat-session:updated': {
            const session = payload;
            const previous = chat.get(session.id);
            if (!previous && state.chatQuery) break;
            const delta = previous ? Number(session.unreadCount > 0) - Number(previous.unreadCount > 0) : 0;
            chat.put(session);
            if (counts && delta !== 0) counts = { ...counts, unreadChats: Math.max(0, counts.unreadChats + delta) };
            break;
          }
          case 'chat:typing':
            setTyping(payload.sessionId, payload.typing);
            break;
        }
      }

      // One update for the whole batch: one render, however many pushes it holds.
      const changes: Partial<InboxState> = {};
      const chatSessions = chat.result();
      if (chatSessions !== state.chatSessions) changes.chatSessions = chatSessions;
      if (counts !== state.counts) changes.counts = counts;
      if (openChat !== state.openChat) changes.openChat = openChat;
      if (visitorTyping !== state.visitorTyping) changes.visitorTyping = visitorTyping;
      const changedKinds = [...leadDrafts].filter(([, draft]) => draft.changed);
      if (changedKinds.length > 0) {
        const leads = { ...state.leads };
        for (const [kind, draft] of changedKinds) setRows(leads, kind, draft.result());
        changes.leads = leads;
      }
      if (Object.keys(changes).length > 0) set(changes);
      if (recheckCounts) recheckCountsSoon();
      for (const sessionId of toMarkRead) void markRead(sessionId);
      return unseen;
    },

    applyLeadUpdated(payload) {
      get().applyLive([{ event: 'lead:updated', payload }]);
    },

    applyChatMessage(message) {
      return get().applyLive([{ event: 'chat:message', payload: message }]).length > 0;
    },

    applyChatSessionUpdated(session) {
      get().applyLive([{ event: 'chat-session:updated', payload: session }]);
    },

    reset() {
      for (const key of Object.keys(latestRequest) as (keyof typeof latestRequest)[]) latestRequest[key]++;
      countedMessageIds.clear();
      clearTimeout(countsRecheck);
      countsRecheck = undefined;
      set(emptyInbox());
    },
  };
});

/** Unread conversations: the figure of the tab label and the page title. */
export function selectUnreadChats(state: InboxState): number {
  if (state.counts) return state.counts.unreadChats;
  return state.chatSessions.filter((session) => session.unreadCount > 0).length;
}
