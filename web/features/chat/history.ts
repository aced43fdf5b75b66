import { timings } from '../../../api/contract/brand';
import type { ChatResyncAnswer } from '../../../api/contract/chat-resync';
import { cursorOf, fetchChatResync } from './resync';
import type { ChatStore, ChatStoreHook } from './store';
import type { ChatTransport } from './transport';

/** What the history asks of its controller: where an answer goes, and whether the widget is gone. */
export interface HistoryOwner {
  /** A resync's answer, unless the visitor has moved to another conversation meanwhile. */
  receiveAnswer(answer: ChatResyncAnswer, sessionId: string): void;
  /** The first load found a conversation (not the welcome). */
  firstLoaded(): void;
  disposed(): boolean;
}

/**
 * A conversation's history: its first load, the catch-up by cursor after a (re)connect, and the 3 s
 * REST poll while the panel is open and the socket is down. Socket connections are counted here, so
 * the controller knows whether its join is the live connection's.
 */
export class ChatHistory {
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private historyLoaded = false;
  /**
   * Socket connections so far (never reset, so a late answer to an old join cannot pass for the live
   * one's), and the connection whose join succeeded: that one is subscribed and pushed every new message.
   */
  private connectionCount = 0;
  private joinedConnection = 0;
  /** The first load in flight, so opening the panel meanwhile waits for it instead of loading twice. */
  private firstLoad: Promise<void> | null = null;
  /** A mailed link being opened: the history waits for it, to load the conversation it names. */
  private linkOpening: Promise<void> | null = null;

  constructor(
    private readonly store: ChatStoreHook,
    private readonly transport: ChatTransport,
    private readonly owner: HistoryOwner,
  ) {}

  private get state(): ChatStore {
    return this.store.getState();
  }

  /** A new socket connection: no join on it yet. */
  connected(): void {
    this.connectionCount += 1;
  }

  /** Loads wait for the mailed link being opened. */
  waitFor(linkOpening: Promise<void>): Promise<void> {
    const waiting = linkOpening.finally(() => {
      if (this.linkOpening === waiting) this.linkOpening = null;
    });
    this.linkOpening = waiting;
    return waiting;
  }

  /** Another conversation: a new one has no history to load (its first message starts it), an earlier one loads from the start. */
  reset(started: boolean): void {
    this.historyLoaded = !started;
    this.joinedConnection = 0;
    this.firstLoad = null;
  }

  stopPolling(): void {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /**
   * What the panel misses after its cursor, with the session's state: by the socket's resync when
   * connected (which also subscribes), else by REST. The first load has no cursor yet.
   */
  private async fetch(): Promise<ChatResyncAnswer> {
    const { sessionId, entries } = this.state;
    const afterSeq = this.historyLoaded ? cursorOf(entries) : 0;
    if (!this.transport.isConnected()) return fetchChatResync(sessionId, afterSeq);
    const connection = this.connectionCount;
    const answer = await this.transport.resync(sessionId, afterSeq);
    this.joinedConnection = connection;
    return answer;
  }

  /** Joined on the live connection after the history loaded: pushes have kept the list current since. */
  upToDate(): boolean {
    return this.historyLoaded && this.state.connected && this.joinedConnection === this.connectionCount;
  }

  /** The first load decides between the history and the welcome message. */
  private loadFirst(): Promise<void> {
    // "Loading messages..." only while the panel has nothing to show yet, never over a welcome or a list.
    const { open, showWelcome, entries } = this.state;
    if (open && !showWelcome && entries.length === 0) this.state.setLoading(true);
    if (this.firstLoad) return this.firstLoad;
    const { sessionId } = this.state;
    const load: Promise<void> = this.fetch()
      .then(
        (answer) => {
          if (sessionId !== this.state.sessionId) return;
          this.owner.receiveAnswer(answer, sessionId);
          this.historyLoaded = true;
          this.state.setShowWelcome(answer.messages.length === 0);
          // Asked while the widget was away (another page, a reload): the prompt shows again.
          if (answer.messages.length > 0) this.owner.firstLoaded();
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
  async load(): Promise<void> {
    await this.linkOpening;
    if (!this.historyLoaded) return this.loadFirst();
    const { sessionId } = this.state;
    try {
      this.owner.receiveAnswer(await this.fetch(), sessionId);
    } catch (error) {
      console.error('Failed to load chat messages', error);
    }
  }

  /** The 3 s poll, only while the panel is open and the socket is not connected. */
  syncPolling(): void {
    const { open, connected } = this.state;
    const shouldPoll = open && !connected && !this.owner.disposed();
    if (shouldPoll && this.pollTimer === undefined) {
      this.pollTimer = setInterval(() => {
        const { sessionId, entries } = this.state;
        fetchChatResync(sessionId, cursorOf(entries)).then(
          (answer) => this.owner.receiveAnswer(answer, sessionId),
          (error: unknown) => console.error('Chat poll failed', error),
        );
      }, timings.chatPollMs);
    } else if (!shouldPoll && this.pollTimer !== undefined) {
      clearInterval(this.pollTimer);
      this.pollTimer = undefined;
    }
  }
}
