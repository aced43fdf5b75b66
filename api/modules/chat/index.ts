import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { assignment } from './assignment';
import { collision } from './collision';
import { continuity } from './continuity';
import { conversation } from './conversation';
import type { ChatService } from './conversation/chat.service';
import { escalation } from './escalation';
import { notes } from './notes';
import { rating } from './rating';
import { realtime, type StaffPresence } from './realtime';
import { resync } from './resync';
import { seen } from './seen';
import { staffExpiry } from './staff-expiry';
import { transcript } from './transcript';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one chat service; other modules may read chat data through it. */
    chat: ChatService;
    /** Who on the staff has a live dashboard socket, on any process (realtime/chat.presence.ts). */
    staffPresence: StaffPresence;
  }
}

export { staffChatRoutes } from './conversation';

/**
 * Live chat, a folder per capability (README "Folders"), each wired by its own index.ts: this file
 * is the module's only door. Registered outside the cookie-session scope; app.ts adds
 * `staffChatRoutes` inside it. What each capability reacts to: README "Reactions".
 */
export default fp(
  async (app: FastifyInstance, options: { config: Config }) => {
    const { config } = options;
    const chat = await conversation(app, config);
    await rating(app, config);
    escalation(app, config);
    await resync(app);
    realtime(app, { config, chat, staffArrived: (presence) => assignment(app, presence) });
    collision(app);
    staffExpiry(app);
    // The visitor is never lost (DESIGN.md 10): seen receipts, email continuity, transcripts.
    await seen(app);
    await continuity(app, config);
    await transcript(app);
    notes(app);
  },
  { name: 'chat', dependencies: ['db', 'events', 'jobs', 'mail', 'redis', 'session', 'auth', 'socket-io'] },
);
