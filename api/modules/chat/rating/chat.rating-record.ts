import { type ChatRating, chatRatingValueSchema } from '../../../contract/chat-rating';

/** A session row's rating as the API shows it; null until given (or for a value the contract does not know). */
export function ratingOf(row: { rating: string | null; ratingComment: string | null; ratedAt: string | null }): ChatRating | null {
  const rating = chatRatingValueSchema.safeParse(row.rating);
  if (!rating.success || row.ratedAt === null) return null;
  return { rating: rating.data, comment: row.ratingComment, ratedAt: row.ratedAt };
}
