import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config';
import { chatLinkRoutes, mailChatContinuity } from './chat.continuity';

/** Email continuity: staff replies the visitor has not seen are mailed with a link that opens the conversation in any browser. */
export async function continuity(app: FastifyInstance, config: Config): Promise<void> {
  mailChatContinuity(app, config);
  await app.register(chatLinkRoutes, { config });
}
