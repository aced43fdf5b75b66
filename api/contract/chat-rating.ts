import { z } from 'zod';
import { chatLimits } from './brand';
import { isoDate, optionalText, signedLinkToken } from './common';

/** "How did we do?": good or bad, and an optional comment (DESIGN.md 10). */
export const chatRatingValues = ['good', 'bad'] as const;
export type ChatRatingValue = (typeof chatRatingValues)[number];
export const chatRatingValueSchema = z.enum(chatRatingValues, { error: 'Rating must be good or bad' });

export const chatRatingCommentMaxLength = chatLimits.ratingCommentMaxLength;

/** `POST /api/chat-rating/:sessionId` (the widget): the visitor's rating of their own conversation. */
export const chatRatingInputSchema = z
  .object({
    rating: chatRatingValueSchema,
    comment: optionalText(chatRatingCommentMaxLength, 'Comment', { multiline: true }),
  })
  .strict();
export type ChatRatingInput = z.input<typeof chatRatingInputSchema>;

/** A rating link's token (mailed to a visitor who left), signed by api/lib/signed-link.ts. */
export const ratingLinkTokenSchema = signedLinkToken('This rating link is not valid');

/** `POST /api/chat-rating-by-link`: the confirm page of a mailed rating link. */
export const chatRatingByLinkSchema = z
  .object({
    token: ratingLinkTokenSchema,
    rating: chatRatingValueSchema,
    comment: optionalText(chatRatingCommentMaxLength, 'Comment', { multiline: true }),
  })
  .strict();
export type ChatRatingByLinkInput = z.input<typeof chatRatingByLinkSchema>;

/** A rating as it is stored on its session, as staff and its visitor see it. */
export const chatRatingRecord = z.object({
  rating: chatRatingValueSchema,
  comment: z.string().nullable(),
  ratedAt: isoDate,
});
export type ChatRating = z.infer<typeof chatRatingRecord>;

/** `GET /api/chat-rating/:sessionId`: whether the visitor was asked, and their rating once given. */
export const chatRatingState = z.object({ asked: z.boolean(), rating: chatRatingRecord.nullable() });
export type ChatRatingState = z.infer<typeof chatRatingState>;

export const chatAlreadyRatedMessage = 'This conversation has been rated already. Thank you!';
/** A rating nobody asked for (the widget asks when staff resolve, or after their last reply waited): refused, so reports count answers to our question only. */
export const chatRatingNotAskedMessage = 'This conversation has not been asked for a rating yet';
export const ratingLinkInvalidMessage = 'This rating link is not valid';
export const ratingLinkExpiredMessage = 'This rating link has expired';

/** The confirm page a rating link opens (web/app/router.tsx): `?token=...&rating=good|bad`. */
export const ratingLinkPage = '/rate';
