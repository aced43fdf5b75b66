import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { chatSessionParamsSchema } from '../../../contract/chat';
import { chatRatingByLinkSchema, chatRatingInputSchema, chatRatingRecord, chatRatingState } from '../../../contract/chat-rating';
import { errorBodySchema } from '../../../contract/common';
import { apiPaths } from '../../../contract/paths';
import type { ChatRatings } from './chat.rating';

const errors = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 410: errorBodySchema, 429: errorBodySchema };
/** Per IP and per route, as the public forms: one rating a conversation, so far above what people send. */
const ratingPostsPerIp = { max: 20, timeWindow: 60 * 1000 };

/**
 * The rating's calls. The widget's are the visitor's own session only (by the visitor cookie, never
 * issued here: no cookie owns no session); the confirm page of a mailed link posts its token instead.
 * Outside the cookie-session scope, like the visitor's chat calls.
 */
export async function chatRatingRoutes(instance: FastifyInstance, options: { ratings: ChatRatings }): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { ratings } = options;
  const visitorOf = (cookie: string | undefined) => app.visitorIdFromCookieHeader(cookie);

  app.get(
    apiPaths.chatRating,
    { schema: { params: chatSessionParamsSchema, response: { 200: chatRatingState, ...errors } } },
    async (request) => ratings.state(visitorOf(request.headers.cookie), request.params.sessionId),
  );

  app.post(
    apiPaths.chatRating,
    { schema: { params: chatSessionParamsSchema, body: chatRatingInputSchema, response: { 200: chatRatingRecord, ...errors } }, config: { rateLimit: ratingPostsPerIp } },
    async (request) => ratings.rate({ by: 'visitor', visitorId: visitorOf(request.headers.cookie) }, request.params.sessionId, request.body),
  );

  app.post(
    apiPaths.chatRatingByLink,
    { schema: { body: chatRatingByLinkSchema, response: { 200: chatRatingRecord, ...errors } }, config: { rateLimit: ratingPostsPerIp } },
    async (request) => {
      const { token, ...rating } = request.body;
      return ratings.rate({ by: 'link', token }, undefined, rating);
    },
  );
}
