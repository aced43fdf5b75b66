import { create } from 'zustand';
import type { ChatSessionState, VisitorChatSessionSummary } from '../../../api/contract/chat-resync';
import type { ChatEntry } from './messages';

/** What the chat panel shows. Written only by its ChatController; the store itself does nothing else. */
export interface ChatState {
  sessionId: string;
  open: boolean;
  entries: ChatEntry[];
  /** The first history load is under way ("Loading messages..."). */
  loading: boolean;
  /** The history came back empty or failed: the local welcome message leads the list. */
  showWelcome: boolean;
  connected: boolean;
  /** Whether any staff member is connected; null until the server has said. */
  staffOnline: boolean | null;
  staffTyping: boolean;
  /** Staff replies that arrived while the panel was closed. */
  unread: number;
  /** Optional address for a reply when nobody is online (sent as senderEmail). */
  email: string;
  /** The conversation's state as the server last sent it (status...); null until it has, or for one not started. */
  session: ChatSessionState | null;
  /** The conversation, or the list of the visitor's conversations. */
  view: 'chat' | 'conversations';
  /** The visitor's conversations, newest first; null until loaded. */
  pastSessions: VisitorChatSessionSummary[] | null;
}

export interface ChatSetters {
  setSessionId(sessionId: string): void;
  setOpen(open: boolean): void;
  setEntries(entries: ChatEntry[]): void;
  setLoading(loading: boolean): void;
  setShowWelcome(showWelcome: boolean): void;
  setConnected(connected: boolean): void;
  setStaffOnline(staffOnline: boolean): void;
  setStaffTyping(staffTyping: boolean): void;
  setUnread(unread: number): void;
  setEmail(email: string): void;
  setSession(session: ChatSessionState | null): void;
  setView(view: 'chat' | 'conversations'): void;
  setPastSessions(pastSessions: VisitorChatSessionSummary[] | null): void;
}

export type ChatStore = ChatState & ChatSetters;

/** A fresh store for one widget: a hook (`useChat(selector)`) with getState/setState attached. */
export function createChatStore() {
  return create<ChatStore>()((set) => ({
    sessionId: '',
    open: false,
    entries: [],
    loading: false,
    showWelcome: false,
    connected: false,
    staffOnline: null,
    staffTyping: false,
    unread: 0,
    email: '',
    session: null,
    view: 'chat',
    pastSessions: null,
    setSessionId: (sessionId) => set({ sessionId }),
    setOpen: (open) => set({ open }),
    setEntries: (entries) => set({ entries }),
    setLoading: (loading) => set({ loading }),
    setShowWelcome: (showWelcome) => set({ showWelcome }),
    setConnected: (connected) => set({ connected }),
    setStaffOnline: (staffOnline) => set({ staffOnline }),
    setStaffTyping: (staffTyping) => set({ staffTyping }),
    setUnread: (unread) => set({ unread }),
    setEmail: (email) => set({ email }),
    setSession: (session) => set({ session }),
    setView: (view) => set({ view }),
    setPastSessions: (pastSessions) => set({ pastSessions }),
  }));
}

export type ChatStoreHook = ReturnType<typeof createChatStore>;
