import { timings } from '../../../api/contract/brand';
import { hoursAt } from '../../../api/contract/business-hours';
import { type ChatMessage, type ChatMessageInput, chatSenderEmailSchema } from '../../../api/contract/chat';
import { emailMessage } from '../../../api/contract/common';
import type { ChatResyncAnswer, ChatSessionState } from '../../../api/contract/chat-resync';
import { type LeaveMessageField, type LeaveMessageInput, leaveMessageSchema } from '../../../api/contract/leave-message';
import type { TypingPayload } from '../../../api/contract/socket';
import { ApiError } from '../../lib/api-client';
import type { ChatRatingValue } from '../../../api/contract/chat-rating';
import { fetchRatingState, postChatMessage, postRating } from './api';
import { type ChatEntry, mergeMessages } from './messages';
import { cursorOf, fetchChatResync, fetchVisitorSessions, isNewerState } from './resync';
import { readOrCreateSessionId, startNewSessionId, storeSessionId } from './session-id';
import { ChatContinuity, takeChatLinkToken } from './continuity';
import { ChatOutbox, type DeliveryOutcome, type OutgoingMessage } from './outbox';
import { type ChatStore, createChatStore } from './store';
import { ChatRefusedError, type ChatTransport } from './transport';
import { addVisitPage, visitorTimeZone, visitPages } from './visit-pages';

function failureText(error: unknown): string {
  if (error instanceof ChatRefusedError) return error.message;
  if (error instanceof ApiError && error.body) {
    const fieldMessage = error.body.errors ? Object.values(error.body.errors)[0] : undefined;
    return fieldMessage ?? error.body.message;
  }
  return 'Not sent';
}

/** The server answered no (too many, too long...): sending the same again would not help. Anything else may pass later. */
function isRefusal(error: unknown): boolean {
  return error instanceof ChatRefusedError || (error instanceof ApiError && error.status < 500);
}

function newClientId(): string {
  return `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * The visitor chat of one widget: owns its transport (the socket), the 3 s REST poll while that
 * socket is down, sends with their retries and optimistic copies, the typing timers, and writes
 * what the panel shows to its own store. Realtime first: while the socket is connected everything
 * goes over it; while it is not, sends go by REST and the open panel polls the history.
 * Made per widget mount: `start()` once, `dispose()` on unmount.
 */
export class ChatController {
  /** What the panel shows; components read it as a hook: `controller.store(selector)`. */
  readonly store = createChatStore();

  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private typingTimer: ReturnType<typeof setTimeout> | undefined;
  private staffTypingTimer: ReturnType<typeof setTimeout> | undefined;
  private historyLoaded = false;
  /** A stored message of the session has been seen: the conversation exists on the server. */
  private sessionStarted = false;
  /**
   * Socket connections so far (never reset, so a late answer to an old join cannot pass for the live
   * one's), and the connection whose join succeeded: that one is subscribed and pushed every new message.
   */
  private connectionCount = 0;
  private joinedConnection = 0;
  /** The first load in flight, so opening the panel meanwhile waits for it instead of loading twice. */
  private firstLoad: Promise<void> | null = null;
  private disposed = false;
  /** Seen receipts, the mailed link and transcripts (continuity.ts). */
  readonly continuity: ChatContinuity;
  /** A mailed link being opened: the history waits for it, to load the conversation it names. */
  private linkOpening: Promise<void> | null = null;
  private readonly onVisibilityChange = () => this.continuity.reportSeen();
  /** The visitor's messages on their way, one at a time in the order written (outbox.ts). */
  private readonly outbox = new ChatOutbox(
    (message) => this.deliver(message),
    (messages) => this.markPending(messages),
  );
  /** The browser is back online: what waits goes now, by REST if the socket is not back yet. */
  private readonly onOnline = () => this.outbox.resume();

  constructor(private readonly transport: ChatTransport) {
    this.continuity = new ChatContinuity(this.store, transport);
  }

  private get state(): ChatStore {
    return this.store.getState();
  }

  start(): void {
    this.state.setSessionId(readOrCreateSessionId());
    document.addEventListener('visibilitychange', this.onVisibilityChange);
    window.addEventListener('online', this.onOnline);
    const token = takeChatLinkToken();
    if (!token) return this.startTransport();
    // A mailed link: its conversation first, then the socket joins that one.
    this.linkOpening = this.continuity.openLink(token).finally(() => {
      this.linkOpening = null;
      if (!this.disposed) this.startTransport();
    });
  }

  private startTransport(): void {
    this.transport.start({
      onConnect: () => {
        this.connectionCount += 1;
        this.state.setConnected(true);
        this.syncPolling();
        this.outbox.resume();
        // Joining subscribes this socket to the session's replies and catches up on what was missed.
        void this.loadHistory();
      },
      onDisconnect: () => {
        this.state.setConnected(false);
        this.state.setStaffTyping(false);
        this.syncPolling();
      },
      onMessage: (message) => this.receive([message]),
      onTyping: (payload) => this.staffTyping(payload),
      onPresence: (online) => this.state.setStaffOnline(online),
      onRatingAsked: (sessionId) => {
        if (sessionId === this.state.sessionId) this.state.setRatingAsked(true);
      },
      onSessionState: (state) => this.receiveState(state),
    });
  }

  /** Stops the socket and every timer; answers still on their way change nothing visible after this. */
  dispose(): void {
    this.disposed = true;
    document.removeEventListener('visibilitychange', this.onVisibilityChange);
    window.removeEventListener('online', this.onOnline);
    this.outbox.stop();
    this.transport.stop();
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    clearTimeout(this.typingTimer);
    this.typingTimer = undefined;
    clearTimeout(this.staffTypingTimer);
    this.staffTypingTimer = undefined;
  }

  openPanel(): void {
    if (this.state.open) return;
    this.state.setOpen(true);
    this.state.setUnread(0);
    if (!this.upToDate()) void this.loadHistory();
    this.syncPolling();
    this.continuity.reportSeen();
  }

  closePanel(): void {
    this.state.setOpen(false);
    this.syncPolling();
  }

  setEmail(email: string): void {
    this.state.setEmail(email);
    // Its flag goes once the visitor changes it, and comes back only on the next check.
    if (this.state.emailError) this.state.setEmailError('');
  }

  /** The email field was left: an address that would be left out of the messages is flagged now. */
  checkEmail(): void {
    this.senderEmail();
  }

  /**
   * The email to send with a message: none when empty, and none when invalid, which is flagged at its
   * field instead of holding the message back (the server would refuse the whole message for it).
   */
  private senderEmail(): string | undefined {
    const parsed = chatSenderEmailSchema.safeParse(this.state.email);
    this.state.setEmailError(parsed.success ? '' : (parsed.error.issues[0]?.message ?? emailMessage));
    return parsed.success ? parsed.data : undefined;
  }

  setName(name: string): void {
    this.state.setName(name);
  }

  setDraft(draft: string): void {
    this.state.setDraft(draft);
  }

  /**
   * The leave-a-message form: its message starts the conversation, carrying the visitor's name and
   * email, and the panel shows it as usual. Answers each field's error instead when one is wrong.
   */
  leaveMessage(fields: LeaveMessageInput): Partial<Record<LeaveMessageField, string>> | null {
    const parsed = leaveMessageSchema.safeParse(fields);
    if (!parsed.success) {
      const errors: Partial<Record<LeaveMessageField, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as LeaveMessageField;
        errors[field] ??= issue.message;
      }
      return errors;
    }
    const { name, email, message } = parsed.data;
    this.state.setName(name);
    this.state.setEmail(email);
    this.sendMessage(message);
    this.state.setDraft('');
    const hours = hoursAt(new Date());
    const key = this.state.entries.at(-1)!.key;
    this.state.setLeftMessage({ key, name, email, backAt: hours.open ? null : (hours.opensAt?.toISOString() ?? null) });
    return null;
  }

  // ---------- past conversations ----------

  /** The list of the visitor's conversations, read again each time it is shown. */
  showConversations(): void {
    this.state.setView('conversations');
    void fetchVisitorSessions().then(
      (sessions) => {
        if (!this.disposed) this.state.setPastSessions(sessions);
      },
      (error: unknown) => {
        console.error('Failed to load past conversations', error);
        if (!this.disposed && this.state.pastSessions === null) this.state.setPastSessions([]);
      },
    );
  }

  showChat(): void {
    this.state.setView('chat');
  }

  /** An earlier conversation becomes the current one: its messages load, and writing to it reopens it if closed. */
  openConversation(sessionId: string): void {
    this.state.setView('chat');
    if (sessionId === this.state.sessionId) return;
    storeSessionId(sessionId);
    this.switchTo(sessionId, true);
    void this.loadHistory();
  }

  /** A new conversation, once the current one is closed: a new id, and the welcome message. */
  startNewConversation(): void {
    this.switchTo(startNewSessionId(), false);
    this.state.setView('chat');
  }

  /** Everything the panel held of the previous conversation goes; answers still on their way for it are dropped (receiveAnswer). */
  private switchTo(sessionId: string, started: boolean): void {
    this.stopTyping();
    clearTimeout(this.staffTypingTimer);
    this.state.setSessionId(sessionId);
    this.state.setEntries([]);
    this.state.setSession(null);
    this.state.setStaffTyping(false);
    this.state.setShowWelcome(!started);
    // A new conversation has no history to load; its first message starts it, with the visit's pages.
    this.historyLoaded = !started;
    this.sessionStarted = false;
    this.joinedConnection = 0;
    this.firstLoad = null;
    this.state.setLeftMessage(null);
    this.state.setNotice('');
    this.state.setTranscript({ state: 'idle', text: '' });
    this.state.setRatingAsked(false);
    this.state.setRating(null);
  }

  /** The visitor's message appears at once and joins the outbox; an empty or blank one is not sent. */
  sendMessage(text: string): boolean {
    const trimmed = text.trim();
    if (!trimmed) return false;
    this.stopTyping();
    const clientId = newClientId();
    const status = this.outbox.isHeld() ? 'pending' : 'sending';
    const entry: ChatEntry = { key: clientId, clientId, text: trimmed, fromUser: true, createdAt: new Date().toISOString(), status };
    this.state.setEntries([...this.state.entries, entry]);
    this.outbox.add(this.outgoing(entry.key, clientId, trimmed));
    return true;
  }

  /**
   * Retry: messages waiting for the connection are tried now; a refused one joins the outbox again,
   * with the same clientId so the server stores it at most once.
   */
  retryMessage(key: string): void {
    const entry = this.state.entries.find((candidate) => candidate.key === key);
    if (entry?.status === 'pending') return this.outbox.resume();
    if (entry?.status !== 'failed' || !entry.clientId) return;
    this.updateEntry(key, { status: this.outbox.isHeld() ? 'pending' : 'sending', error: undefined });
    this.outbox.add(this.outgoing(key, entry.clientId, entry.text));
  }

  /** A message as written now: to this conversation, with the visitor's name and (valid) email. */
  private outgoing(key: string, clientId: string, text: string): OutgoingMessage {
    const { sessionId, name } = this.state;
    const senderEmail = this.senderEmail();
    return { key, sessionId, clientId, text, ...(senderEmail ? { senderEmail } : {}), ...(name.trim() ? { senderName: name.trim() } : {}) };
  }

  /** The page shown now joins the visit's pages; once the conversation exists, staff hear of it at once. */
  pageShown(): void {
    const url = `${window.location.origin}${window.location.pathname}`;
    if (addVisitPage(url) && this.sessionStarted) this.transport.page({ sessionId: this.state.sessionId, url });
  }

  /** Tells staff the visitor is typing: once at the start, and "stopped" after 3 s without a key. */
  visitorTyping(): void {
    if (this.typingTimer === undefined) this.transport.typing({ sessionId: this.state.sessionId, typing: true });
    clearTimeout(this.typingTimer);
    this.typingTimer = setTimeout(() => this.stopTyping(), timings.typingIdleMs);
  }

  // ---------- receiving ----------

  private receive(messages: ChatMessage[]): void {
    if (this.disposed) return;
    const { sessionId, entries, open, unread } = this.state;
    const ours = messages.filter((message) => message.sessionId === sessionId);
    if (ours.length > 0) this.sessionStarted = true;
    const { entries: merged, added } = mergeMessages(entries, ours);
    if (merged === entries) return;
    const fromStaff = added.filter((message) => !message.isFromUser).length;
    this.state.setEntries(merged);
    this.state.setUnread(open ? 0 : unread + fromStaff);
    if (fromStaff) this.state.setStaffTyping(false);
    this.continuity.reportSeen();
  }

  /** A resync's answer, unless the visitor has moved to another conversation meanwhile. */
  private receiveAnswer(answer: ChatResyncAnswer, sessionId: string): void {
    if (sessionId !== this.state.sessionId) return;
    this.receive(answer.messages);
    if (answer.session) this.receiveState(answer.session);
  }

  /** The session's whole state, kept unless an older one than held (pushes and answers can cross). */
  private receiveState(state: ChatSessionState): void {
    if (this.disposed || state.sessionId !== this.state.sessionId) return;
    if (!isNewerState(this.state.session, state)) return;
    this.state.setSession(state);
    // A rating asked or given while the widget was away comes with the state, as its push would have.
    if (state.ratingAsked) this.state.setRatingAsked(true);
    if (state.rating) this.state.setRating(state.rating);
  }

  private staffTyping(payload: TypingPayload): void {
    if (payload.sessionId !== this.state.sessionId) return;
    clearTimeout(this.staffTypingTimer);
    this.state.setStaffTyping(payload.typing);
    // A closed staff tab never says it stopped: the indicator goes after a while on its own.
    if (payload.typing) this.staffTypingTimer = setTimeout(() => this.state.setStaffTyping(false), timings.typingShownMaxMs);
  }

  /**
   * What the panel misses after its cursor, with the session's state: by the socket's resync when
   * connected (which also subscribes), else by REST. The first load has no cursor yet.
   */
  private async fetchHistory(): Promise<ChatResyncAnswer> {
    const { sessionId, entries } = this.state;
    const afterSeq = this.historyLoaded ? cursorOf(entries) : 0;
    if (!this.transport.isConnected()) return fetchChatResync(sessionId, afterSeq);
    const connection = this.connectionCount;
    const answer = await this.transport.resync(sessionId, afterSeq);
    this.joinedConnection = connection;
    return answer;
  }

  /** Joined on the live connection after the history loaded: pushes have kept the list current since. */
  private upToDate(): boolean {
    return this.historyLoaded && this.state.connected && this.joinedConnection === this.connectionCount;
  }

  /** The first load decides between the history and the welcome message. */
  private loadFirstHistory(): Promise<void> {
    // "Loading messages..." only while the panel has nothing to show yet, never over a welcome or a list.
    const { open, showWelcome, entries } = this.state;
    if (open && !showWelcome && entries.length === 0) this.state.setLoading(true);
    if (this.firstLoad) return this.firstLoad;
    const { sessionId } = this.state;
    const load: Promise<void> = this.fetchHistory()
      .then(
        (answer) => {
          if (sessionId !== this.state.sessionId) return;
          this.receiveAnswer(answer, sessionId);
          this.historyLoaded = true;
          this.state.setShowWelcome(answer.messages.length === 0);
          // Asked while the widget was away (another page, a reload): the prompt shows again.
          if (answer.messages.length > 0) void this.loadRatingState();
        },
        (error: unknown) => {
          console.error('Failed to load chat messages', error);
          if (sessionId === this.state.sessionId) this.state.setShowWelcome(this.state.entries.length === 0);
        },
      )
      .finally(() => {
        if (this.firstLoad === load) this.firstLoad = null;
        this.state.setLoading(false);
      });
    this.firstLoad = load;
    return load;
  }

  /**
   * Loads the history, or catches up on it after the first time. A mailed link being opened goes
   * first: it names the conversation to load (a load begun for the id before it would be dropped).
   */
  private async loadHistory(): Promise<void> {
    await this.linkOpening;
    if (!this.historyLoaded) return this.loadFirstHistory();
    const { sessionId } = this.state;
    try {
      this.receiveAnswer(await this.fetchHistory(), sessionId);
    } catch (error) {
      console.error('Failed to load chat messages', error);
    }
  }

  /** The 3 s poll, only while the panel is open and the socket is not connected. */
  private syncPolling(): void {
    const { open, connected } = this.state;
    const shouldPoll = open && !connected && !this.disposed;
    if (shouldPoll && this.pollTimer === undefined) {
      this.pollTimer = setInterval(() => {
        const { sessionId, entries } = this.state;
        fetchChatResync(sessionId, cursorOf(entries)).then(
          (answer) => this.receiveAnswer(answer, sessionId),
          (error: unknown) => console.error('Chat poll failed', error),
        );
      }, timings.chatPollMs);
    } else if (!shouldPoll && this.pollTimer !== undefined) {
      clearInterval(this.pollTimer);
      this.pollTimer = undefined;
    }
  }

  // ---------- sending ----------

  private updateEntry(key: string, change: Partial<ChatEntry>): void {
    // A message of a conversation no longer shown has no entry to change.
    if (!this.state.entries.some((entry) => entry.key === key)) return;
    this.state.setEntries(this.state.entries.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));
  }

  /** Messages of the outbox that wait for the connection; one stored meanwhile stays as it is. */
  private markPending(messages: OutgoingMessage[]): void {
    if (this.disposed) return;
    const keys = new Set(messages.map((message) => message.key));
    const waiting = (entry: ChatEntry) => keys.has(entry.key) && entry.id === undefined;
    if (!this.state.entries.some(waiting)) return;
    this.state.setEntries(this.state.entries.map((entry) => (waiting(entry) ? { ...entry, status: 'pending', error: undefined } : entry)));
  }

  /**
   * Sends one message of the outbox: over the socket when connected, else by REST; a send the socket
   * may have missed is retried by REST with the same clientId. Says whether it was stored, refused,
   * or could not reach the server (then the outbox holds it, and the ones after it, for later).
   */
  private async deliver(message: OutgoingMessage): Promise<DeliveryOutcome> {
    const shown = message.sessionId === this.state.sessionId;
    // Stored already (its answer was lost, and a resync brought the row): nothing to send again.
    if (shown && this.state.entries.some((entry) => entry.key === message.key && entry.id !== undefined)) return 'stored';
    this.updateEntry(message.key, { status: 'sending', error: undefined });
    const outgoing: ChatMessageInput = {
      sessionId: message.sessionId,
      message: message.text,
      clientId: message.clientId,
      ...(message.senderEmail ? { senderEmail: message.senderEmail } : {}),
      ...(message.senderName ? { senderName: message.senderName } : {}),
      // Not the query or fragment: a page such as the reset link's carries a secret there.
      pageUrl: `${window.location.origin}${window.location.pathname}`,
      ...(document.referrer ? { referrer: document.referrer } : {}),
      // The visit so far, until the conversation exists: the server keeps it with the first message only.
      ...(this.sessionStarted || !shown ? {} : { pages: visitPages(), timeZone: visitorTimeZone() }),
    };
    try {
      let stored: ChatMessage;
      if (this.transport.isConnected()) {
        try {
          stored = await this.transport.send(outgoing);
        } catch (error) {
          if (error instanceof ChatRefusedError) throw error;
          stored = await postChatMessage(outgoing);
        }
      } else {
        stored = await postChatMessage(outgoing);
      }
      this.receive([stored]);
      return 'stored';
    } catch (error) {
      if (!isRefusal(error)) return 'unreachable';
      if (!this.disposed) this.updateEntry(message.key, { status: 'failed', error: failureText(error) });
      return 'refused';
    }
  }

  // ---------- rating ----------

  private async loadRatingState(): Promise<void> {
    try {
      const { asked, rating } = await fetchRatingState(this.state.sessionId);
      if (this.disposed) return;
      if (asked) this.state.setRatingAsked(true);
      if (rating) this.state.setRating(rating);
    } catch (error) {
      console.error('Failed to load the chat rating', error);
    }
  }

  /** "How did we do?" answered: undefined once stored, else the sentence to show. Given once: a second is refused. */
  async rate(rating: ChatRatingValue, comment: string): Promise<string | undefined> {
    try {
      const stored = await postRating(this.state.sessionId, { rating, ...(comment.trim() ? { comment: comment.trim() } : {}) });
      if (!this.disposed) this.state.setRating(stored);
      return undefined;
    } catch (error) {
      // Rated already (another tab, the mailed link): show what is stored.
      if (error instanceof ApiError && error.status === 409) void this.loadRatingState();
      return failureText(error) === 'Not sent' ? 'Could not send your rating. Please try again.' : failureText(error);
    }
  }

  private stopTyping(): void {
    if (this.typingTimer === undefined) return;
    clearTimeout(this.typingTimer);
    this.typingTimer = undefined;
    this.transport.typing({ sessionId: this.state.sessionId, typing: false });
  }
}
