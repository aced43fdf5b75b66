import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { notAuthenticatedMessage } from '../../../contract/auth';
import { isSameSiteOrigin } from '../../../plugins/origin';
import { tooManyRequestsMessage } from '../../../plugins/rate-limits';
import { eventBudgetFor } from '../limits/chat.budget';
import { RecentChatRooms } from './chat.rooms';
import type { StaffSocketData, VisitorSocketData } from './chat.socket-data';

const crossSiteMessage = 'Connection refused: it did not come from this site';

/** An engine.io request that opens a connection; later polls and the upgrade carry the connection's `sid`. */
function isEngineHandshake(request: IncomingMessage): boolean {
  return !new URLSearchParams(request.url?.split('?')[1] ?? '').has('sid');
}

type IssuedIdentity = { visitorId: string; setCookie: string } | { refusal: string };

/**
 * A handshake without the visitor cookie gets a new identity, counted per client address like REST's:
 * the count is asynchronous and the handshake's headers are not, so it runs first, in engine.io's
 * middleware (which sees every engine.io request: only a handshake, with no `sid`, is counted). The
 * cookie rides on the handshake's answer; the result is kept for the namespace guard to read.
 */
function issueVisitorIdentities(app: FastifyInstance): (request: IncomingMessage) => IssuedIdentity | undefined {
  const issuedInHandshake = new WeakMap<IncomingMessage, IssuedIdentity>();
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
  return (request) => issuedInHandshake.get(request);
}

/**
 * The connect guards of the chat's two namespaces. Visitors on `/` by their signed visitor cookie
 * (issued in the handshake when absent); staff on `/admin` by a live staff session of the same
 * session store as REST. Both refuse a page of another site: SameSite=Lax keeps the cookies off its
 * websocket, and this refuses it outright, as REST refuses its state-changing calls.
 */
export function guardChatHandshakes(app: FastifyInstance, config: { publicUrl: string; rateLimitAllowlist: readonly string[] }): void {
  const fromThisSite = (handshake: { headers: IncomingMessage['headers'] }) =>
    isSameSiteOrigin(handshake.headers.origin, handshake.headers.host, config.publicUrl);
  const issuedFor = issueVisitorIdentities(app);
  const budgetFor = (socket: { request: IncomingMessage }) => eventBudgetFor(app.clientAddress(socket.request), config.rateLimitAllowlist);

  app.visitorSockets.use((socket, next) => {
    if (!fromThisSite(socket.handshake)) return next(new Error(crossSiteMessage));
    const issued = issuedFor(socket.request);
    if (issued && 'refusal' in issued) return next(new Error(issued.refusal));
    const visitorId = app.visitorIdFromCookieHeader(socket.request.headers.cookie) ?? issued?.visitorId;
    if (!visitorId) return next(new Error('Visitor identity missing: enable cookies'));
    socket.data = { visitorId, budget: budgetFor(socket), chatRooms: new RecentChatRooms() } satisfies VisitorSocketData;
    next();
  });

  // Every socket of /admin is a staff member's: the namespace is the staff.
  app.staffSockets.use((socket, next) => {
    if (!fromThisSite(socket.handshake)) return next(new Error(crossSiteMessage));
    const sid = app.sessionIdFromCookieHeader(socket.request.headers.cookie);
    if (!sid) return next(new Error(notAuthenticatedMessage));
    app.liveStaffIdOf(sid).then(
      (staffId) => {
        if (staffId === undefined) return next(new Error(notAuthenticatedMessage));
        socket.data = { sid, staffId, budget: budgetFor(socket) } satisfies StaffSocketData;
        next();
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'staff socket session check failed');
        next(new Error('Could not check the session: please try again'));
      },
    );
  });
}
