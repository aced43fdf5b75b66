import { transcriptConfirmationText } from '../../../api/contract/continuity';
import { chatLinkQueryParam } from '../../../api/contract/paths';
import { ApiError } from '../../lib/api-client';
import { openChatLink, postSeen, requestTranscript } from './continuity-api';
import { storeSessionId } from './session-id';
import type { ChatStoreHook } from './store';
import type { ChatTransport } from './transport';

function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.body?.message) return error.body.message;
  return fallback;
}

/**
 * The mailed link's token (`?chat=<token>`), taken out of the address at once: a reload, a shared
 * screenshot or a bookmark does not carry it on.
 */
export function takeChatLinkToken(): string | null {
  const url = new URL(window.location.href);
  const token = url.searchParams.get(chatLinkQueryParam);
  if (token === null) return null;
  url.searchParams.delete(chatLinkQueryParam);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return token || null;
}

/**
 * The widget's part of "the visitor is never lost" (DESIGN.md 10): seen receipts, the mailed link
 * that reopens a conversation on any device, and "Email me this conversation". The controller calls
 * it at its few points; it writes to the same store.
 */
export class ChatContinuity {
  /** The highest seq told to the server as seen, for this session. */
  private seenUpTo = 0;

  constructor(
    private readonly store: ChatStoreHook,
    private readonly transport: ChatTransport,
  ) {}

  /**
   * Opens the conversation of a mailed link: it becomes this browser's conversation. A link that
   * does not open leaves the visitor's own conversation, with a sentence saying why.
   */
  async openLink(token: string): Promise<void> {
    try {
      const { sessionId } = await openChatLink(token);
      storeSessionId(sessionId);
      this.store.getState().setSessionId(sessionId);
      this.seenUpTo = 0;
    } catch (error) {
      this.store.getState().setNotice(errorText(error, 'This conversation link could not be opened. Please try again.'));
    }
  }

  /**
   * Tells the server what the visitor has on screen, when staff replies it has not heard of are
   * there, the panel is open and the tab is visible: upTo is the highest seq on screen. Over the
   * socket when connected, else by REST.
   */
  reportSeen(): void {
    const { open, entries, sessionId } = this.store.getState();
    if (!open || typeof document === 'undefined' || document.visibilityState !== 'visible') return;
    let upTo = 0;
    let newStaffReply = false;
    for (const entry of entries) {
      if (entry.seq === undefined) continue;
      upTo = Math.max(upTo, entry.seq);
      if (!entry.fromUser && entry.seq > this.seenUpTo) newStaffReply = true;
    }
    if (!newStaffReply) return;
    const before = this.seenUpTo;
    this.seenUpTo = upTo;
    if (this.transport.isConnected()) {
      this.transport.seen({ sessionId, upTo });
      return;
    }
    postSeen(sessionId, upTo).catch((error: unknown) => {
      // Told again with the next look at the panel.
      if (this.seenUpTo === upTo) this.seenUpTo = before;
      console.error('Seen receipt failed', error);
    });
  }

  /** "Email me this conversation": to the conversation's own email; without one, the email field shows. */
  async emailTranscript(): Promise<void> {
    const state = this.store.getState();
    if (state.transcript.state === 'sending') return;
    state.setTranscript({ state: 'sending', text: 'Sending…' });
    try {
      const { email, confirmationSent } = await requestTranscript(state.sessionId);
      // An address that never confirmed it wants our mail gets a link to confirm first (DESIGN 17).
      const text = confirmationSent ? transcriptConfirmationText(email) : `Sent to ${email}. It should arrive in a minute or two.`;
      this.store.getState().setTranscript({ state: 'sent', text });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) this.store.getState().setAskEmail(true);
      this.store.getState().setTranscript({ state: 'failed', text: errorText(error, 'The conversation could not be emailed. Please try again.') });
    }
  }
}
