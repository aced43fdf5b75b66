import { hoursAt } from '../../../api/contract/business-hours';
import { type ChatMessage, chatSenderEmailSchema } from '../../../api/contract/chat';
import { emailMessage } from '../../../api/contract/common';
import type { ChatResyncAnswer, ChatSessionState } from '../../../api/contract/chat-resync';
import { type LeaveMessageField, type LeaveMessageInput, leaveMessageSchema } from '../../../api/contract/leave-message';
import type { ChatRatingValue } from '../../../api/contract/chat-rating';
import { failureText, isRefusal, messageInput, newClientId, sendMessageInput } from './delivery';
import { type ChatEntry, mergeMessages } from './messages';
import { fetchVisitorSessions, isNewerState } from './resync';
import { readOrCreateSessionId, startNewSessionId, storeSessionId } from './session-id';
import { ChatContinuity, takeChatLinkToken } from './continuity';
import { ChatOutbox, type DeliveryOutcome, type OutgoingMessage } from './outbox';
import { ChatHistory } from './history';
import { ChatRating } from './rating';
import { type ChatStore, createChatStore } from './store';
import type { ChatTransport } from './transport';
import { ChatTyping } from './typing';
import { addVisitPage } from './visit-pages';

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

  /** A stored message of the session has been seen: the conversation exists on the server. */
  private sessionStarted = false;
  private disposed = false;
  /** Seen receipts, the mailed link and transcripts (continuity.ts). */
  readonly continuity: ChatContinuity;
  private readonly onVisibilityChange = () => this.continuity.reportSeen();
  /** The visitor's messages on their way, one at a time in the order written (outbox.ts). */
  private readonly outbox = new ChatOutbox(
    (message) => this.deliver(message),
    (messages) => this.markPending(messages),
  );
  /** The browser is back online: what waits goes now, by REST if the socket is not back yet. */
  private readonly onOnline = () => this.outbox.resume();

  /** "How did we do?" (rating.ts). */
  private readonly rating: ChatRating;
  /** Typing, both ways (typing.ts). */
  private readonly typing: ChatTyping;
  /** The history, its catch-up and the poll (history.ts). */
  private readonly history: ChatHistory;

  constructor(private readonly transport: ChatTransport) {
    this.continuity = new ChatContinuity(this.store, transport);
    this.rating = new ChatRating(this.store, () => this.disposed);
    this.typing = new ChatTyping(this.store, transport);
    this.history = new ChatHistory(this.store, transport, {
      receiveAnswer: (answer, sessionId) => this.receiveAnswer(answer, sessionId),
      firstLoaded: () => void this.rating.load(),
      disposed: () => this.disposed,
    });
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
    void this.history.waitFor(this.continuity.openLink(token)).then(() => {
      if (!this.disposed) this.startTransport();
    });
  }

  private startTransport(): void {
    this.transport.start({
      onConnect: () => {
        this.history.connected();
        this.state.setConnected(true);
        this.history.syncPolling();
        this.outbox.resume();
        // Joining subscribes this socket to the session's replies and catches up on what was missed.
        void this.history.load();
      },
      onDisconnect: () => {
        this.state.setConnected(false);
        this.state.setStaffTyping(false);
        this.history.syncPolling();
      },
      onMessage: (message) => this.receive([message]),
      onTyping: (payload) => this.typing.staffTyping(payload),
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
    this.history.stopPolling();
    this.typing.dispose();
  }

  openPanel(): void {
    if (this.state.open) return;
    this.state.setOpen(true);
    this.state.setUnread(0);
    if (!this.history.upToDate()) void this.history.load();
    this.history.syncPolling();
    this.continuity.reportSeen();
  }

  closePanel(): void {
    this.state.setOpen(false);
    this.history.syncPolling();
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
    void this.history.load();
  }

  /** A new conversation, once the current one is closed: a new id, and the welcome message. */
  startNewConversation(): void {
    this.switchTo(startNewSessionId(), false);
    this.state.setView('chat');
  }

  /** Everything the panel held of the previous conversation goes; answers still on their way for it are dropped (receiveAnswer). */
  private switchTo(sessionId: string, started: boolean): void {
    this.typing.switched();
    this.state.setSessionId(sessionId);
    this.state.setEntries([]);
    this.state.setSession(null);
    this.state.setStaffTyping(false);
    this.state.setShowWelcome(!started);
    // A new conversation has no history to load; its first message starts it, with the visit's pages.
    this.history.reset(started);
    this.sessionStarted = false;
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
    this.typing.stopTyping();
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
    this.typing.visitorTyping();
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
    const outgoing = messageInput(message, shown && !this.sessionStarted);
    try {
      const stored = await sendMessageInput(this.transport, outgoing);
      this.receive([stored]);
      return 'stored';
    } catch (error) {
      if (!isRefusal(error)) return 'unreachable';
      if (!this.disposed) this.updateEntry(message.key, { status: 'failed', error: failureText(error) });
      return 'refused';
    }
  }

  // ---------- rating ----------

  /** "How did we do?" answered: undefined once stored, else the sentence to show. Given once: a second is refused. */
  rate(rating: ChatRatingValue, comment: string): Promise<string | undefined> {
    return this.rating.rate(rating, comment);
  }
}
