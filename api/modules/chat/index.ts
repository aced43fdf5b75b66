import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { socketLimits } from '../../contract/socket';
import { WindowRateLimiter } from './chat.rate-limit';
import { visitorChatRoutes } from './chat.routes';
import { ChatService } from './chat.service';
import { chatSocket, socketPushes } from './chat.socket';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one chat service; other modules may read chat data through it. */
    chat: ChatService;
  }
}

export { staffChatRoutes } from './chat.routes';

/**
 * Live chat: one service behind the REST calls and the Socket.IO events. Registered outside the
 * cookie-session scope; app.ts adds `staffChatRoutes` inside it.
 */
export default fp(
  async (app: FastifyInstance, options: { config: Config }) => {
    const limiter = new WindowRateLimiter(socketLimits.chatSendsPerMinute, 60_000);
    app.addHook('onClose', async () => limiter.close());
    const chat = new ChatService(app.db, app.writes, socketPushes(app), limiter, options.config.rateLimitAllowlist);
    app.decorate('chat', chat);
    await app.register(visitorChatRoutes, { chat });
    await app.register(chatSocket, { chat, publicUrl: options.config.publicUrl });
  },
  { name: 'chat', dependencies: ['db', 'session', 'auth', 'socket-io'] },
);
