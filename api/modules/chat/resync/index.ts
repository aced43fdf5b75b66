import type { FastifyInstance } from 'fastify';
import { ChatResync, pushSessionStates } from './chat.resync';
import { visitorResyncRoutes } from './chat.resync.routes';
import { chatResyncSocketEvents } from './chat.resync.socket';

/** Resync: a reconnecting visitor or dashboard gets what it missed by cursor; a session's state is pushed to its visitor. */
export async function resync(app: FastifyInstance): Promise<void> {
  app.decorate('chatResync', new ChatResync(app.db));
  pushSessionStates(app);
  await app.register(visitorResyncRoutes);
  chatResyncSocketEvents(app);
}
