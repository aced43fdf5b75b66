import { timings } from '../../../api/contract/brand';
import type { TypingPayload } from '../../../api/contract/socket';
import type { ChatStoreHook } from './store';
import type { ChatTransport } from './transport';

/** Typing, both ways: the visitor's told to staff (start, and stop after 3 s without a key); staff's shown for a while at most. */
export class ChatTyping {
  private typingTimer: ReturnType<typeof setTimeout> | undefined;
  private staffTypingTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: ChatStoreHook,
    private readonly transport: ChatTransport,
  ) {}

  /** Tells staff the visitor is typing: once at the start, and "stopped" after 3 s without a key. */
  visitorTyping(): void {
    if (this.typingTimer === undefined) this.transport.typing({ sessionId: this.store.getState().sessionId, typing: true });
    clearTimeout(this.typingTimer);
    this.typingTimer = setTimeout(() => this.stopTyping(), timings.typingIdleMs);
  }

  stopTyping(): void {
    if (this.typingTimer === undefined) return;
    clearTimeout(this.typingTimer);
    this.typingTimer = undefined;
    this.transport.typing({ sessionId: this.store.getState().sessionId, typing: false });
  }

  staffTyping(payload: TypingPayload): void {
    const state = this.store.getState();
    if (payload.sessionId !== state.sessionId) return;
    clearTimeout(this.staffTypingTimer);
    state.setStaffTyping(payload.typing);
    // A closed staff tab never says it stopped: the indicator goes after a while on its own.
    if (payload.typing) this.staffTypingTimer = setTimeout(() => this.store.getState().setStaffTyping(false), timings.typingShownMaxMs);
  }

  /** Another conversation: the visitor stops typing in the previous one, and staff's indicator goes. */
  switched(): void {
    this.stopTyping();
    clearTimeout(this.staffTypingTimer);
  }

  /** Every timer stops, telling nobody. */
  dispose(): void {
    clearTimeout(this.typingTimer);
    this.typingTimer = undefined;
    clearTimeout(this.staffTypingTimer);
    this.staffTypingTimer = undefined;
  }
}
