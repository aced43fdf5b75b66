import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config';
import { chatSendLimits } from '../limits/chat.rate-limit';
import { visitorChatRoutes } from './chat.routes';
import { ChatService } from './chat.service';

export { staffChatRoutes } from './chat.routes';

/**
 * Conversations: sessions and their numbered messages, one service behind the REST calls and the
 * socket events (realtime/), each send counted per address (limits/). Decorates `app.chat` and
 * registers the visitor's routes; the staff's are `staffChatRoutes`, which app.ts adds in the
 * cookie-session scope. Reacts to nothing: other capabilities react to its events.
 */
export async function conversation(app: FastifyInstance, config: Config): Promise<ChatService> {
  const limits = chatSendLimits(app, config.rateLimitAllowlist);
  const chat = new ChatService(app.db, app.write, limits);
  app.decorate('chat', chat);
  await app.register(visitorChatRoutes, { chat });
  return chat;
}
