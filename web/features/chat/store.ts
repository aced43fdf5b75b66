import { create } from 'zustand';
import { timings } from '../../../api/contract/brand';
import type { ChatMessage } from '../../../api/contract/chat';
import type { TypingPayload } from '../../../api/contract/socket';
import { ApiError } from '../../lib/api-client';
import { storageKeys } from '../../lib/storage-keys';
import { fetchChatHistory, postChatMessage } from './api';
import { ChatRefusedError, type ChatTransport } from './transport';

/** One bubble of the panel: a stored message, or the visitor's own on its way (matched later by clientId). */
export interface ChatEntry {
  key: string;
  id?: number;
  clientId?: string;
  text: string;
  fromUser: boolean;
  createdAt: string;
  status: 'sending' | 'sent' | 'failed';
  error?: string;
}

interface ChatState {
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
}

const sessionIdPattern = /^[A-Za-z0-9_-]{8,100}$/;

/** `session_` + timestamp + random string, kept in local storage (spec section 3). */
function readOrCreateSessionId(): string {
  try {
    const stored = localStorage.getItem(storageKeys.chatSessionId);
    if (stored && sessionIdPattern.test(stored)) return stored;
  } catch {
    // Storage may be blocked; the session then lasts as long as the page.
  }
  const created = `session_${Date.now()}_${Math.random().toString(36).slice(2, 11)}`;
  try {
    localStorage.setItem(storageKeys.chatSessionId, created);
  } catch {
    // As above.
  }
  return created;
}

function initialState(): ChatState {
  return {
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
  };
}

export const useChatStore = create<ChatState>()(() => initialState());

function storedEntry(message: ChatMessage): ChatEntry {
  return {
    key: message.clientId ?? `id-${message.id}`,
    id: message.id,
    clientId: message.clientId ?? undefined,
    text: message.message,
    fromUser: message.isFromUser,
    createdAt: message.createdAt,
    status: 'sent',
  };
}

/**
 * Adds stored messages to the list, never twice: a known id is skipped, and the optimistic copy of the
 * visitor's own message is replaced by the stored row carrying its clientId. Stored rows go in id
 * order; messages not stored yet stay after them.
 */
function mergeMessages(entries: ChatEntry[], incoming: ChatMessage[]): { entries: ChatEntry[]; added: ChatMessage[] } {
  let next = entries;
  const added: ChatMessage[] = [];
  for (const message of incoming) {
    if (next.some((entry) => entry.id === message.id)) continue;
    const optimistic = message.clientId ? next.findIndex((entry) => entry.id === undefined && entry.clientId === message.clientId) : -1;
    if (optimistic >= 0) {
      next = next.with(optimistic, { ...storedEntry(message), key: next[optimistic]!.key });
    } else {
      next = [...next, storedEntry(message)];
      added.push(message);
    }
  }
  if (next === entries) return { entries, added };
  const order = (entry: ChatEntry) => entry.id ?? Number.MAX_SAFE_INTEGER;
  return { entries: [...next].sort((a, b) => order(a) - order(b)), added };
}

// ---------- the controller: one transport, the poll and the timers of this page ----------

let transport: ChatTransport | null = null;
let pollTimer: ReturnType<typeof setInterval> | undefined;
let typingTimer: ReturnType<typeof setTimeout> | undefined;
let staffTypingTimer: ReturnType<typeof setTimeout> | undefined;
let historyLoaded = false;
/**
 * Socket connections so far (never reset, so a late answer to an old join cannot pass for the live
 * one's), and the connection whose join succeeded: that one is subscribed and pushed every new message.
 */
let connectionCount = 0;
let joinedConnection = 0;
/** The first load in flight, so opening the panel meanwhile waits for it instead of loading twice. */
let firstLoad: Promise<void> | null = null;

const set = useChatStore.setState;
const get = useChatStore.getState;

function receive(messages: ChatMessage[]): void {
  const { sessionId, entries, open, unread } = get();
  const { entries: merged, added } = mergeMessages(
    entries,
    messages.filter((message) => message.sessionId === sessionId),
  );
  if (merged === entries) return;
  const fromStaff = added.filter((message) => !message.isFromUser).length;
  set({ entries: merged, unread: open ? 0 : unread + fromStaff, ...(fromStaff ? { staffTyping: false } : {}) });
}

/** The history: by the socket's join when connected (which also subscribes), else by REST. */
async function fetchHistory(): Promise<ChatMessage[]> {
  const { sessionId } = get();
  if (!transport?.isConnected()) return fetchChatHistory(sessionId);
  const connection = connectionCount;
  const messages = await transport.join(sessionId);
  joinedConnection = connection;
  return messages;
}

/** Joined on the live connection after the history loaded: pushes have kept the list current since. */
function upToDate(): boolean {
  return historyLoaded && get().connected && joinedConnection === connectionCount;
}

/** The first load decides between the history and the welcome message. */
function loadFirstHistory(): Promise<void> {
  // "Loading messages..." only while the panel has nothing to show yet, never over a welcome or a list.
  const { open, showWelcome, entries } = get();
  if (open && !showWelcome && entries.length === 0) set({ loading: true });
  firstLoad ??= fetchHistory()
    .then(
      (messages) => {
        receive(messages);
        historyLoaded = true;
        set({ showWelcome: messages.length === 0 });
      },
      (error: unknown) => {
        console.error('Failed to load chat messages', error);
        set({ showWelcome: get().entries.length === 0 });
      },
    )
    .finally(() => {
      firstLoad = null;
      set({ loading: false });
    });
  return firstLoad;
}

/** Loads the history, or catches up on it after the first time. */
async function loadHistory(): Promise<void> {
  if (!historyLoaded) return loadFirstHistory();
  try {
    receive(await fetchHistory());
  } catch (error) {
    console.error('Failed to load chat messages', error);
  }
}

/** The spec's 3 s poll, only while the panel is open and the socket is not connected. */
function syncPolling(): void {
  const { open, connected } = get();
  const shouldPoll = open && !connected;
  if (shouldPoll && pollTimer === undefined) {
    pollTimer = setInterval(() => {
      fetchChatHistory(get().sessionId).then(receive, (error: unknown) => console.error('Chat poll failed', error));
    }, timings.chatPollMs);
  } else if (!shouldPoll && pollTimer !== undefined) {
    clearInterval(pollTimer);
    pollTimer = undefined;
  }
}

export function startChat(chatTransport: ChatTransport): void {
  stopChat();
  transport = chatTransport;
  set({ ...initialState(), sessionId: readOrCreateSessionId() });
  chatTransport.start({
    onConnect() {
      connectionCount += 1;
      set({ connected: true });
      syncPolling();
      // Joining subscribes this socket to the session's replies and catches up on what was missed.
      void loadHistory();
    },
    onDisconnect() {
      set({ connected: false, staffTyping: false });
      syncPolling();
    },
    onMessage: (message) => receive([message]),
    onTyping(payload: TypingPayload) {
      if (payload.sessionId !== get().sessionId) return;
      clearTimeout(staffTypingTimer);
      set({ staffTyping: payload.typing });
      if (payload.typing) staffTypingTimer = setTimeout(() => set({ staffTyping: false }), timings.typingShownMaxMs);
    },
    onPresence: (online) => set({ staffOnline: online }),
  });
}

export function stopChat(): void {
  transport?.stop();
  transport = null;
  clearInterval(pollTimer);
  pollTimer = undefined;
  clearTimeout(typingTimer);
  typingTimer = undefined;
  clearTimeout(staffTypingTimer);
  historyLoaded = false;
  firstLoad = null;
  set(initialState());
}

export function openPanel(): void {
  if (get().open) return;
  set({ open: true, unread: 0 });
  if (!upToDate()) void loadHistory();
  syncPolling();
}

export function closePanel(): void {
  set({ open: false });
  syncPolling();
}

export function setEmail(email: string): void {
  set({ email });
}

function failureText(error: unknown): string {
  if (error instanceof ChatRefusedError) return error.message;
  if (error instanceof ApiError && error.body) {
    const fieldMessage = error.body.errors ? Object.values(error.body.errors)[0] : undefined;
    return fieldMessage ?? error.body.message;
  }
  return 'Not sent';
}

function updateEntry(key: string, change: Partial<ChatEntry>): void {
  set({ entries: get().entries.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)) });
}

/** Over the socket when connected, else by REST; a send the socket may have missed is retried by REST with the same clientId. */
async function deliver(entry: ChatEntry): Promise<void> {
  const { sessionId, email } = get();
  const outgoing = {
    sessionId,
    message: entry.text,
    clientId: entry.clientId!,
    ...(email.trim() ? { senderEmail: email.trim() } : {}),
    pageUrl: window.location.href,
    ...(document.referrer ? { referrer: document.referrer } : {}),
  };
  try {
    let stored: ChatMessage;
    if (transport?.isConnected()) {
      try {
        stored = await transport.send(outgoing);
      } catch (error) {
        if (error instanceof ChatRefusedError) throw error;
        stored = await postChatMessage(outgoing);
      }
    } else {
      stored = await postChatMessage(outgoing);
    }
    receive([stored]);
  } catch (error) {
    updateEntry(entry.key, { status: 'failed', error: failureText(error) });
  }
}

function newClientId(): string {
  return `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/** The visitor's message appears at once; an empty or blank one is not sent (spec section 5). */
export function sendMessage(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed) return false;
  stopTyping();
  const clientId = newClientId();
  const entry: ChatEntry = { key: clientId, clientId, text: trimmed, fromUser: true, createdAt: new Date().toISOString(), status: 'sending' };
  set({ entries: [...get().entries, entry] });
  void deliver(entry);
  return true;
}

export function retryMessage(key: string): void {
  const entry = get().entries.find((candidate) => candidate.key === key);
  if (!entry || entry.status !== 'failed') return;
  updateEntry(key, { status: 'sending', error: undefined });
  void deliver({ ...entry, status: 'sending' });
}

function stopTyping(): void {
  if (typingTimer === undefined) return;
  clearTimeout(typingTimer);
  typingTimer = undefined;
  transport?.typing({ sessionId: get().sessionId, typing: false });
}

/** Tells staff the visitor is typing: once at the start, and "stopped" after 3 s without a key. */
export function visitorTyping(): void {
  if (typingTimer === undefined) transport?.typing({ sessionId: get().sessionId, typing: true });
  clearTimeout(typingTimer);
  typingTimer = setTimeout(stopTyping, timings.typingIdleMs);
}
