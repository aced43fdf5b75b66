import type { LeadKind } from './leads';

/**
 * Every REST path of the API, used by the server's routes and the web app's API clients alike.
 * It imports nothing at run time, so the main web bundle may use it without pulling in zod.
 * `:name` segments are filled by `pathTo`.
 */
export const apiPaths = {
  health: '/api/health',
  session: '/api/session',
  dealerLogin: '/api/login',
  dealerLogout: '/api/logout',
  staffLogin: '/api/admin-login',
  staffLogout: '/api/admin-logout',
  forgotPassword: '/api/forgot-password',
  resetPassword: '/api/reset-password',
  /** A visitor's message (the widget's REST path while its socket is down). */
  chatMessage: '/api/chat-message',
  /** Every chat message, for staff. */
  chatMessages: '/api/chat-messages',
  /** One session's history: the widget's poll, or staff reading a conversation. */
  chatHistory: '/api/chat-messages/:sessionId',
  staffReply: '/api/admin-chat-reply',
  chatSessions: '/api/chat-sessions',
  chatSession: '/api/chat-sessions/:sessionId',
  /** The visitor's context beside a conversation: pages, time zone, earlier conversations and leads. */
  chatSessionContext: '/api/chat-sessions/:sessionId/context',
  /** The visitor has seen their conversation up to a seq (the REST twin of `chat:seen`). */
  chatSeen: '/api/chat-sessions/:sessionId/seen',
  /** Mail the conversation to its own email: the visitor's own, or any for staff. */
  chatTranscript: '/api/chat-sessions/:sessionId/transcript',
  /** The widget opens a mailed conversation link's token. */
  chatLinks: '/api/chat-links',
  /** The visitor's rating of their own conversation (GET: asked and given; POST: rate). */
  chatRating: '/api/chat-rating/:sessionId',
  /** A rating from a mailed link's confirm page (a signed token, no cookie). */
  chatRatingByLink: '/api/chat-rating-by-link',
  /** The visitor's own conversations, newest first (the widget's past conversations). */
  visitorChatSessions: '/api/chat-visitor/sessions',
  /** A visitor's resync of one conversation: messages after `?afterSeq=` and its state (the widget's poll). */
  visitorChatResync: '/api/chat-visitor/sessions/:sessionId',
  /** A reconnecting dashboard's resync: the sessions changed since the versions it holds. */
  staffChatResync: '/api/chat-sessions/resync',
  /** A conversation's private notes (staff only). */
  chatNotes: '/api/chat-sessions/:sessionId/notes',
  /** The team's canned replies: any staff read them; admins change them. */
  cannedReplies: '/api/canned-replies',
  /** PATCH (title and text) or DELETE one canned reply. */
  cannedReply: '/api/canned-replies/:id',
  lead: '/api/leads/:kind/:id',
  /** Assignment: PUT `{ assigneeId }` (null unassigns). */
  chatSessionAssignee: '/api/chat-sessions/:sessionId/assignee',
  leadAssignee: '/api/leads/:kind/:id/assignee',
  /** The staff a conversation or lead may be given to (the picker). */
  assignees: '/api/assignees',
  /** Auto-assignment's on/off and capacity (admins). */
  autoAssignmentSettings: '/api/settings/auto-assignment',
  adminCounts: '/api/admin/counts',
  /** One contact's leads and conversations by email (`?email=`), newest first. */
  contactTimeline: '/api/contacts/timeline',
  /** The team's figures over a date range (`?from=&to=`). */
  reports: '/api/reports',
} as const;

/** The query parameter of a mailed conversation link (`/?chat=<token>`): the widget opens it and takes it out of the address. */
export const chatLinkQueryParam = 'chat';

/** The create and staff-list path of each kind of lead, and the file name of its CSV export. */
export const leadPaths: Record<LeadKind, { create: string; list: string; csvName: string }> = {
  contact: { create: '/api/contact-submission', list: '/api/contact-submissions', csvName: 'contact-submissions' },
  support: { create: '/api/support-ticket', list: '/api/support-tickets', csvName: 'support-tickets' },
  demo: { create: '/api/demo-request', list: '/api/demo-requests', csvName: 'demo-requests' },
  'get-started': { create: '/api/get-started-request', list: '/api/get-started-requests', csvName: 'get-started-requests' },
};

/** `path` with each `:name` segment replaced by its URL-encoded value. */
export function pathTo(path: string, params: Record<string, string | number>): string {
  return path.replace(/:(\w+)/g, (segment, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`pathTo: no value for ${segment} in ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** `path` with a query string of the parameters that have a value. */
export function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}
