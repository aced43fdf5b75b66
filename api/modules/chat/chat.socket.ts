import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io';
import type { z } from 'zod';
import { adminChatReplySchema, chatMessageInputSchema, chatSessionParamsSchema, chatTypingSchema } from '../../contract/chat';
import { notAuthenticatedMessage } from '../../contract/auth';
import { timings } from '../../contract/brand';
import {
  type Ack,
  rooms,
  type StaffClientToServerEvents,
  type StaffServerToClientEvents,
  type VisitorClientToServerEvents,
  type VisitorServerToClientEvents,
} from '../../contract/socket';
import { HttpError } from '../../plugins/errors';
import { isSameSiteOrigin } from '../../plugins/origin';
import { tooManyRequestsMessage } from '../../plugins/rate-limits';
import { EventBudget, overBudget } from './chat.budget';
import type { ChatService } from './chat.service';

export interface VisitorSocketData {
  visitorId: string;
  budget: EventBudget;
}
interface StaffSocketData {
  /** The cookie session's id: logout and expiry find the socket by it. */
  sid: string;
  budget: EventBudget;
}
type VisitorSocket = Socket<VisitorClientToServerEvents, VisitorServerToClientEvents, Record<string, never>, VisitorSocketData>;
type StaffSocket = Socket<StaffClientToServerEvents, StaffServerToClientEvents, Record<string, never>, StaffSocketData>;

/** An engine.io request that opens a connection; later polls and the upgrade carry the connection's `sid`. */
function isEngineHandshake(request: IncomingMessage): boolean {
  return !new URLSearchParams(request.url?.split('?')[1] ?? '').has('sid');
}

/** The first message of a payload's zod issues, as an ack error. */
function parsePayload<T extends z.ZodType>(schema: T, payload: unknown): { ok: true; data: z.infer<T> } | { ok: false; error: string } {
  const result = schema.safeParse(payload);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, error: result.error.issues[0]?.message ?? 'Invalid payload' };
}

/** Runs an acked handler: client mistakes and refusals become `{ ok: false, error }`, never a crash. */
async function answer<T extends object>(app: FastifyInstance, ack: unknown, work: () => Promise<{ ok: true } & T>): Promise<void> {
  const reply: Ack<T> = typeof ack === 'function' ? (ack as Ack<T>) : () => {};
  try {
    reply(await work());
  } catch (error) {
    if (error instanceof HttpError) return reply({ ok: false, error: error.message });
    app.log.error({ err: error }, 'socket handler failed');
    reply({ ok: false, error: 'Something went wrong on our side. Please try again.' });
  }
}

/**
 * The realtime half of the chat (DESIGN section 4): visitors on `/` by their visitor cookie, staff on
 * `/admin` by a live staff session of the same session store as REST. Every write goes through the
 * chat service, so the REST and socket paths store and push alike.
 */
export async function chatSocket(app: FastifyInstance, options: { chat: ChatService; publicUrl: string }): Promise<void> {
  const { chat, publicUrl } = options;

  /**
   * A browser page of another site may open a websocket here; SameSite=Lax keeps the cookies off it,
   * and this refuses it outright, as REST refuses its state-changing calls. Non-browser clients send no Origin.
   */
  const fromThisSite = (handshake: { headers: IncomingMessage['headers'] }) =>
    isSameSiteOrigin(handshake.headers.origin, handshake.headers.host, publicUrl);
  const crossSiteMessage = 'Connection refused: it did not come from this site';
  const visitors = app.visitorSockets;
  const staff = app.staffSockets;

  // ---------- visitor identity: the signed visitor cookie, issued in the handshake when absent ----------
  /**
   * A handshake without the cookie gets a new identity, counted per client address like REST's: the
   * count is asynchronous and the handshake's headers are not, so it runs first, in engine.io's
   * middleware (which sees every engine.io request: only a handshake, with no `sid`, is counted).
   */
  const issuedInHandshake = new WeakMap<IncomingMessage, { visitorId: string; setCookie: string } | { refusal: string }>();
  app.io.engine.use((request: IncomingMessage, _response: unknown, next: (error?: Error) => void) => {
    if (isEngineHandshake(request) && !app.visitorIdFromCookieHeader(request.headers.cookie)) {
      app.newVisitorAllowed(app.clientAddress(request)).then(
        (allowed) => {
          issuedInHandshake.set(request, allowed.ok ? app.issueVisitorCookie() : { refusal: tooManyRequestsMessage(allowed.retryAfterMs) });
          next();
        },
        (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
      );
      return;
    }
    next();
  });
  app.io.engine.on('initial_headers', (headers: Record<string, string | string[]>, request: IncomingMessage) => {
    const issued = issuedInHandshake.get(request);
    if (issued && 'setCookie' in issued) headers['set-cookie'] = issued.setCookie;
  });

  visitors.use((socket, next) => {
    if (!fromThisSite(socket.handshake)) return next(new Error(crossSiteMessage));
    const issued = issuedInHandshake.get(socket.request);
    if (issued && 'refusal' in issued) return next(new Error(issued.refusal));
    const visitorId = app.visitorIdFromCookieHeader(socket.request.headers.cookie) ?? issued?.visitorId;
    if (!visitorId) return next(new Error('Visitor identity missing: enable cookies'));
    socket.data = { visitorId, budget: new EventBudget() } satisfies VisitorSocketData;
    next();
  });

  // Every socket of /admin is a staff member's (the connect guard): the namespace is the staff.
  const staffOnline = async () => (await staff.fetchSockets()).length > 0;
  const broadcastPresence = async () => {
    visitors.emit('staff:presence', { online: await staffOnline() });
  };

  visitors.on('connection', (rawSocket) => {
    const socket = rawSocket as VisitorSocket;
    const { visitorId, budget } = socket.data;
    const userAgent = socket.handshake.headers['user-agent'];
    const ip = app.clientAddress(socket.request);

    void staffOnline().then((online) => socket.emit('staff:presence', { online }));

    socket.on('chat:join', (payload, ack) => {
      if (overBudget(budget, ack)) return;
      void answer(app, ack, async () => {
        const parsed = parsePayload(chatSessionParamsSchema, payload);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        // Throws 404 for a stranger's session; a new id is joined so its first replies arrive here.
        const { messages } = await chat.visitorHistory(visitorId, parsed.data.sessionId);
        await socket.join(rooms.chatSession(parsed.data.sessionId));
        return { ok: true as const, messages };
      });
    });

    socket.on('chat:send', (payload, ack) => {
      if (overBudget(budget, ack)) return;
      void answer(app, ack, async () => {
        const parsed = parsePayload(chatMessageInputSchema, payload);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        // A visitor's message is always the visitor's: the service never reads the payload's isFromUser.
        const { message } = await chat.sendVisitorMessage({ visitorId, userAgent, ip, socketId: socket.id }, parsed.data);
        const room = rooms.chatSession(message.sessionId);
        if (!socket.rooms.has(room)) await socket.join(room);
        return { ok: true as const, message };
      });
    });

    socket.on('chat:typing', (payload) => {
      if (overBudget(budget, undefined)) return;
      const parsed = parsePayload(chatTypingSchema, payload);
      if (!parsed.ok) return;
      void chat.visitorOwns(visitorId, parsed.data.sessionId).then(
        (owns) => {
          if (owns) staff.emit('chat:typing', parsed.data);
        },
        (error: unknown) => app.log.error({ err: error }, 'typing check failed'),
      );
    });
  });

  // ---------- staff: a live staff session of the cookie-session store, checked at connect and after ----------
  const expire = (sid: string) => {
    const room = rooms.staffSession(sid);
    staff.to(room).emit('session:expired');
    staff.in(room).disconnectSockets(true);
  };

  staff.use((socket, next) => {
    if (!fromThisSite(socket.handshake)) return next(new Error(crossSiteMessage));
    const sid = app.sessionIdFromCookieHeader(socket.request.headers.cookie);
    if (!sid) return next(new Error(notAuthenticatedMessage));
    app.isLiveStaffSid(sid).then(
      (live) => {
        if (!live) return next(new Error(notAuthenticatedMessage));
        socket.data = { sid, budget: new EventBudget() } satisfies StaffSocketData;
        next();
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'staff socket session check failed');
        next(new Error('Could not check the session: please try again'));
      },
    );
  });

  staff.on('connection', (rawSocket) => {
    const socket = rawSocket as StaffSocket;
    const { sid, budget } = socket.data;
    void socket.join(rooms.staffSession(sid));
    void broadcastPresence();
    socket.on('disconnect', () => void broadcastPresence());

    /**
     * Same rule as REST: a reply needs a live staff session, checked now, not just at connect. (The
     * idle clock is refreshed by the dashboard's REST calls; writing the session from here could
     * bring back one that a logout just destroyed.)
     */
    const requireLiveSession = async () => {
      if (!(await app.isLiveStaffSid(sid))) {
        setImmediate(() => expire(sid));
        throw new HttpError(401, notAuthenticatedMessage);
      }
    };

    socket.on('chat:reply', (payload, ack) => {
      if (overBudget(budget, ack)) return;
      void answer(app, ack, async () => {
        const parsed = parsePayload(adminChatReplySchema, payload);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        await requireLiveSession();
        const { message } = await chat.replyAsStaff(parsed.data);
        return { ok: true as const, message };
      });
    });

    socket.on('chat:typing', (payload) => {
      if (overBudget(budget, undefined)) return;
      const parsed = parsePayload(chatTypingSchema, payload);
      if (!parsed.ok) return;
      visitors.to(rooms.chatSession(parsed.data.sessionId)).emit('chat:typing', parsed.data);
    });
  });

  // Idle staff sessions end server-side; their sockets are told, then closed.
  const checkEveryMs = Math.min(timings.staffIdleCheckMs, Math.max(250, app.staffIdleMs / 2));
  const expiryTimer = setInterval(() => {
    const sids = new Set<string>();
    for (const socket of staff.sockets.values()) {
      const sid = (socket.data as Partial<StaffSocketData>).sid;
      if (sid) sids.add(sid);
    }
    for (const sid of sids) {
      app.isLiveStaffSid(sid).then(
        (live) => {
          if (!live) expire(sid);
        },
        (error: unknown) => app.log.warn({ err: error }, 'staff session expiry check failed'),
      );
    }
  }, checkEveryMs);
  expiryTimer.unref();
  app.addHook('onClose', async () => clearInterval(expiryTimer));
}
