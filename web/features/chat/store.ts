import { create } from 'zustand';
import type { ChatRating } from '../../../api/contract/chat-rating';
import type { ChatSessionState, VisitorChatSessionSummary } from '../../../api/contract/chat-resync';
import type { ChatEntry } from './messages';

/** The leave-a-message form was sent: its message's entry, who left it, and the opening it was told of (null while open). */
export interface LeftMessage {
  key: string;
  name: string;
  email: string;
  backAt: string | null;
}

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
  /** Why the email is left out of the messages sent ('' while it is valid or empty): shown at its field. */
  emailError: string;
  /** The conversation's state as the server last sent it (status...); null until it has, or for one not started. */
  session: ChatSessionState | null;
  /** The conversation, or the list of the visitor's conversations. */
  view: 'chat' | 'conversations';
  /** The visitor's conversations, newest first; null until loaded. */
  pastSessions: VisitorChatSessionSummary[] | null;
  /** The visitor's name from the leave-a-message form (sent as senderName). */
  name: string;
  /** What the visitor is typing, in the composer or the leave-a-message form alike, so a switch between them keeps it. */
  draft: string;
  leftMessage: LeftMessage | null;
  /** "Email me this conversation": where the request is, and what to tell the visitor of it. */
  transcript: TranscriptStatus;
  /** Show the email field whoever is online: a transcript needs an email the conversation does not have yet. */
  askEmail: boolean;
  /** A sentence about the conversation itself (a mailed link that did not open), shown above the messages. */
  notice: string;
  /** "How did we do?" was asked of this session (chat:rating-asked, or its state on load). */
  ratingAsked: boolean;
  /** The visitor's rating, once given: the prompt becomes a thank-you. */
  rating: ChatRating | null;
}

export interface TranscriptStatus {
  state: 'idle' | 'sending' | 'sent' | 'failed';
  text: string;
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
  setEmailError(emailError: string): void;
  setName(name: string): void;
  setDraft(draft: string): void;
  setLeftMessage(leftMessage: LeftMessage | null): void;
  setTranscript(transcript: TranscriptStatus): void;
  setAskEmail(askEmail: boolean): void;
  setNotice(notice: string): void;
  setRatingAsked(ratingAsked: boolean): void;
  setRating(rating: ChatRating | null): void;
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
    emailError: '',
    name: '',
    draft: '',
    leftMessage: null,
    transcript: { state: 'idle', text: '' },
    askEmail: false,
    notice: '',
    ratingAsked: false,
    rating: null,
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
    setEmailError: (emailError) => set({ emailError }),
    setName: (name) => set({ name }),
    setDraft: (draft) => set({ draft }),
    setLeftMessage: (leftMessage) => set({ leftMessage }),
    setTranscript: (transcript) => set({ transcript }),
    setAskEmail: (askEmail) => set({ askEmail }),
    setNotice: (notice) => set({ notice }),
    setRatingAsked: (ratingAsked) => set({ ratingAsked }),
    setRating: (rating) => set({ rating }),
    setSession: (session) => set({ session }),
    setView: (view) => set({ view }),
    setPastSessions: (pastSessions) => set({ pastSessions }),
  }));
}

export type ChatStoreHook = ReturnType<typeof createChatStore>;
