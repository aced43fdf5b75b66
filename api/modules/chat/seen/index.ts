import type { FastifyInstance } from 'fastify';
import { seenRoutes, seenSocketEvents } from './chat.seen';

/** Seen receipts: how far the visitor read, over REST and the socket (continuity/ mails only what they did not see). */
export async function seen(app: FastifyInstance): Promise<void> {
  await app.register(seenRoutes);
  seenSocketEvents(app);
}
