import { ThumbsDown, ThumbsUp } from 'lucide-react';
import type { ChatRating } from '../../../../api/contract/chat-rating';
import { formatDate } from '../lib/format';
import { Badge } from './badges';

const ratingLabels = { good: 'Good', bad: 'Bad' } as const;

/** The visitor's rating in the inbox list: a small thumbs badge beside the session (its words in its label and tooltip). */
export function RatingBadge({ rating }: { rating: ChatRating | null | undefined }) {
  if (!rating) return null;
  const Icon = rating.rating === 'good' ? ThumbsUp : ThumbsDown;
  const label = `Rated ${ratingLabels[rating.rating].toLowerCase()}${rating.comment ? ', with a comment' : ''}`;
  return (
    <span title={label} className="inline-flex" data-rating={rating.rating}>
      <Badge className={`px-1.5 ${rating.rating === 'good' ? 'bg-green-100 text-green-800' : 'bg-red-100 text-red-800'}`} label={label}>
        <Icon aria-hidden="true" className="size-3.5" />
      </Badge>
    </span>
  );
}

/** The visitor's rating on the conversation: good or bad, when, and their comment (as typed, never as HTML). */
export function ConversationRating({ rating }: { rating: ChatRating | null | undefined }) {
  if (!rating) return null;
  const good = rating.rating === 'good';
  const Icon = good ? ThumbsUp : ThumbsDown;
  return (
    <div
      data-testid="conversation-rating"
      className={`flex items-start gap-2 border-b px-4 py-2 text-sm ${good ? 'border-green-200 bg-green-50 text-green-900' : 'border-red-200 bg-red-50 text-red-900'}`}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0">
        <p>
          <span className="font-semibold">Visitor rated this chat {ratingLabels[rating.rating].toLowerCase()}</span>
          <span className="ml-2 text-xs opacity-75">{formatDate(rating.ratedAt)}</span>
        </p>
        {rating.comment ? <p className="mt-0.5 break-words whitespace-pre-wrap">“{rating.comment}”</p> : null}
      </div>
    </div>
  );
}
