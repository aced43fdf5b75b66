import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config';
import { askForRatings, ChatRatings } from './chat.rating';
import { chatRatingRoutes } from './chat.rating.routes';

/** Rating a conversation: the widget's and the mailed link's routes, and the ask after a resolve or a last reply, pushed or mailed. */
export async function rating(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(chatRatingRoutes, { ratings: new ChatRatings(app, app.write, config.sessionSecret) });
  askForRatings(app, config);
}
