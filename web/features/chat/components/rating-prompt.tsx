import { ThumbsDown, ThumbsUp } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { chatLimits } from '../../../../api/contract/brand';
import type { ChatRatingValue } from '../../../../api/contract/chat-rating';
import type { ChatController } from '../controller';

export const ratingQuestion = 'How did we do?';

export function ratingThanks(rating: ChatRatingValue): string {
  return rating === 'good' ? 'Thanks for your feedback! Glad we could help.' : 'Thanks for telling us. We read every comment and will do better.';
}

/** Good / bad as two toggle buttons; the chosen one is pressed. */
export function RatingChoice({ value, onChange }: { value: ChatRatingValue | null; onChange: (value: ChatRatingValue) => void }) {
  const option = (rating: ChatRatingValue, label: string, Icon: typeof ThumbsUp, pressedClass: string) => (
    <button
      type="button"
      aria-pressed={value === rating}
      onClick={() => onChange(rating)}
      className={`inline-flex flex-1 items-center justify-center gap-1.5 rounded-lg border px-3 py-2 text-sm font-semibold ${
        value === rating ? pressedClass : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100'
      }`}
    >
      <Icon aria-hidden="true" className="size-4" />
      {label}
    </button>
  );
  return (
    <div role="group" aria-label="Your rating" className="flex gap-2">
      {option('good', 'Good', ThumbsUp, 'border-green-700 bg-green-700 text-white')}
      {option('bad', 'Bad', ThumbsDown, 'border-red-700 bg-red-700 text-white')}
    </div>
  );
}

/**
 * "How did we do?" at the end of the conversation, once staff asked (they resolved it, or their last
 * reply has waited): good or bad, an optional comment, sent once. Then a thank-you in its place.
 */
export function RatingPrompt({ controller }: { controller: ChatController }) {
  const useChat = controller.store;
  const asked = useChat((state) => state.ratingAsked);
  const given = useChat((state) => state.rating);
  const [choice, setChoice] = useState<ChatRatingValue | null>(null);
  const [comment, setComment] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const itemRef = useRef<HTMLLIElement>(null);
  const titleId = useId();
  const commentId = useId();
  const shown = asked || given !== null;

  // It comes in below the last message, and grows with a choice: keep its end (the send button) in view.
  useEffect(() => {
    if (shown) itemRef.current?.scrollIntoView?.({ block: 'end', behavior: 'smooth' });
  }, [shown, given, choice]);

  if (!shown) return null;
  if (given) {
    return (
      <li ref={itemRef} role="status" className="rounded-xl bg-slate-50 px-3 py-2 text-center text-sm text-slate-700">
        {ratingThanks(given.rating)}
      </li>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!choice || sending) return;
    setSending(true);
    setError(await controller.rate(choice, comment));
    setSending(false);
  };

  return (
    <li ref={itemRef} aria-labelledby={titleId} className="rounded-xl border border-slate-200 bg-slate-50 p-3">
      <form onSubmit={(event) => void submit(event)} className="space-y-2">
        <p id={titleId} className="text-sm font-semibold text-slate-900">
          {ratingQuestion}
        </p>
        <RatingChoice value={choice} onChange={setChoice} />
        {choice && (
          <>
            <label htmlFor={commentId} className="block text-xs text-slate-600">
              Anything to add? (optional)
            </label>
            <textarea
              id={commentId}
              rows={2}
              value={comment}
              maxLength={chatLimits.ratingCommentMaxLength}
              onChange={(event) => setComment(event.target.value)}
              className="w-full resize-none rounded-lg border border-slate-300 bg-white px-3 py-2 text-base sm:text-sm"
            />
            <button
              type="submit"
              disabled={sending}
              className="w-full rounded-lg bg-brand px-3 py-2 text-sm font-semibold text-white hover:bg-brand-dark disabled:opacity-60"
            >
              {sending ? 'Sending…' : 'Send rating'}
            </button>
          </>
        )}
        {error && (
          <p role="alert" className="text-xs text-red-700">
            {error}
          </p>
        )}
      </form>
    </li>
  );
}
