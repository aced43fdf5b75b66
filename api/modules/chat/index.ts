import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { escalateUnreadChats } from './escalation/chat.escalation';
import { guardChatHandshakes } from './realtime/chat.handshake';
import { announceStaffPresence, inProcessStaffPresence, redisStaffPresence, type StaffPresence } from './realtime/chat.presence';
import { pushChatEvents } from './realtime/chat.pushes';
import { autoAssignChats } from './assignment/chat.assignment';
import { askForRatings, ChatRatings } from './rating/chat.rating';
import { chatRatingRoutes } from './rating/chat.rating.routes';
import { chatSendLimits } from './limits/chat.rate-limit';
import { ChatResync, pushSessionStates } from './resync/chat.resync';
import { visitorResyncRoutes } from './resync/chat.resync.routes';
import { chatResyncSocketEvents } from './resync/chat.resync.socket';
import { capChatRoomsPerSocket } from './realtime/chat.rooms';
import { visitorChatRoutes } from './conversation/chat.routes';
import { ChatService } from './conversation/chat.service';
import { chatSocketEvents } from './realtime/chat.socket';
import { closeEndedStaffSessions, expireIdleStaffSockets } from './staff-expiry/chat.staff-expiry';
import { chatLinkRoutes, mailChatContinuity } from './continuity/chat.continuity';
import { seenRoutes, seenSocketEvents } from './seen/chat.seen';
import { chatTranscripts, transcriptRoutes } from './transcript/chat.transcript';
import { pushChatNotes } from './notes/chat.notes';
import { shareConversationViewing } from './collision/chat.collision';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one chat service; other modules may read chat data through it. */
    chat: ChatService;
    /** Who on the staff has a live dashboard socket, on any process (chat.presence.ts). */
    staffPresence: StaffPresence;
  }
}

export { staffChatRoutes } from './conversation/chat.routes';

/**
 * Live chat: one service behind the REST calls and the Socket.IO events. Registered outside the
 * cookie-session scope; app.ts adds `staffChatRoutes` inside it.
 */
export default fp(
  async (app: FastifyInstance, options: { config: Config }) => {
    const limits = chatSendLimits(app, options.config.rateLimitAllowlist);
    const chat = new ChatService(app.db, app.write, limits);
    pushChatEvents(app);
    pushChatNotes(app);
    app.decorate('chat', chat);
    await app.register(visitorChatRoutes, { chat });
    await app.register(chatRatingRoutes, { ratings: new ChatRatings(app, app.write, options.config.sessionSecret) });
    askForRatings(app, options.config);
    escalateUnreadChats(app, options.config);
    app.decorate('chatResync', new ChatResync(app.db));
    pushSessionStates(app);
    await app.register(visitorResyncRoutes);
    guardChatHandshakes(app, options.config);
    if (app.redis) {
      const ttlSeconds = options.config.presenceTtlSeconds;
      const presence = redisStaffPresence(app.redis.client, { keyPrefix: app.redis.keyPrefix, ttlSeconds });
      // Four refreshes per TTL: a key outlives a late refresh or two, and a dead process's staff drop out within TTL + a quarter.
      app.decorate('staffPresence', presence);
      announceStaffPresence(app, presence, { shared: true, refreshEveryMs: (ttlSeconds * 1000) / 4, staffArrived: autoAssignChats(app, presence) });
    } else {
      const presence = inProcessStaffPresence();
      app.decorate('staffPresence', presence);
      announceStaffPresence(app, presence, { shared: false, staffArrived: autoAssignChats(app, presence) });
    }
    capChatRoomsPerSocket(app.visitorSockets);
    chatSocketEvents(app, chat);
    shareConversationViewing(app);
    chatResyncSocketEvents(app);
    expireIdleStaffSockets(app);
    closeEndedStaffSessions(app);
    // The visitor is never lost (DESIGN.md 10): seen receipts, email continuity, transcripts.
    await app.register(seenRoutes);
    seenSocketEvents(app);
    mailChatContinuity(app, options.config);
    await app.register(chatLinkRoutes, { config: options.config });
    await app.register(transcriptRoutes, { transcripts: chatTranscripts(app) });
  },
  { name: 'chat', dependencies: ['db', 'events', 'jobs', 'mail', 'redis', 'session', 'auth', 'socket-io'] },
);
