import { type FormEvent, useId, useState } from 'react';
import { chatLimits } from '../../../../api/contract/brand';
import type { ChatRating, ChatRatingValue } from '../../../../api/contract/chat-rating';
import { ApiError } from '../../../lib/api-client';
import { postRatingByLink } from '../api';
import { RatingChoice, ratingQuestion, ratingThanks } from './rating-prompt';

function refusalText(error: unknown): string {
  if (error instanceof ApiError && error.body) return (error.body.errors ? Object.values(error.body.errors)[0] : undefined) ?? error.body.message;
  return 'Could not send your rating. Please try again.';
}

/**
 * The confirm page of a mailed rating link: the link's choice comes preselected, and nothing is
 * recorded until the visitor presses Send (a mail scanner that opens the link rates nothing).
 */
export function RatingLinkForm({ token, initial }: { token: string; initial: ChatRatingValue | null }) {
  const [choice, setChoice] = useState<ChatRatingValue | null>(initial);
  const [comment, setComment] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [stored, setStored] = useState<ChatRating | null>(null);
  const commentId = useId();

  if (stored) {
    return (
      <p role="status" className="mt-4 text-slate-700">
        {ratingThanks(stored.rating)}
      </p>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!choice || sending) return;
    setSending(true);
    setError(undefined);
    try {
      setStored(await postRatingByLink({ token, rating: choice, ...(comment.trim() ? { comment: comment.trim() } : {}) }));
    } catch (failure) {
      setError(refusalText(failure));
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="mt-4 space-y-4">
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-700">{ratingQuestion}</legend>
        <RatingChoice value={choice} onChange={setChoice} />
      </fieldset>
      <div>
        <label htmlFor={commentId} className="mb-1 block text-sm font-medium text-slate-700">
          Anything to add? (optional)
        </label>
        <textarea
          id={commentId}
          rows={4}
          value={comment}
          maxLength={chatLimits.ratingCommentMaxLength}
          onChange={(event) => setComment(event.target.value)}
          className="w-full rounded-lg border border-slate-300 px-3 py-2 text-base"
        />
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={!choice || sending}
        className="w-full rounded-lg bg-brand px-4 py-2.5 font-semibold text-white hover:bg-brand-dark disabled:cursor-not-allowed disabled:opacity-60"
      >
        {sending ? 'Sending…' : 'Send rating'}
      </button>
    </form>
  );
}
