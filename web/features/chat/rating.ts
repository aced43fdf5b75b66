import type { ChatRatingValue } from '../../../api/contract/chat-rating';
import { ApiError } from '../../lib/api-client';
import { fetchRatingState, postRating } from './api';
import { failureText } from './delivery';
import type { ChatStoreHook } from './store';

/** "How did we do?": whether the visitor was asked, and their answer, in the widget's store. */
export class ChatRating {
  constructor(
    private readonly store: ChatStoreHook,
    private readonly disposed: () => boolean,
  ) {}

  /** Asked or answered while the widget was away (another page, a reload, the mailed link). */
  async load(): Promise<void> {
    try {
      const { asked, rating } = await fetchRatingState(this.store.getState().sessionId);
      if (this.disposed()) return;
      if (asked) this.store.getState().setRatingAsked(true);
      if (rating) this.store.getState().setRating(rating);
    } catch (error) {
      console.error('Failed to load the chat rating', error);
    }
  }

  /** Undefined once stored, else the sentence to show. Given once: a second is refused. */
  async rate(rating: ChatRatingValue, comment: string): Promise<string | undefined> {
    try {
      const stored = await postRating(this.store.getState().sessionId, { rating, ...(comment.trim() ? { comment: comment.trim() } : {}) });
      if (!this.disposed()) this.store.getState().setRating(stored);
      return undefined;
    } catch (error) {
      // Rated already (another tab, the mailed link): show what is stored.
      if (error instanceof ApiError && error.status === 409) void this.load();
      return failureText(error) === 'Not sent' ? 'Could not send your rating. Please try again.' : failureText(error);
    }
  }
}
